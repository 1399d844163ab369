/**
 * Administering one channel (zerver/views/streams.py): reading it, its subscribers, changing it
 * (PATCH /streams/{id}), archiving and unarchiving it. Who hears about each change follows
 * zerver/actions/streams.py: the users who can see the channel's metadata, with `stream` `create`
 * and `delete` for those who gain or lose sight of it.
 *
 * Upstream applies the changes of one PATCH one after the other, each in its own transaction, so
 * a refusal late in the request leaves the earlier changes made. Here every check runs first and
 * a refused request changes nothing.
 */
import type { Channel } from '../../../schemas/generated/types/chat/channel.ts';
import { accessChannelFolder } from './folders.ts';
import { accessStreamById, accessStreamForAdministering, metadataAudience } from './access.ts';
import {
  accessNotice,
  accessPolicyName,
  archiveNotice,
  descriptionNotice,
  postingPermissionNotice,
  renameNotice,
  retentionNotice,
  topicsPolicyNotice,
  unarchiveNotice,
} from './notices.ts';
import { canSetTopicsPolicy, checkStreamName, GROUP_SETTING_ORDER, parseRetentionDays } from './settings.ts';
import { formatStream, streamPostPolicy } from './channels.ts';
import {
  activeUsers,
  canAccessStreamContent,
  canAccessStreamMetadata,
  getStreamByName,
  isAdmin,
  isGuest,
  isOwner,
  isSubscribed,
  subscribersOf,
  type Engine,
} from '../core.ts';
import { addDefaultStream, removeDefaultStream } from './default-channels.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import {
  accessGroupSetting,
  groupSettingForApi,
  hasRealmGroupPermission,
  normalizeGroupSetting,
  sameGroupSetting,
  type GroupSettingChange,
} from '../groups/groups.ts';
import { renderDescription } from '../markdown/descriptions.ts';
import type { ChannelGroupSetting, GroupSettingValue, StreamRecord, TopicsPolicy, UserRecord } from '../state.ts';

// ---------------------------------------------------------------- reading

/** GET /streams/{stream_id}: any channel whose metadata the caller can see, archived ones included. */
export function getStream(engine: Engine, user: UserRecord, streamId: number): Channel {
  const stream = accessStreamById(engine, user, streamId, { requireContentAccess: false, requireActive: false });
  return formatStream(engine, stream);
}

/** GET /streams/{stream_id}/members: the active subscribers, ascending. */
export function streamMembers(engine: Engine, user: UserRecord, streamId: number): number[] {
  const stream = accessStreamById(engine, user, streamId, { requireContentAccess: false, requireActive: false });
  return subscribersOf(engine, stream.id);
}

/** GET /users/{user_id}/subscriptions/{stream_id}, once the target user has been looked up. */
export function subscriptionStatus(engine: Engine, viewer: UserRecord, target: UserRecord, streamId: number): boolean {
  const stream = accessStreamById(engine, viewer, streamId, { requireContentAccess: false, requireActive: false });
  return isSubscribed(engine, target.id, stream.id);
}

// ---------------------------------------------------------------- PATCH /streams/{stream_id}

export interface UpdateStreamParams {
  description?: string | undefined;
  is_private?: boolean | undefined;
  is_default_stream?: boolean | undefined;
  history_public_to_subscribers?: boolean | undefined;
  is_web_public?: boolean | undefined;
  new_name?: string | undefined;
  /** Raw: 'realm_default', 'unlimited' or days. */
  message_retention_days?: unknown;
  is_archived?: boolean | undefined;
  topics_policy?: TopicsPolicy | undefined;
  /** undefined: not sent; null: out of any folder. */
  folder_id?: number | null | undefined;
  groups: Partial<Record<ChannelGroupSetting, GroupSettingChange>>;
}

/** The group settings that also grant content access (stream_permission_group_settings_requiring_content_access). */
const CONTENT_ACCESS_SETTINGS: ReadonlySet<ChannelGroupSetting> = new Set(['can_add_subscribers_group', 'can_subscribe_group']);
/** The group settings whose members see the channel's metadata. */
const METADATA_ACCESS_SETTINGS: ReadonlySet<ChannelGroupSetting> = new Set([
  'can_administer_channel_group',
  'can_add_subscribers_group',
  'can_subscribe_group',
]);
const DELETION_SETTINGS: ReadonlySet<ChannelGroupSetting> = new Set(['can_delete_any_message_group', 'can_delete_own_message_group']);

