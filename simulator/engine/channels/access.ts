/**
 * Reaching one channel by id, as Zulip's access_stream_by_id and
 * access_stream_for_delete_or_update_requiring_metadata_access do: every refusal that could reveal
 * a channel the caller may not see reads `Invalid channel ID`, and who hears about a channel's
 * changes (can_access_stream_metadata_user_ids).
 */
import { activeUsers, canAccessStreamContent, canAccessStreamMetadata, isAdmin, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { canAdministerChannel } from '../messages/permissions.ts';
import type { StreamRecord, UserRecord } from '../state.ts';

export interface StreamAccess {
  /** Content access (read the messages) rather than metadata access (see the channel). Default true. */
  requireContentAccess?: boolean;
  /** Archived channels answer `Invalid channel ID`. Default true, as upstream. */
  requireActive?: boolean;
}

/** access_stream_by_id: the channel, or `Invalid channel ID` when it is missing or out of reach. */
export function accessStreamById(engine: Engine, user: UserRecord, streamId: number, access: StreamAccess = {}): StreamRecord {
  const { requireContentAccess = true, requireActive = true } = access;
  const stream = engine.state.streams.get(streamId);
  if (!stream) throw ChatError.invalidChannelId();
  if (requireActive && stream.is_archived) throw ChatError.invalidChannelId();
  const reachable = requireContentAccess ? canAccessStreamContent(engine, user, stream) : canAccessStreamMetadata(engine, user, stream);
  if (!reachable) throw ChatError.invalidChannelId();
  return stream;
}

/** CannotAdministerChannelError. */
export function cannotAdministerChannel(): ChatError {
  return new ChatError('CANNOT_ADMINISTER_CHANNEL', 'You do not have permission to administer this channel.');
}

/**
 * access_stream_for_delete_or_update_requiring_metadata_access (archived channels included):
 * administrators and members of the channel's can_administer_channel_group may; anyone else who
 * can read the channel learns that they may not; everyone else gets `Invalid channel ID`.
 */
export function accessStreamForAdministering(engine: Engine, user: UserRecord, streamId: number): StreamRecord {
  const stream = engine.state.streams.get(streamId);
  if (!stream) throw ChatError.invalidChannelId();
  if (isAdmin(user) || canAdministerChannel(engine, user, stream)) return stream;
  if (canAccessStreamContent(engine, user, stream)) throw cannotAdministerChannel();
  throw ChatError.invalidChannelId();
}

/**
 * can_access_stream_metadata_user_ids: web-public → every active user; public → non-guests and
 * subscribed guests; private → subscribers, administrators and the members of the groups that grant
 * metadata access. Ascending ids.
 */
export function metadataAudience(engine: Engine, stream: StreamRecord): number[] {
  return activeUsers(engine)
    .filter((u) => canAccessStreamMetadata(engine, u, stream))
    .map((u) => u.id);
}
