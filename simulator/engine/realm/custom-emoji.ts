/**
 * Custom emoji (zerver/views/realm_emoji.py): the realm's list, uploading one under a name, deactivating
 * one. Deactivated emoji stay in the list (old reactions still show them); a new emoji is usable in
 * messages and reactions at once, since the emoji module reads the realm's emoji from the state.
 */
import { activeUserIds, isAdmin, type Engine } from '../core.ts';
import { guessContentType, type UploadInput } from '../integrations/attachments.ts';
import { findRealmEmojiByName, unicodeCodeForName } from '../emoji/index.ts';
import { ChatError } from '../errors.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import { effect, outcome, type Outcome } from '../events/effects.ts';
import { sha256Hex } from '../sha256.ts';
import { nextId, type RealmEmoji, type UserRecord } from '../state.ts';

/** Largest emoji image accepted (Zulip's MAX_EMOJI_FILE_SIZE_MIB). */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/**
 * Image types an emoji may be, with the extension its file gets: those both thumbnailable and safe
 * to serve inline (THUMBNAIL_ACCEPT_IMAGE_TYPES ∩ INLINE_MIME_TYPES).
 */
export const EMOJI_IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/gif': '.gif',
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
};

/** One emoji as GET /realm/emoji, /register and the realm_emoji event show it (EmojiInfo). */
export interface RealmEmojiDict {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
  /** A still image of an animated emoji; the simulator does not decode images, so always null. */
  still_url: string | null;
}

/** Every custom emoji of the realm by ID string, deactivated ones included, ascending ID. */
export function realmEmojiDict(engine: Engine): Record<string, RealmEmojiDict> {
  const out: Record<string, RealmEmojiDict> = {};
  const all = [...engine.state.realm.emoji.values()].sort((a, b) => Number(a.id) - Number(b.id));
  for (const e of all) {
    out[e.id] = { id: e.id, name: e.name, source_url: e.source_url, deactivated: e.deactivated, author_id: e.author_id, still_url: null };
  }
  return out;
}

/**
 * check_valid_emoji_name: lowercase letters, digits, `-` and `_`, not ending with `-` or `_`. The
 * first message says "spaces" because upload_emoji has already turned them into underscores.
 */
export function checkValidEmojiName(name: string): void {
  if (name === '') throw ChatError.badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw ChatError.badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw ChatError.badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

function activeEmojiNamed(engine: Engine, name: string): RealmEmoji | undefined {
  const found = findRealmEmojiByName(engine.state.realm.emoji, name);
  return found && !found.deactivated ? found : undefined;
}

/**
 * The image's type: guessed from its file name as Zulip does (clients such as the Python one send
 * no part content type), else the part's declared type.
 */
function imageType(file: UploadInput): string {
  const declared = file.contentType.split(';')[0]!.trim().toLowerCase();
  return guessContentType(file.name) ?? declared;
}

/**
 * POST /realm/emoji/{emoji_name} (guests and bots are refused by the route): the checks of
 * upload_emoji in its order, then the emoji is stored and the whole list sent to the realm.
 */
export function addRealmEmoji(engine: Engine, actor: UserRecord, rawName: string, files: UploadInput[]): Outcome<Record<string, never>> {
  const realm = engine.state.realm;
  const name = rawName.trim().replaceAll(' ', '_');
  checkValidEmojiName(name);
  if (!hasRealmGroupPermission(engine, actor, 'can_add_custom_emoji_group')) throw ChatError.insufficientPermission();
  if (activeEmojiNamed(engine, name)) throw ChatError.badRequest('A custom emoji with this name already exists.');
  if (files.length !== 1) throw ChatError.badRequest('You must upload exactly one file.');
  if (unicodeCodeForName(name) !== undefined && !isAdmin(actor)) throw ChatError.badRequest('Only administrators can override built-in emoji.');
  const file = files[0]!;
  if (file.bytes.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw ChatError.badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  const extension = EMOJI_IMAGE_EXTENSIONS[imageType(file)];
  if (extension === undefined) throw ChatError.badRequest('Invalid image format');

  const id = String(nextId(engine.state, 'realm_emoji'));
  // Zulip salts a hash of the ID so file names cannot be enumerated; any stable 8 hex digits do here.
  const fileName = `${sha256Hex(`emoji:${realm.id}:${id}`).slice(0, 8)}${extension}`;
  realm.emoji.set(id, {
    id,
    name,
    source_url: `/user_avatars/${realm.id}/emoji/images/${fileName}`,
    deactivated: false,
    author_id: actor.id,
  });
  return outcome({}, [realmEmojiEvent(engine)]);
}

/** DELETE /realm/emoji/{emoji_name}: administrators, or the emoji's author. */
export function removeRealmEmoji(engine: Engine, actor: UserRecord, name: string): Outcome<Record<string, never>> {
  const emoji = activeEmojiNamed(engine, name);
  if (!emoji) throw ChatError.badRequest(`Emoji '${name}' does not exist`);
  if (!isAdmin(actor) && emoji.author_id !== actor.id) throw ChatError.badRequest('Must be an organization administrator or emoji author');
  emoji.deactivated = true;
  return outcome({}, [realmEmojiEvent(engine)]);
}

/** notify_realm_emoji: the full list, to every active user. */
function realmEmojiEvent(engine: Engine) {
  return effect({ type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiDict(engine) }, activeUserIds(engine));
}