function invalidParameters(): ChatError {
  return ChatError.badRequest('Invalid parameters');
}

function contentAccessRequired(): ChatError {
  return ChatError.badRequest('Channel content access is required.');
}

/** CannotSetTopicsPolicyError (wording derived: the upstream template was not at hand). */
function namedTopicsExist(engine: Engine): ChatError {
  const empty = engine.state.realm.realm_empty_topic_display_name;
  return ChatError.badRequest(
    `To enable this configuration, all messages in this channel must be in the ${empty} topic. Consider renaming or deleting other topics.`,
  );
}

interface Privacy {
  invite_only: boolean;
  history_public_to_subscribers: boolean;
  is_web_public: boolean;
}

interface CheckedUpdate {
  privacy: Privacy | null;
  isDefault: boolean | undefined;
  retention: { value: number | null } | null;
  unarchive: boolean;
  topicsPolicy: TopicsPolicy | undefined;
  description: string | undefined;
  newName: string | undefined;
  folder: { id: number | null } | null;
  groups: [ChannelGroupSetting, GroupSettingValue][];
}

/** Every check of update_stream_backend, in its order; nothing changes here. */
function checkUpdate(engine: Engine, actor: UserRecord, stream: StreamRecord, p: UpdateStreamParams): CheckedUpdate {
  const realm = engine.state.realm;
  const privacySent = p.is_private !== undefined || p.is_web_public !== undefined || p.history_public_to_subscribers !== undefined;
  const privateNext = p.is_private ?? stream.invite_only;
  const webPublicNext = p.is_web_public ?? stream.is_web_public;
  const defaultNext = p.is_default_stream ?? realm.default_stream_ids.has(stream.id);
  // Without an explicit history setting, a privacy change picks the new kind's default.
  const historyNext = p.history_public_to_subscribers ?? (p.is_private !== undefined ? !p.is_private : stream.history_public_to_subscribers);
  if (webPublicNext && !historyNext) throw invalidParameters();
  if (webPublicNext && privateNext) throw invalidParameters();
  if (!privateNext && !historyNext) throw invalidParameters();
  if (privateNext && defaultNext) throw ChatError.badRequest('A default channel cannot be private.');
  if (!privateNext && realm.moderation_request_channel_id === stream.id) throw ChatError.badRequest('Moderation request channel must be private.');
  if (p.is_private !== undefined) {
    if (!canAccessStreamContent(engine, actor, stream)) throw contentAccessRequired();
    const creators = p.is_private ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
    if (!hasRealmGroupPermission(engine, actor, creators)) throw ChatError.insufficientPermission();
  }
  if (p.is_web_public === true) {
    if (!realm.enable_spectator_access) throw ChatError.badRequest('Web-public channels are not enabled.');
    if (!hasRealmGroupPermission(engine, actor, 'can_create_web_public_channel_group')) throw ChatError.insufficientPermission();
  }
  // A private channel with protected history must let everyone start topics.
  const topicCreators = p.groups.can_create_topic_group ? normalizeGroupSetting(engine, p.groups.can_create_topic_group.new) : stream.groups.can_create_topic_group;
  if (privateNext && !historyNext && topicCreators !== realm.system_groups['role:everyone']) {
    const parameters = 'history_public_to_subscribers, can_create_topic_group';
    throw ChatError.badRequest(`Unsupported parameter combination: ${parameters}`, { parameters });
  }
  if (p.is_default_stream !== undefined && !isAdmin(actor)) {
    throw ChatError.badRequest('You do not have permission to change default channels.');
  }
  let retention: CheckedUpdate['retention'] = null;
  if (p.message_retention_days !== undefined) {
    if (!isOwner(actor)) throw ChatError.ownerRequired();
    retention = { value: parseRetentionDays(p.message_retention_days) };
  }
  const unarchive = p.is_archived === false;
  if (unarchive) {
    if (!stream.is_archived) throw ChatError.badRequest('Channel is not currently deactivated');
    const subscribed = [...(engine.state.subscriptions.get(stream.id)?.values() ?? [])].some((s) => s.active);
    if (privateNext && !subscribed) throw ChatError.badRequest('Channel is private and have no subscribers');
  }
  if (p.topics_policy !== undefined) {
    if (p.topics_policy !== 'inherit' && !canSetTopicsPolicy(engine, actor)) throw ChatError.insufficientPermission();
    if (p.topics_policy === 'empty_topic_only' && hasNamedTopics(engine, stream)) throw namedTopicsExist(engine);
  }
  let newName: string | undefined;
  if (p.new_name !== undefined) {
    newName = p.new_name.trim();
    if (newName === stream.name) throw ChatError.badRequest('Channel already has that name.');
    // Changing only the case needs no other check.
    if (newName.toLowerCase() !== stream.name.toLowerCase()) checkNameAvailable(engine, actor, newName);
  }
  let folder: CheckedUpdate['folder'] = null;
  if (p.folder_id !== undefined) {
    if (p.folder_id !== null) accessChannelFolder(engine, p.folder_id);
    folder = { id: p.folder_id };
  }
  return {
    privacy: privacySent ? { invite_only: privateNext, history_public_to_subscribers: historyNext, is_web_public: webPublicNext } : null,
    isDefault: p.is_default_stream,
    retention,
    unarchive,
    topicsPolicy: p.topics_policy,
    // Zulip replaces each newline with a space.
    description: p.description?.replaceAll('\n', ' '),
    newName,
    folder,
    groups: checkGroupChanges(engine, actor, stream, p.groups),
  };
}

