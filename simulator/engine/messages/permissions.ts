// Who may change which message: Zulip's message access for modifying endpoints
// (zerver/lib/message.py has_message_access) and the realm- and channel-level permission groups
// that editing, moving, resolving and deleting consult (zerver/lib/streams.py,
// UserProfile.has_permission). Group settings whose Zulip configuration has
// allow_everyone_group=False never grant anything to guests.
import { ChatError } from '../errors.ts';
import { isAdmin, isGuest, isSubscribed, type Engine } from '../core.ts';
import { hasGroupPermission, hasRealmGroupPermission } from '../groups/groups.ts';
import type { ChannelGroupSetting, StreamRecord, UserRecord } from '../state.ts';
import { getMessage, userFlagBits, type StoredMessage } from './store.ts';

/** user_has_permission_for_group_setting for one of the channel's group settings. */
export function hasChannelPermission(engine: Engine, user: UserRecord, stream: StreamRecord, setting: ChannelGroupSetting): boolean {
  return hasGroupPermission(engine, user, setting, stream.groups[setting]);
}

/** has_channel_content_access_helper: subscribed, or (never for guests) in a group granting content access. */
function hasContentAccessViaSubscriptionOrGroups(engine: Engine, user: UserRecord, stream: StreamRecord): boolean {
  if (isSubscribed(engine, user.id, stream.id)) return true;
  if (isGuest(user)) return false;
  return hasChannelPermission(engine, user, stream, 'can_subscribe_group') || hasChannelPermission(engine, user, stream, 'can_add_subscribers_group');
}

/**
 * user_has_content_access: may the user read the channel's messages at all (web-public, public
 * for non-guests, subscribed, or a group granting content access)?
 */
export function hasChannelContentAccess(engine: Engine, user: UserRecord, stream: StreamRecord): boolean {
  if (stream.is_web_public) return true;
  if (isSubscribed(engine, user.id, stream.id)) return true;
  if (isGuest(user)) return false;
  if (!stream.invite_only) return true;
  return hasContentAccessViaSubscriptionOrGroups(engine, user, stream);
}

/**
 * has_message_access: a DM one received; a public channel's message for non-guests; otherwise
 * content access to the channel, plus one's own UserMessage row when history is protected.
 * Modifying a message (editing, moving, deleting) also needs the channel not to be archived.
 */
export function hasMessageAccess(engine: Engine, user: UserRecord, message: StoredMessage, modifying: boolean): boolean {
  if (message.streamId === null) return userFlagBits(message, user.id) !== undefined;
  const stream = engine.state.streams.get(message.streamId);
  if (!stream) return false;
  if (modifying && stream.is_archived) return false;
  if (!stream.invite_only && !isGuest(user)) return true;
  if (!stream.history_public_to_subscribers) {
    return userFlagBits(message, user.id) !== undefined && hasContentAccessViaSubscriptionOrGroups(engine, user, stream);
  }
  return hasContentAccessViaSubscriptionOrGroups(engine, user, stream);
}

/** access_message(..., is_modifying_message=True): a message the user may edit, move or delete. */
export function accessMessageToModify(engine: Engine, user: UserRecord, messageId: number): StoredMessage {
  const message = getMessage(engine.state.messages, messageId);
  if (!message || !hasMessageAccess(engine, user, message, true)) throw ChatError.badRequest('Invalid message(s)');
  return message;
}

/**
 * bulk_access_stream_messages_query for one channel: which of its messages the user may act on
 * (all of a public channel's for non-guests; none without content access; only received ones
 * when history is protected).
 */
export function channelMessageFilter(engine: Engine, user: UserRecord, stream: StreamRecord): (message: StoredMessage) => boolean {
  if (!stream.invite_only && !isGuest(user)) return () => true;
  if (!hasContentAccessViaSubscriptionOrGroups(engine, user, stream)) return () => false;
  if (!stream.history_public_to_subscribers) return (m) => userFlagBits(m, user.id) !== undefined;
  return () => true;
}

/** can_administer_accessible_channel: the channel's can_administer_channel_group (never guests). */
export function canAdministerChannel(engine: Engine, user: UserRecord, stream: StreamRecord): boolean {
  return hasChannelPermission(engine, user, stream, 'can_administer_channel_group');
}

function canMoveMessagesWithinChannel(engine: Engine, user: UserRecord, stream: StreamRecord): boolean {
  if (isAdmin(user) || canAdministerChannel(engine, user, stream)) return true;
  return hasChannelPermission(engine, user, stream, 'can_move_messages_within_channel_group');
}

/** can_edit_topic: the realm's topic-moving group, or either channel's within-channel group. */
export function canEditTopic(engine: Engine, user: UserRecord, orig: StreamRecord, target: StreamRecord): boolean {
  if (hasRealmGroupPermission(engine, user, 'can_move_messages_between_topics_group')) return true;
  if (canMoveMessagesWithinChannel(engine, user, orig)) return true;
  return orig.id !== target.id && canMoveMessagesWithinChannel(engine, user, target);
}

/** can_resolve_topics: the realm's group, or either channel's can_resolve_topics_group. */
export function canResolveTopics(engine: Engine, user: UserRecord, orig: StreamRecord, target: StreamRecord): boolean {
  if (hasRealmGroupPermission(engine, user, 'can_resolve_topics_group')) return true;
  if (hasChannelPermission(engine, user, orig, 'can_resolve_topics_group')) return true;
  return orig.id !== target.id && hasChannelPermission(engine, user, target, 'can_resolve_topics_group');
}

/** can_move_messages_out_of_channel. */
export function canMoveMessagesOutOfChannel(engine: Engine, user: UserRecord, stream: StreamRecord): boolean {
  if (isAdmin(user)) return true;
  if (hasRealmGroupPermission(engine, user, 'can_move_messages_between_channels_group')) return true;
  if (canAdministerChannel(engine, user, stream)) return true;
  return hasChannelPermission(engine, user, stream, 'can_move_messages_out_of_channel_group');
}

/** check_stream_access_based_on_can_send_message_group (no bot-owner fallback here). */
export function inCanSendMessageGroup(engine: Engine, user: UserRecord, stream: StreamRecord): boolean {
  return hasChannelPermission(engine, user, stream, 'can_send_message_group');
}
