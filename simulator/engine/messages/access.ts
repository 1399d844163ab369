// Who may read which message, following Zulip's rules (zerver/lib/message.py access_message and
// zerver/lib/streams.py can_access_stream_history): a message one received is always readable;
// beyond that, channel history is readable for public channels (non-guests), web-public channels,
// and private channels with shared history that the user is subscribed to.
import { canAccessStreamContent, isGuest, isSubscribed, subscribersOf, type Engine } from '../core.ts';
import type { StreamRecord, UserRecord } from '../state.ts';
import { FLAG_BITS, rowUserIds, userFlagBits, type StoredMessage } from './store.ts';

export function canAccessStreamHistory(engine: Engine, user: UserRecord | undefined, stream: StreamRecord): boolean {
  if (!user) return stream.is_web_public && engine.state.realm.enable_spectator_access;
  if (stream.is_web_public) return true;
  if (!stream.history_public_to_subscribers) return false;
  if (stream.invite_only || isGuest(user)) return isSubscribed(engine, user.id, stream.id);
  return canAccessStreamContent(engine, user, stream);
}

/** The viewer's flag bits, or undefined when the message is not readable by them. */
export function viewerFlagBits(engine: Engine, viewer: UserRecord | undefined, message: StoredMessage): number | undefined {
  if (viewer) {
    const bits = userFlagBits(message, viewer.id);
    if (bits !== undefined) return bits;
  }
  if (message.streamId === null) return undefined;
  const stream = engine.state.streams.get(message.streamId);
  if (!stream || !canAccessStreamHistory(engine, viewer, stream)) return undefined;
  // A readable message one never received is shown as read and historical.
  return FLAG_BITS.read | FLAG_BITS.historical;
}

export function canAccessMessage(engine: Engine, viewer: UserRecord | undefined, message: StoredMessage): boolean {
  return viewerFlagBits(engine, viewer, message) !== undefined;
}

/**
 * event_recipient_ids_for_action_on_messages: who hears about a deletion (or another action) on
 * messages of one conversation. DMs: whoever received them. Channels: the active subscribers,
 * narrowed to those who received the messages when history is protected, and widened for public
 * channels to non-guests holding a UserMessage row (e.g. former subscribers).
 */
export function eventRecipientsForMessages(engine: Engine, messages: readonly StoredMessage[]): Set<number> {
  const first = messages[0];
  if (!first) return new Set();
  const rows = new Set(messages.flatMap(rowUserIds));
  if (first.streamId === null) return rows;
  const stream = engine.state.streams.get(first.streamId);
  const subscribers = new Set(stream ? subscribersOf(engine, stream.id) : []);
  if (!stream) return subscribers;
  if (!stream.history_public_to_subscribers) return new Set([...rows].filter((id) => subscribers.has(id)));
  if (stream.invite_only) return subscribers;
  for (const id of rows) {
    const user = engine.state.users.get(id);
    if (user && !isGuest(user)) subscribers.add(id);
  }
  return subscribers;
}