function hasNamedTopics(engine: Engine, stream: StreamRecord): boolean {
  for (const [key, ids] of engine.state.messages.byTopic.get(stream.id) ?? []) if (key !== '' && ids.length > 0) return true;
  return false;
}

/** check_stream_name_available: a free name, or the channel that has it (as the caller may see it). */
function checkNameAvailable(engine: Engine, actor: UserRecord, name: string): void {
  checkStreamName(engine, name);
  const taken = getStreamByName(engine, name);
  if (!taken) return;
  if (canAccessStreamMetadata(engine, actor, taken)) throw new ChatError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`);
  throw ChatError.insufficientPermission();
}

/**
 * The group settings sent as `{new, old?}`, in Stream.stream_permission_group_settings' order:
 * `old` must match, unchanged values are skipped, the settings that grant content access need
 * content access, and the deletion settings need the realm's can_set_delete_message_policy_group
 * (moderators by default) unless they go to role:nobody.
 */
function checkGroupChanges(
  engine: Engine,
  actor: UserRecord,
  stream: StreamRecord,
  sent: Partial<Record<ChannelGroupSetting, GroupSettingChange>>,
): [ChannelGroupSetting, GroupSettingValue][] {
  const nobody = engine.state.realm.system_groups['role:nobody'];
  const out: [ChannelGroupSetting, GroupSettingValue][] = [];
  for (const key of GROUP_SETTING_ORDER) {
    const change = sent[key];
    if (change === undefined) continue;
    const current = groupSettingForApi(engine, stream.groups[key]);
    const wanted = normalizeGroupSetting(engine, change.new);
    if (change.old !== undefined && !sameGroupSetting(normalizeGroupSetting(engine, change.old), current)) {
      throw new ChatError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
    }
    if (sameGroupSetting(current, wanted)) continue;
    if (CONTENT_ACCESS_SETTINGS.has(key) && !canAccessStreamContent(engine, actor, stream)) throw contentAccessRequired();
    const value = accessGroupSetting(engine, key, wanted);
    if (DELETION_SETTINGS.has(key) && value !== nobody && !hasRealmGroupPermission(engine, actor, 'can_set_delete_message_policy_group')) {
      throw ChatError.insufficientPermission();
    }
    out.push([key, value]);
  }
  return out;
}

/** A `stream` `update` event; `name` is the channel's name when the event is sent. */
function updateEvent(stream: StreamRecord, property: string, value: unknown, extra: Record<string, unknown> = {}): Effect['event'] {
  return { type: 'stream', op: 'update', property, value, ...extra, stream_id: stream.id, name: stream.name };
}

function createEvent(engine: Engine, stream: StreamRecord, forUnarchiving: boolean): Effect['event'] {
  return { type: 'stream', op: 'create', streams: [formatStream(engine, stream)], for_unarchiving: forUnarchiving };
}

/** send_stream_deletion_event. */
function deleteEvent(stream: StreamRecord, forArchiving: boolean): Effect['event'] {
  return { type: 'stream', op: 'delete', streams: [{ stream_id: stream.id }], stream_ids: [stream.id], for_archiving: forArchiving };
}

/** Who can see the channel's metadata right now, as a set. */
function seers(engine: Engine, stream: StreamRecord): Set<number> {
  return new Set(metadataAudience(engine, stream));
}

/** do_change_stream_permission: create and peer_add for those who now see a formerly private channel. */
function applyPrivacy(engine: Engine, actor: UserRecord, stream: StreamRecord, next: Privacy, events: Effect[]): void {
  const before = seers(engine, stream);
  const oldPolicy = accessPolicyName(stream);
  const wasPrivate = stream.invite_only;
  stream.invite_only = next.invite_only;
  stream.history_public_to_subscribers = next.history_public_to_subscribers;
  stream.is_web_public = next.is_web_public;
  let newcomers: number[] = [];
  if (wasPrivate && !stream.invite_only) {
    newcomers = activeUsers(engine)
      .filter((u) => !isGuest(u) && !before.has(u.id))
      .map((u) => u.id);
    if (newcomers.length > 0) {
      events.push(effect(createEvent(engine, stream, false), newcomers));
      events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscribersOf(engine, stream.id) }, newcomers));
    }
  }
  const told = new Set(newcomers);
  events.push(
    effect(
      updateEvent(stream, 'invite_only', stream.invite_only, {
        history_public_to_subscribers: stream.history_public_to_subscribers,
        is_web_public: stream.is_web_public,
      }),
      metadataAudience(engine, stream).filter((id) => !told.has(id)),
    ),
  );
  events.push(...accessNotice(engine, stream, actor, oldPolicy));
}

/** do_change_stream_group_based_setting, with the legacy stream_post_policy events. */
function applyGroupSetting(engine: Engine, actor: UserRecord, stream: StreamRecord, key: ChannelGroupSetting, value: GroupSettingValue, events: Effect[]): void {
  const oldValue = groupSettingForApi(engine, stream.groups[key]);
  const oldPolicy = streamPostPolicy(engine, stream);
  const before = seers(engine, stream);
  stream.groups[key] = value;
  const after = seers(engine, stream);
  const update = updateEvent(stream, key, groupSettingForApi(engine, value));
  if (METADATA_ACCESS_SETTINGS.has(key)) {
    const gaining = [...after].filter((id) => !before.has(id));
    const losing = [...before].filter((id) => !after.has(id));
    events.push(effect(update, [...after].filter((id) => before.has(id))));
    if (gaining.length > 0) {
      events.push(effect(createEvent(engine, stream, false), gaining));
      events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscribersOf(engine, stream.id) }, gaining));
    }
    if (losing.length > 0) events.push(effect(deleteEvent(stream, false), losing));
  } else {
    events.push(effect(update, after));
  }
  if (key !== 'can_send_message_group') return;
  const policy = streamPostPolicy(engine, stream);
  if (policy !== oldPolicy) {
    events.push(effect(updateEvent(stream, 'stream_post_policy', policy), after));
    // The legacy duplicate Zulip still sends for old mobile clients.
    events.push(effect(updateEvent(stream, 'is_announcement_only', policy === 2), after));
  }
  events.push(...postingPermissionNotice(engine, stream, actor, oldValue, groupSettingForApi(engine, value)));
}

/** do_unarchive_stream. */
function applyUnarchive(engine: Engine, stream: StreamRecord, events: Effect[]): void {
  stream.is_archived = false;
  const audience = metadataAudience(engine, stream);
  events.push(effect(updateEvent(stream, 'is_archived', false), audience));
  events.push(effect(createEvent(engine, stream, true), audience));
  events.push(...unarchiveNotice(engine, stream));
}

export function updateStream(engine: Engine, actor: UserRecord, streamId: number, p: UpdateStreamParams): Outcome<Record<string, never>> {
  const stream = accessStreamForAdministering(engine, actor, streamId);
  const c = checkUpdate(engine, actor, stream, p);
  const state = engine.state;
  const events: Effect[] = [];
  if (c.privacy) applyPrivacy(engine, actor, stream, c.privacy, events);
  if (c.isDefault === true) events.push(...addDefaultStream(engine, stream));
  if (c.isDefault === false) events.push(...removeDefaultStream(engine, stream));
  if (c.retention) {
    const old = stream.message_retention_days;
    stream.message_retention_days = c.retention.value;
    events.push(effect(updateEvent(stream, 'message_retention_days', stream.message_retention_days), metadataAudience(engine, stream)));
    events.push(...retentionNotice(engine, stream, actor, old));
  }
  if (c.unarchive) applyUnarchive(engine, stream, events);
  if (c.topicsPolicy !== undefined && c.topicsPolicy !== stream.topics_policy) {
    const old = stream.topics_policy;
    stream.topics_policy = c.topicsPolicy;
    events.push(effect(updateEvent(stream, 'topics_policy', stream.topics_policy), metadataAudience(engine, stream)));
    events.push(...topicsPolicyNotice(engine, stream, actor, old));
  }
  if (c.description !== undefined) {
    const old = stream.description;
    stream.description = c.description;
    stream.rendered_description = renderDescription(state, c.description);
    events.push(
      effect(
        updateEvent(stream, 'description', stream.description, { rendered_description: stream.rendered_description }),
        metadataAudience(engine, stream),
      ),
    );
    events.push(...descriptionNotice(engine, stream, actor, old));
  }
  if (c.newName !== undefined) {
    const oldName = stream.name;
    state.streamsByName.delete(oldName.toLowerCase());
    stream.name = c.newName;
    state.streamsByName.set(stream.name.toLowerCase(), stream.id);
    events.push(effect({ ...updateEvent(stream, 'name', stream.name), name: oldName }, metadataAudience(engine, stream)));
    events.push(...renameNotice(engine, stream, actor, oldName));
  }
  if (c.folder) {
    stream.folder_id = c.folder.id;
    events.push(effect(updateEvent(stream, 'folder_id', stream.folder_id), metadataAudience(engine, stream)));
  }
  for (const [key, value] of c.groups) applyGroupSetting(engine, actor, stream, key, value, events);
  return outcome({}, events);
}

// ---------------------------------------------------------------- DELETE /streams/{stream_id}

/** The realm settings that name a channel, in Zulip's order; an archived channel leaves them. */
const ANNOUNCEMENT_SETTINGS = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
] as const;

/**
 * do_deactivate_stream: the channel is archived (subscriptions stay), leaves the default channels
 * and the announcement and moderation channel settings, and everyone who could see it hears of it twice: an
 * `update` of is_archived for clients that show archived channels and a `delete` (for_archiving)
 * for those that do not. Notification Bot's notice is read for everyone.
 */
export function archiveStream(engine: Engine, actor: UserRecord, streamId: number): Outcome<Record<string, never>> {
  const stream = accessStreamForAdministering(engine, actor, streamId);
  if (stream.is_archived) throw ChatError.badRequest('Channel is already deactivated');
  const audience = metadataAudience(engine, stream);
  const realm = engine.state.realm;
  const events: Effect[] = [];
  stream.is_archived = true;
  // maybe_set_moderation_or_announcement_channels_none: -1 means none in the event.
  const cleared: Record<string, number> = {};
  for (const key of ANNOUNCEMENT_SETTINGS) {
    if (realm[key] !== stream.id) continue;
    realm[key] = null;
    cleared[key] = -1;
  }
  if (Object.keys(cleared).length > 0) {
    events.push(effect({ type: 'realm', op: 'update_dict', property: 'default', data: cleared }, activeUsers(engine).map((u) => u.id)));
  }
  if (realm.default_stream_ids.has(stream.id)) events.push(...removeDefaultStream(engine, stream));
  events.push(effect(updateEvent(stream, 'is_archived', true), audience));
  events.push(effect(deleteEvent(stream, true), audience));
  events.push(...archiveNotice(engine, stream));
  return outcome({}, events);
}
