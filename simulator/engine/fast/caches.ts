/**
 * What an engine keeps only to answer faster: made with the engine and dropped with it (a reset
 * builds a new engine), never module state, so nothing one engine computed can reach another.
 * Every entry is checked against the state it was computed from before it is used, or keyed by
 * the state object it describes (a state replaced whole starts without one), so none can go
 * stale; losing all of them changes no answer. The modules that read them say what each keeps.
 */
import type { AlertWordIndex } from '../users/alert-words.ts';
import type { LinkifierCaches } from '../markdown/linkifiers.ts';
import type { AvatarEntry } from '../messages/format.ts';
import type { MessageJsonCaches } from './format-json.ts';
import type { WordIndex } from '../narrow/search.ts';
import type { MessageStore } from '../messages/store.ts';
import type { ScheduledMessageRecord, UserRecord } from '../state.ts';

export interface EngineCaches {
  /** fast/format-json.ts: message and sender text kept from one GET /messages answer to the next. */
  messageJson: MessageJsonCaches;
  /** messages/format.ts: each sender's avatar_url with what it was computed from. */
  avatars: WeakMap<UserRecord, AvatarEntry>;
  /** core.ts: md5 of a lower-cased delivery email, for gravatar URLs. */
  gravatarHashes: Map<string, string>;
  /** markdown/linkifiers.ts: compiled patterns and topic links per linkifier list. */
  linkifiers: LinkifierCaches;
  /** narrow/search.ts: the search word index of a message store. */
  wordIndexes: WeakMap<MessageStore, WordIndex>;
  /** narrow/search.ts: a search's highlight pattern by its keywords. */
  highlightPatterns: Map<string, RegExp>;
  /** users/alert-words.ts: the realm's alert-word index, per alert-word table. */
  alertWords: WeakMap<Map<number, string[]>, AlertWordIndex>;
  /** messages/scheduled.ts: no pending message is due before this, per store. */
  scheduledDue: WeakMap<Map<number, ScheduledMessageRecord>, number>;
  /** groups/system-groups.ts: no member becomes a full member before `at`, per user table. */
  promotions: WeakMap<Map<number, UserRecord>, { at: number; users: number }>;
}

export function createEngineCaches(): EngineCaches {
  return {
    messageJson: { flags: new Map(), leading: new WeakMap(), senderHeads: new WeakMap(), senderTails: new WeakMap(), bodies: new WeakMap() },
    avatars: new WeakMap(),
    gravatarHashes: new Map(),
    linkifiers: { compiled: new WeakMap(), topics: new WeakMap() },
    wordIndexes: new WeakMap(),
    highlightPatterns: new Map(),
    alertWords: new WeakMap(),
    scheduledDue: new WeakMap(),
    promotions: new WeakMap(),
  };
}
