// In-memory message store, shaped for 100,000+ messages.
//
// Messages live in one array in id order (ids only ever increase, so appending keeps it sorted);
// ids are handed out one after another, so a message's place is read off its id (indexOfMessage),
// where a map of every id cost each send a hash insertion and the heap a table to keep. Narrow queries start from the smallest matching index
// (per channel, per topic, per DM conversation, per user), each a sorted array of message ids,
// so a narrowed GET /messages is a binary search plus a short walk instead of a full scan.
//
// Per-user flags (Zulip's UserMessage rows) are kept per message as one packed number array,
// `userId * FLAG_SPACE + flagBits`, sorted by user id: one 8-byte slot per recipient instead of an
// object per row, which keeps a stored message well under 1 KB beyond its content.
import { sortedDistinct, strictlyAscending } from '../fast/id-lists.ts';

/** Bit positions of the per-user message flags (Zulip's UserMessage.flags, the ones we model). */
export const FLAG_BITS = {
  read: 1 << 0,
  starred: 1 << 1,
  collapsed: 1 << 2,
  mentioned: 1 << 3,
  stream_wildcard_mentioned: 1 << 4,
  topic_wildcard_mentioned: 1 << 5,
  has_alert_word: 1 << 6,
  historical: 1 << 7,
  // Zulip's legacy `wildcard_mentioned` flag is derived (stream or topic wildcard), never stored.
} as const;

export type StoredFlag = keyof typeof FLAG_BITS;

/** Room for the flag bits below the user id in one packed slot (user ids stay far below 2^37). */
export const FLAG_SPACE = 1 << 16;

/** Flag names in the order Zulip lists them in a message's `flags` array. */
export const FLAG_ORDER: readonly StoredFlag[] = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'has_alert_word',
  'historical',
];

/**
 * Wire values of reaction_type. The specification names Zulip's extra emoji set
 * `service_extra_emoji` (Zulip itself says `zulip_extra_emoji`, accepted as input too).
 */
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

export interface StoredReaction {
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
  userId: number;
}

export interface StoredMessage {
  id: number;
  senderId: number;
  /** Zulip Recipient id: the channel's recipient_id, or the DM conversation's recipient_id. */
  recipientId: number;
  /** Channel id for channel messages; null for direct messages. */
  streamId: number | null;
  /** Topic as typed (display form); '' for direct messages and for the empty ("general chat") topic. */
  topic: string;
  /** For direct messages: the participants' user ids, sorted ascending (includes the sender). */
  dmUserIds: readonly number[] | null;
  content: string;
  renderedContent: string;
  timestamp: number;
  client: string;
  isMeMessage: boolean;
  /** Oldest first; null until the first reaction, to keep unreacted messages small. */
  reactions: StoredReaction[] | null;
  /** Packed UserMessage rows: userId * FLAG_SPACE + flag bits, sorted by user id. */
  userFlags: number[];
  /** Zulip's last_edit_time: the latest edit or move (a move alone sets it too). */
  lastEditTimestamp: number | null;
  /** Edit history as Zulip stores it: newest first; null until the first edit or move. */
  editHistory: EditHistoryEntry[] | null;
  /** Whether the rendered content has a link / attachment / image (for has: narrows). */
  hasLink: boolean;
  hasAttachment: boolean;
  hasImage: boolean;
}

/**
 * One stored edit (Zulip's EditHistoryEvent): who and when, plus what changed. Keys appear in
 * the order Zulip writes them, since message objects return the stored entries as they are.
 */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_rendered_content_version?: number;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

export interface DmConversation {
  recipientId: number;
  /** Sorted participant ids (one id for a conversation with oneself). */
  userIds: readonly number[];
}

export interface MessageStore {
  /** All messages in id order. */
  messages: StoredMessage[];
  /** channel id → ids of its messages, ascending. */
  byStream: Map<number, number[]>;
  /** channel id → lower-cased topic → ids, ascending (Zulip matches topics case-insensitively). */
  byTopic: Map<number, Map<string, number[]>>;
  /** DM conversation key (sorted participant ids joined by ',') → ids, ascending. */
  byDmKey: Map<string, number[]>;
  /** DM conversation key → its recipient. */
  dmConversations: Map<string, DmConversation>;
  /** user id → ids of messages the user has a UserMessage row for, ascending. */
  byUser: Map<number, number[]>;
  /**
   * Ids of Notification Bot's "marked this topic as resolved/unresolved" notices (Zulip's
   * Message.type RESOLVE_TOPIC_NOTIFICATION): undoing within the grace period deletes the notice.
   */
  resolveNoticeIds: Set<number>;
}

