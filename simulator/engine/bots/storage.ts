/**
 * Bot storage (Zulip's zerver/lib/bot_storage.py): a small string → string
 * store each bot keeps on the server. No events: only the bot itself reads it.
 */
import { ChatError } from '../errors.ts';
import { outcome, type Outcome } from '../events/effects.ts';
import type { Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { codePointLength } from '../text.ts';

const NOTHING_STORED: ReadonlyMap<string, string> = new Map();

/** What the bot has stored; reading a bot that never stored anything leaves no trace in the state. */
function storeOf(engine: Engine, bot: UserRecord): ReadonlyMap<string, string> {
  return engine.state.botStorage.get(bot.id) ?? NOTHING_STORED;
}

/** The bot's store to write into, made on its first write. */
function writableStoreOf(engine: Engine, bot: UserRecord): Map<string, string> {
  let store = engine.state.botStorage.get(bot.id);
  if (!store) {
    store = new Map();
    engine.state.botStorage.set(bot.id, store);
  }
  return store;
}

/** The keys a request means: those listed, or every stored key when none are (Zulip's `keys or all`). */
function keysMeant(store: ReadonlyMap<string, string>, keys: string[] | undefined): string[] {
  return keys && keys.length > 0 ? keys : [...store.keys()];
}

/** GET /bot_storage: the values of the keys asked for (all by default); any missing key fails the whole request. */
export function getBotStorage(engine: Engine, bot: UserRecord, keys: string[] | undefined): Record<string, string> {
  const store = storeOf(engine, bot);
  const out: Record<string, string> = {};
  for (const key of keysMeant(store, keys)) {
    const value = store.get(key);
    if (value === undefined) throw ChatError.badRequest('Key does not exist.');
    out[key] = value;
  }
  return out;
}

/**
 * PUT /bot_storage: upsert every entry, unless the bot's storage would then exceed the size
 * limit (keys plus values, in characters), in which case nothing is written.
 */
export function putBotStorage(engine: Engine, bot: UserRecord, entries: Record<string, string>): Outcome<Record<string, never>> {
  const store = storeOf(engine, bot);
  const limit = engine.state.realm.bot_storage_size_limit;
  let size = 0;
  for (const [key, value] of store) size += codePointLength(key) + codePointLength(value);
  for (const [key, value] of Object.entries(entries)) {
    const old = store.get(key);
    size += codePointLength(key) + codePointLength(value) - (old === undefined ? 0 : codePointLength(key) + codePointLength(old));
  }
  if (size > limit) {
    throw ChatError.badRequest(`Request exceeds storage limit by ${size - limit} characters. The limit is ${limit} characters.`);
  }
  const writable = writableStoreOf(engine, bot);
  for (const [key, value] of Object.entries(entries)) writable.set(key, value);
  return outcome({});
}

/**
 * DELETE /bot_storage: remove the keys listed (all by default). If fewer stored keys match than
 * were listed (a missing key, or one listed twice, as Zulip counts it), nothing is removed.
 */
export function removeBotStorage(engine: Engine, bot: UserRecord, keys: string[] | undefined): Outcome<Record<string, never>> {
  const store = storeOf(engine, bot);
  const wanted = keysMeant(store, keys);
  const found = new Set(wanted.filter((key) => store.has(key)));
  if (found.size < wanted.length) throw ChatError.badRequest('Key does not exist.');
  if (found.size === 0) return outcome({});
  const writable = writableStoreOf(engine, bot);
  for (const key of found) writable.delete(key);
  return outcome({});
}
