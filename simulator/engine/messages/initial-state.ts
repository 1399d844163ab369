// What POST /register reports about a user's messages (reference part 3 §1.5, §1.8): the newest
// message ID, unread counts, starred IDs and recent DM conversations, all from the user's
// UserMessage rows (the `byUser` index and each message's packed flags).
import { type Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { FLAG_BITS, getMessage, userFlagBits, type StoredMessage } from './store.ts';

/** Zulip's MAX_UNREAD_MESSAGES: the newest unread rows considered. */
export const MAX_UNREAD_MESSAGES = 50_000;
const MAX_STARRED_MESSAGES = 10_000;
const MAX_RECENT_DM_MESSAGES = 1000;

function rowIds(engine: Engine, user: UserRecord): readonly number[] {
  return engine.state.messages.byUser.get(user.id) ?? [];
}

/** The `message` fetch type: the highest message ID the user has a UserMessage row for. */
export function maxMessageIdState(engine: Engine, user: UserRecord): Record<string, unknown> {
  const ids = rowIds(engine, user);
  return { max_message_id: ids.length > 0 ? ids[ids.length - 1]! : -1 };
}

/** The `starred_messages` fetch type. */
export function starredMessagesState(engine: Engine, user: UserRecord): Record<string, unknown> {
  const out: number[] = [];
  for (const id of rowIds(engine, user)) {
    const m = getMessage(engine.state.messages, id);
    if (m && ((userFlagBits(m, user.id) ?? 0) & FLAG_BITS.starred) !== 0) out.push(id);
    if (out.length === MAX_STARRED_MESSAGES) break;
  }
  return { starred_messages: out };
}

/** The other participants of a DM, ascending, without the user (empty for a self-DM). */
function others(m: StoredMessage, userId: number): number[] {
  return (m.dmUserIds ?? []).filter((id) => id !== userId);
}

/** The `recent_private_conversations` fetch type, from the user's newest 1000 direct messages. */
export function recentPrivateConversationsState(engine: Engine, user: UserRecord): Record<string, unknown> {
  const ids = rowIds(engine, user);
  const conversations = new Map<string, { max_message_id: number; user_ids: number[] }>();
  let seen = 0;
  for (let i = ids.length - 1; i >= 0 && seen < MAX_RECENT_DM_MESSAGES; i--) {
    const m = getMessage(engine.state.messages, ids[i]!);
    if (!m || m.streamId !== null) continue;
    seen++;
    const userIds = others(m, user.id);
    const key = userIds.join(',');
    if (!conversations.has(key)) conversations.set(key, { max_message_id: m.id, user_ids: userIds });
  }
  return { recent_private_conversations: [...conversations.values()].sort((a, b) => b.max_message_id - a.max_message_id) };
}

/**
 * The `unread_msgs` object (message + update_message_flags wanted): the newest unread rows,
 * without channels the user left, grouped by conversation; muted channels are listed but not
 * counted, and their wildcard mentions are no mentions.
 */
export function unreadMsgsState(engine: Engine, user: UserRecord): Record<string, unknown> {
  const store = engine.state.messages;
  const ids = rowIds(engine, user);
  const unread: { m: StoredMessage; bits: number }[] = [];
  for (let i = ids.length - 1; i >= 0 && unread.length < MAX_UNREAD_MESSAGES; i--) {
    const m = getMessage(store, ids[i]!);
    if (!m) continue;
    const bits = userFlagBits(m, user.id) ?? FLAG_BITS.read;
    if ((bits & FLAG_BITS.read) !== 0) continue;
    if (m.streamId !== null && engine.state.subscriptions.get(m.streamId)?.get(user.id)?.active === false) continue;
    unread.push({ m, bits });
  }
  const oldUnreadsMissing = unread.length === MAX_UNREAD_MESSAGES;
  unread.reverse();

  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (const { m, bits } of unread) {
    let muted = false;
    if (m.streamId !== null) {
      const key = `${m.streamId}\u0000${m.topic.toLowerCase()}`;
      let group = streams.get(key);
      if (!group) streams.set(key, (group = { stream_id: m.streamId, topic: m.topic, unread_message_ids: [] }));
      group.unread_message_ids.push(m.id);
      muted = engine.state.subscriptions.get(m.streamId)?.get(user.id)?.is_muted === true;
      if (!muted) count++;
    } else {
      const participants = m.dmUserIds ?? [];
      if (participants.length <= 2) {
        const other = others(m, user.id)[0] ?? user.id;
        pms.set(other, [...(pms.get(other) ?? []), m.id]);
      } else {
        const key = participants.join(',');
        huddles.set(key, [...(huddles.get(key) ?? []), m.id]);
      }
      count++;
    }
    const wildcard = (bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) !== 0;
    if ((bits & FLAG_BITS.mentioned) !== 0 || (wildcard && !muted)) mentions.push(m.id);
  }
  const streamGroups = [...streams.values()].sort((a, b) =>
    a.stream_id !== b.stream_id ? a.stream_id - b.stream_id : a.topic.toLowerCase() < b.topic.toLowerCase() ? -1 : a.topic.toLowerCase() > b.topic.toLowerCase() ? 1 : 0,
  );
  return {
    unread_msgs: {
      pms: [...pms.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([other, list]) => ({ other_user_id: other, sender_id: other, unread_message_ids: list })),
      streams: streamGroups,
      huddles: [...huddles.entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([key, list]) => ({ user_ids_string: key, unread_message_ids: list })),
      mentions,
      count,
      old_unreads_missing: oldUnreadsMissing,
    },
  };
}