export function createMessageStore(): MessageStore {
  return {
    messages: [],
    byStream: new Map(),
    byTopic: new Map(),
    byDmKey: new Map(),
    dmConversations: new Map(),
    byUser: new Map(),
    resolveNoticeIds: new Set(),
  };
}

export function dmKey(userIds: Iterable<number>): string {
  // A stored conversation's ids are ascending already: joined as they are, not copied first.
  return (Array.isArray(userIds) && strictlyAscending(userIds) ? userIds : sortedDistinct(userIds)).join(',');
}

export function topicKey(topic: string): string {
  return topic.toLowerCase();
}

function pushTo<K>(map: Map<K, number[]>, key: K, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

/**
 * Append a message (its id must exceed every stored id; `userFlags` packed and sorted by user id,
 * as above, and exactly as long as its rows: an array grown by push keeps room for 17 or more,
 * about 90 B per message beyond its handful of rows). The heap's size costs time as well as
 * memory: each young-generation collection visits every page of the old generation (V8's
 * scavenger), so every request to a server holding a million messages pays for their bytes.
 */
export function appendMessage(store: MessageStore, message: StoredMessage): StoredMessage {
  const last = store.messages[store.messages.length - 1];
  if (last && last.id >= message.id) {
    throw new Error(`message ids must increase: ${message.id} after ${last.id}`);
  }
  // Equal text, one string: a topic or client name read from a request is a new string each time.
  if (last?.client === message.client) message.client = last.client;
  store.messages.push(message);
  if (message.streamId !== null) {
    pushTo(store.byStream, message.streamId, message.id);
    let topics = store.byTopic.get(message.streamId);
    if (!topics) store.byTopic.set(message.streamId, (topics = new Map()));
    const key = topicKey(message.topic);
    const inTopic = topics.get(key);
    const previous = inTopic && getMessage(store, inTopic[inTopic.length - 1]!);
    if (previous?.topic === message.topic) message.topic = previous.topic;
    pushTo(topics, key, message.id);
  } else if (message.dmUserIds) {
    pushTo(store.byDmKey, dmKey(message.dmUserIds), message.id);
  }
  for (const row of message.userFlags) pushTo(store.byUser, Math.floor(row / FLAG_SPACE), message.id);
  return message;
}

/**
 * Remove messages from the array and every index (O(n): deletions are rare admin actions, and
 * keeping the array dense keeps reads simple).
 */
export function removeMessages(store: MessageStore, ids: ReadonlySet<number>): void {
  if (ids.size === 0) return;
  const keep = (list: number[]) => {
    let w = 0;
    for (const id of list) if (!ids.has(id)) list[w++] = id;
    list.length = w;
  };
  // A new array (not an in-place splice): derived caches keyed on the array see the change.
  store.messages = store.messages.filter((m) => !ids.has(m.id));
  for (const list of store.byStream.values()) keep(list);
  for (const topics of store.byTopic.values()) for (const list of topics.values()) keep(list);
  for (const list of store.byDmKey.values()) keep(list);
  for (const list of store.byUser.values()) keep(list);
  for (const id of ids) store.resolveNoticeIds.delete(id);
}

function insertSorted(list: number[], id: number): void {
  list.splice(lowerBound(list, id), 0, id);
}

function removeSorted(list: number[] | undefined, id: number): void {
  if (!list) return;
  const i = lowerBound(list, id);
  if (list[i] === id) list.splice(i, 1);
}

/**
 * Move a channel message to another channel and/or topic, keeping the channel and topic indexes
 * sorted. A topic left without messages disappears from the index.
 */
export function relocateMessage(store: MessageStore, message: StoredMessage, streamId: number, recipientId: number, topic: string): void {
  const oldStream = message.streamId!;
  const oldTopics = store.byTopic.get(oldStream);
  const oldKey = topicKey(message.topic);
  const oldList = oldTopics?.get(oldKey);
  removeSorted(oldList, message.id);
  if (oldList?.length === 0) oldTopics!.delete(oldKey);
  if (streamId !== oldStream) {
    removeSorted(store.byStream.get(oldStream), message.id);
    let list = store.byStream.get(streamId);
    if (!list) store.byStream.set(streamId, (list = []));
    insertSorted(list, message.id);
  }
  let topics = store.byTopic.get(streamId);
  if (!topics) store.byTopic.set(streamId, (topics = new Map()));
  let list = topics.get(topicKey(topic));
  if (!list) topics.set(topicKey(topic), (list = []));
  insertSorted(list, message.id);
  message.streamId = streamId;
  message.recipientId = recipientId;
  message.topic = topic;
}

/** Delete the user's UserMessage row for a message (and its byUser entry), if there is one. */
export function removeUserRow(store: MessageStore, message: StoredMessage, userId: number): void {
  const i = findRow(message, userId);
  if (i < 0) return;
  message.userFlags.splice(i, 1);
  removeSorted(store.byUser.get(userId), message.id);
}

export function getMessage(store: MessageStore, id: number): StoredMessage | undefined {
  const index = indexOfMessage(store, id);
  return index < 0 ? undefined : store.messages[index];
}

/**
 * Where message `id` sits in the store's array, or -1. Ids come one after another, so where none
 * was deleted a message is as far from the first (or, past a deletion, the last) as its id is
 * from theirs; else a binary search over the ascending ids finds it.
 */
export function indexOfMessage(store: MessageStore, id: number): number {
  const messages = store.messages;
  const n = messages.length;
  if (n === 0) return -1;
  const fromFirst = id - messages[0]!.id;
  if (fromFirst >= 0 && fromFirst < n && messages[fromFirst]!.id === id) return fromFirst;
  const fromLast = n - 1 - (messages[n - 1]!.id - id);
  if (fromLast >= 0 && fromLast < n && messages[fromLast]!.id === id) return fromLast;
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = messages[mid]!.id;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function findRow(message: StoredMessage, userId: number): number {
  const rows = message.userFlags;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = Math.floor(rows[mid]! / FLAG_SPACE);
    if (u === userId) return mid;
    if (u < userId) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The user's flag bits for a message, or undefined when the user has no UserMessage row. */
export function userFlagBits(message: StoredMessage, userId: number): number | undefined {
  const i = findRow(message, userId);
  return i < 0 ? undefined : message.userFlags[i]! % FLAG_SPACE;
}

/** Set the user's flag bits, creating the UserMessage row when absent (then it joins byUser). */
export function setUserFlagBits(
  store: MessageStore,
  message: StoredMessage,
  userId: number,
  bits: number,
): void {
  const i = findRow(message, userId);
  if (i >= 0) {
    message.userFlags[i] = userId * FLAG_SPACE + bits;
    return;
  }
  const rows = message.userFlags;
  let at = rows.findIndex((r) => Math.floor(r / FLAG_SPACE) > userId);
  if (at < 0) at = rows.length;
  rows.splice(at, 0, userId * FLAG_SPACE + bits);
  const list = store.byUser.get(userId) ?? [];
  if (!store.byUser.has(userId)) store.byUser.set(userId, list);
  list.splice(lowerBound(list, message.id), 0, message.id);
}

/** Every user id with a UserMessage row for the message, ascending. */
export function rowUserIds(message: StoredMessage): number[] {
  return message.userFlags.map((r) => Math.floor(r / FLAG_SPACE));
}

export function flagNames(bits: number): string[] {
  // Most messages carry no flag for most readers: no scan of the flag list for them.
  return bits === 0 ? [] : FLAG_ORDER.filter((f) => (bits & FLAG_BITS[f]) !== 0);
}

/**
 * How many messages of an ascending id list were sent at `since` or later. A message is stamped
 * with the clock when it is stored and ids only grow, so the list is in time order too (a move
 * keeps it sorted by id) and a binary search finds the first recent one: the cost is the same
 * for a channel of ten messages and one of a million.
 */
export function countSentSince(store: MessageStore, ids: readonly number[], since: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (getMessage(store, ids[mid]!)!.timestamp < since) lo = mid + 1;
    else hi = mid;
  }
  return ids.length - lo;
}

/** First index in a sorted id list whose value is >= id. */
export function lowerBound(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
