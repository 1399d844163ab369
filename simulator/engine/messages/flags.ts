// Changing a user's own message flags (zerver/actions/message_flags.py, zerver/views/message_flags.py):
// POST /messages/flags on listed messages, POST /messages/flags/narrow on a window of a narrow
// (the window GET /messages would show), and the deprecated bulk read endpoints. Only `read`,
// `starred` and `collapsed` may change; a readable message one never received gets a
// `historical` row when given a value other than "read, not starred".
import { getStreamById, canAccessStreamContent, isSubscribed, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import type { NarrowTerm } from '../narrow/parse.ts';
import type { StreamRecord, UserRecord } from '../state.ts';
import { canAccessMessage } from './access.ts';
import { fetchWindow, type Anchor } from './fetch.ts';
import { FLAG_BITS, getMessage, lowerBound, setUserFlagBits, topicKey, userFlagBits, type StoredMessage } from './store.ts';
import { unreadMessageDetails } from './unread.ts';
import type { UpdateMessageFlagsForNarrowResponse } from '../../../schemas/generated/types/chat/responses/update-message-flags-for-narrow.ts';

/** The flags the API names (UserMessage.flags without NON_API_FLAGS), in Zulip's order. */
const API_FLAGS = new Set([
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
]);

/** The flags a user may change; the other API flags are bookkeeping (UserMessage.NON_EDITABLE_FLAGS). */
export const EDITABLE_FLAGS = ['read', 'starred', 'collapsed'] as const;
export type EditableFlag = (typeof EDITABLE_FLAGS)[number];

/** What a message without a UserMessage row counts as: read and historical (DEFAULT_HISTORICAL_FLAGS). */
const DEFAULT_HISTORICAL_BITS = FLAG_BITS.read | FLAG_BITS.historical;

/** Zulip's checks, in its order: a known flag, an editable one, then a known operation. */
function checkFlagChange(op: string, flag: string): { adding: boolean; bit: number } {
  if (!API_FLAGS.has(flag)) throw ChatError.badRequest(`Invalid flag: '${flag}'`);
  if (!(EDITABLE_FLAGS as readonly string[]).includes(flag)) throw ChatError.badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw ChatError.badRequest(`Invalid message flag operation: '${op}'`);
  return { adding: op === 'add', bit: FLAG_BITS[flag as EditableFlag] };
}

export interface FlagsResult {
  /** How many rows actually changed. */
  count: number;
  /** Channels whose messages were not marked unread because the user is not subscribed to them. */
  ignoredChannels: number[];
}

/**
 * do_update_message_flags: messages whose flag already has the wanted value are skipped (a missing
 * row counts as read and historical); marking unread skips channels the user is not subscribed
 * to. Giving a message without a row any other value needs access to it (`Invalid message(s)`,
 * nothing changed) and creates a historical row. The user hears of the messages that changed.
 */
export function updateMessageFlags(engine: Engine, user: UserRecord, op: string, flag: string, ids: readonly number[]): Outcome<FlagsResult> {
  const { adding, bit } = checkFlagChange(op, flag);
  const store = engine.state.messages;
  const target = adding ? bit : 0;
  const markingUnread = flag === 'read' && !adding;

  const ignoredChannels = new Set<number>();
  let candidates = ids;
  if (markingUnread) {
    // The invariant "unread channel messages are in subscribed channels" is kept by skipping.
    candidates = ids.filter((id) => {
      const streamId = getMessage(store, id)?.streamId ?? null;
      if (streamId === null || isSubscribed(engine, user.id, streamId)) return true;
      ignoredChannels.add(streamId);
      return false;
    });
  }
  const bitsOf = (id: number): number | undefined => {
    const message = getMessage(store, id);
    return message ? userFlagBits(message, user.id) : undefined;
  };
  const changing = candidates.filter((id) => ((bitsOf(id) ?? DEFAULT_HISTORICAL_BITS) & bit) !== target);

  const historical = [...new Set(changing.filter((id) => bitsOf(id) === undefined))];
  if ((DEFAULT_HISTORICAL_BITS & bit) !== target) {
    if (historical.some((id) => !canAccessMessageById(engine, user, id))) throw ChatError.badRequest('Invalid message(s)');
  }
  for (const id of new Set(changing)) {
    const message = getMessage(store, id)!;
    const bits = userFlagBits(message, user.id) ?? DEFAULT_HISTORICAL_BITS;
    setUserFlagBits(store, message, user.id, adding ? bits | bit : bits & ~bit);
  }

  const result = { count: changing.length, ignoredChannels: [...ignoredChannels].sort((a, b) => a - b) };
  if (changing.length === 0) return outcome(result);
  const event: Effect['event'] = { type: 'update_message_flags', op, operation: op, flag, messages: changing, all: false };
  if (markingUnread) event.message_details = unreadMessageDetails(engine, user, changing);
  return outcome(result, [effect(event, [user.id])]);
}

function canAccessMessageById(engine: Engine, user: UserRecord, id: number): boolean {
  const message = getMessage(engine.state.messages, id);
  return message !== undefined && canAccessMessage(engine, user, message);
}

/** Zulip's MAX_MESSAGES_PER_UPDATE: the most messages one flags/narrow call processes. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

export interface FlagsForNarrowParams {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  op: string;
  flag: string;
}

/**
 * update_message_flags_for_narrow: the window GET /messages would answer (counts clamped to
 * 5000 in all, not refused), then the same flag change on its messages.
 */
export function updateMessageFlagsForNarrow(engine: Engine, user: UserRecord, p: FlagsForNarrowParams): Outcome<UpdateMessageFlagsForNarrowResponse> {
  const half = MAX_MESSAGES_PER_UPDATE / 2;
  const numBefore = Math.min(p.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - p.numAfter, half));
  const numAfter = Math.min(p.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  const window = fetchWindow(engine, user, { anchor: p.anchor, includeAnchor: p.includeAnchor, numBefore, numAfter, narrow: p.narrow });
  const ids = window.hits.map((h) => h.message.id);
  const updated = updateMessageFlags(engine, user, p.op, p.flag, ids);
  return outcome(
    {
      processed_count: ids.length,
      updated_count: updated.value.count,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids[ids.length - 1] ?? null,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      ignored_because_not_subscribed_channels: updated.value.ignoredChannels,
    },
    updated.events,
  );
}

/** The bulk endpoints' event (Zulip's ReadMessagesEvent, keys in its field order). */
function readMessagesEvent(user: UserRecord, messages: number[], all: boolean): Effect {
  return effect({ messages, all, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read' }, [user.id]);
}

/** Mark the user's unread rows among `ids` (ascending) read; answers those that changed. */
function markRowsRead(engine: Engine, user: UserRecord, ids: Iterable<number>, include: (m: StoredMessage) => boolean = () => true): number[] {
  const store = engine.state.messages;
  const changed: number[] = [];
  for (const id of ids) {
    const message = getMessage(store, id);
    if (!message || !include(message)) continue;
    const bits = userFlagBits(message, user.id);
    if (bits === undefined || (bits & FLAG_BITS.read) !== 0) continue;
    setUserFlagBits(store, message, user.id, bits | FLAG_BITS.read);
    changed.push(id);
  }
  return changed;
}

/** do_mark_all_as_read: every unread row; the event says `all` (clients reload) even when nothing changed. */
export function markAllAsRead(engine: Engine, user: UserRecord): Outcome<{ complete: true }> {
  markRowsRead(engine, user, engine.state.messages.byUser.get(user.id) ?? []);
  return outcome({ complete: true }, [readMessagesEvent(user, [], true)]);
}

/** access_stream_by_id: a channel the user can read, not archived (`Invalid channel ID`). */
function accessStreamById(engine: Engine, user: UserRecord, streamId: number): StreamRecord {
  const stream = getStreamById(engine, streamId);
  if (!stream || stream.is_archived || !canAccessStreamContent(engine, user, stream)) throw ChatError.invalidChannelId();
  return stream;
}

/** The ids of the user's messages in a channel (or one topic of it), ascending, from the indexes. */
function channelMessageIds(engine: Engine, user: UserRecord, streamId: number, topic: string | undefined): number[] {
  const store = engine.state.messages;
  const inChannel = topic === undefined ? store.byStream.get(streamId) : store.byTopic.get(streamId)?.get(topicKey(topic));
  const mine = store.byUser.get(user.id) ?? [];
  if (!inChannel) return [];
  // Walk the shorter list, checking membership in the other by binary search.
  const [short, long] = inChannel.length <= mine.length ? [inChannel, mine] : [mine, inChannel];
  return short.filter((id) => long[lowerBound(long, id)] === id);
}

/** do_mark_stream_messages_as_read: the user's unread rows of a channel or topic; no event when none. */
function markChannelRead(engine: Engine, user: UserRecord, stream: StreamRecord, topic: string | undefined): Outcome<Record<string, never>> {
  const changed = markRowsRead(engine, user, channelMessageIds(engine, user, stream.id, topic));
  return outcome({}, changed.length > 0 ? [readMessagesEvent(user, changed, false)] : []);
}

/** POST /mark_stream_as_read. */
export function markStreamAsRead(engine: Engine, user: UserRecord, streamId: number): Outcome<Record<string, never>> {
  return markChannelRead(engine, user, accessStreamById(engine, user, streamId), undefined);
}

/**
 * POST /mark_topic_as_read: a named topic must hold some message the user received (`No such
 * topic`); the empty topic's display name means the empty topic, and an empty `topic_name` the
 * whole channel.
 */
export function markTopicAsRead(engine: Engine, user: UserRecord, streamId: number, topicName: string): Outcome<Record<string, never>> {
  const stream = accessStreamById(engine, user, streamId);
  if (topicName === '') return markChannelRead(engine, user, stream, undefined);
  const topic = topicName === engine.state.realm.realm_empty_topic_display_name ? '' : topicName;
  if (channelMessageIds(engine, user, stream.id, topic).length === 0) throw ChatError.badRequest(`No such topic '${topic}'`);
  return markChannelRead(engine, user, stream, topic);
}

/** Mark every unread message from `sender` read for `user` (do_mark_muted_user_messages_as_read). */
export function markSenderMessagesRead(engine: Engine, user: UserRecord, senderId: number): Effect[] {
  const changed = markRowsRead(engine, user, engine.state.messages.byUser.get(user.id) ?? [], (m) => m.senderId === senderId);
  return changed.length > 0 ? [readMessagesEvent(user, changed, false)] : [];
}
