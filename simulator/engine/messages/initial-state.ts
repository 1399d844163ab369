// What POST /register reports about a user's messages (zerver/lib/events.py:fetch_initial_state_data, zerver/lib/message.py:aggregate_unread_data): the newest
// message ID, unread counts, starred IDs and recent DM conversations, all from the user's
// UserMessage rows (the `byUser` index and each message's packed flags).
import { type Engine } from '../core.ts';
import type { UserRecord } from '../state.ts';
import { FLAG_BITS, getMessage, userFlagBits, type StoredMessage } from './store.ts';
import { unreadMsgs } from './unread.ts';

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

/** The `unread_msgs` object (message + update_message_flags wanted): see unread.ts. */
export function unreadMsgsState(engine: Engine, user: UserRecord, options: { allowEmptyTopicName?: boolean } = {}): Record<string, unknown> {
  return { unread_msgs: unreadMsgs(engine, user, options) };
}
