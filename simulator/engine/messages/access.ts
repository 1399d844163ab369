// Who may read which message, following Zulip's rules (zerver/lib/message.py access_message and
// zerver/lib/streams.py can_access_stream_history): a message one received is always readable;
// beyond that, channel history is readable for public channels (non-guests), web-public channels,
// and private channels with shared history that the user is subscribed to.
import { canAccessStreamContent, isGuest, isSubscribed, type Engine } from '../core.ts';
import type { StreamRecord, UserRecord } from '../state.ts';
import { FLAG_BITS, userFlagBits, type StoredMessage } from './store.ts';

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
