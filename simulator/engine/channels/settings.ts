/**
 * Creating channels (zerver/lib/string_validation.py:check_stream_name, zerver/models/streams.py, zerver/views/streams.py:add_subscriptions_backend): name and parameter validation, who may create which
 * kind of channel, the new channel's record, and who hears about it.
 */
import { accessChannelFolder } from './folders.ts';
import { activeUsers, canAccessStreamMetadata, getUserByApiEmail, isAdmin, isGuest, isOwner, nowSeconds, subscribersOf, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { accessGroupSetting, hasRealmGroupPermission, normalizeGroupSetting } from '../groups/groups.ts';
import { addStreamToIndexes, defaultChannelGroups, emailToken } from '../fixture.ts';
import { renderDescription } from '../markdown/descriptions.ts';
import {
  nextId,
  type ChannelGroupSetting,
  type GroupSettingValue,
  type StreamRecord,
  type TopicsPolicy,
  type UserRecord,
} from '../state.ts';

// ---------------------------------------------------------------- validation helpers

/** check_stream_name (zerver/lib/string_validation.py, zerver/models/streams.py): stripped, non-empty, ≤ max length, no control characters. */
export function checkStreamName(engine: Engine, raw: string): string {
  const name = raw.trim();
  if (name === '') throw ChatError.badRequest("Channel name can't be empty.");
  const chars = [...name];
  const max = engine.state.realm.max_stream_name_length;
  if (chars.length > max) throw ChatError.badRequest(`Channel name too long (limit: ${max} characters).`);
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    const control = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
    const surrogate = cp >= 0xd800 && cp <= 0xdfff;
    const nonChar = (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
    if (control || surrogate || nonChar) throw ChatError.badRequest(`Invalid character in channel name, at position ${i + 1}.`);
  });
  return name;
}

const HEX_COLOR = /^#([a-fA-F0-9]{3,6})$/;

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value);
}

/** message_retention_days: 'realm_default' → null, 'unlimited' → -1, positive integer days. */
export function parseRetentionDays(value: unknown): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw ChatError.badRequest(`Bad value for 'message_retention_days': ${String(value)}`);
}

/**
 * principals / subscribers: ids or emails → active users, as bulk_access_users_by_id/_email do:
 * every principal must exist (`No such user`) before any is checked for deactivation. Emails
 * match the API `email` field only: a delivery address works only for users whose API email is
 * that address (email visible to everyone), whoever asks; the fake `user{id}@…` always works.
 */
export function resolvePrincipals(engine: Engine, principals: readonly (number | string)[]): UserRecord[] {
  const state = engine.state;
  const found: UserRecord[] = [];
  for (const principal of principals) {
    const user = typeof principal === 'number' ? state.users.get(principal) : getUserByApiEmail(engine, principal);
    // System bots live in another realm upstream.
    if (!user || user.is_system_bot) throw ChatError.badRequest('No such user');
    found.push(user);
  }
  const out: UserRecord[] = [];
  const seen = new Set<number>();
  for (const user of found) {
    if (!user.is_active) throw ChatError.badRequest('User is deactivated');
    if (!seen.has(user.id)) {
      seen.add(user.id);
      out.push(user);
    }
  }
  return out;
}

// ---------------------------------------------------------------- channel creation

export interface ChannelSettings {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers: boolean | null;
  /** Raw parameter: 'realm_default', 'unlimited' or days; undefined when not sent. */
  message_retention_days: unknown;
  topics_policy: TopicsPolicy | undefined;
  folder_id: number | undefined;
  /** As sent, shape already checked (parseGroupSettingValue); validated only for channels being created. */
  groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

export interface ResolvedSettings {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers: boolean;
  message_retention_days: number | null;
  topics_policy: TopicsPolicy;
  folder_id: number | null;
  groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

/** The setting values of a subscribe/create request that are parsed before anything else. */
export interface CheckedSettingValues {
  retention: number | null;
}

/**
 * Zulip parses the folder, message_retention_days and topics_policy of a subscribe request up
 * front, for every request (channels to create or not): a bad value, or a topics_policy other
 * than inherit from someone outside can_set_topics_policy_group, fails even when every channel
 * exists.
 */
export function checkSettingValues(engine: Engine, s: ChannelSettings, actor?: UserRecord): CheckedSettingValues {
  if (s.folder_id !== undefined) accessChannelFolder(engine, s.folder_id);
  const retention = s.message_retention_days === undefined ? null : parseRetentionDays(s.message_retention_days);
  if (actor && s.topics_policy !== undefined && s.topics_policy !== 'inherit' && !canSetTopicsPolicy(engine, actor)) {
    throw ChatError.insufficientPermission();
  }
  return { retention };
}

/** UserProfile.can_set_topics_policy: administrators, or members of the realm's group. */
export function canSetTopicsPolicy(engine: Engine, user: UserRecord): boolean {
  return isAdmin(user) || hasRealmGroupPermission(engine, user, 'can_set_topics_policy_group');
}

/** Stream.stream_permission_group_settings in declaration order (the order errors come in). */
export const GROUP_SETTING_ORDER: readonly ChannelGroupSetting[] = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
];

/**
 * access_requested_group_permissions_for_streams: the group settings of channels about to be
 * created (settings sent with channels that all exist are never looked at). A private channel
 * with protected history needs can_create_topic_group = role:everyone, and the deletion settings
 * may only leave role:nobody for users allowed to set the deletion policy (the realm's
 * can_set_delete_message_policy_group, role:moderators by default).
 */
export function checkGroupSettings(
  engine: Engine,
  actor: UserRecord,
  s: ChannelSettings,
): Partial<Record<ChannelGroupSetting, GroupSettingValue>> {
  const g = engine.state.realm.system_groups;
  const groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>> = {};
  for (const key of GROUP_SETTING_ORDER) {
    const raw = s.groups[key];
    if (raw === undefined) continue;
    const requested = normalizeGroupSetting(engine, raw);
    if (key === 'can_create_topic_group' && s.invite_only && !s.history_public_to_subscribers && requested !== g['role:everyone']) {
      throw ChatError.badRequest(
        "'can_create_topic_group' setting must be 'role:everyone' for private channels with protected history.",
      );
    }
    const value = accessGroupSetting(engine, key, requested);
    const deletion = key === 'can_delete_any_message_group' || key === 'can_delete_own_message_group';
    if (deletion && value !== g['role:nobody'] && !hasRealmGroupPermission(engine, actor, 'can_set_delete_message_policy_group')) throw ChatError.insufficientPermission();
    groups[key] = value;
  }
  return groups;
}

/** Checks for creating channels of this kind, in Zulip's order (zerver/views/streams.py:add_subscriptions_backend). */
export function checkCreationSettings(
  engine: Engine,
  actor: UserRecord,
  s: ChannelSettings,
  values: CheckedSettingValues = checkSettingValues(engine, s, actor),
): ResolvedSettings {
  const groups = checkGroupSettings(engine, actor, s);
  // check_channel_creation_permissions, in its order: the public/private creation group (a
  // web-public channel is not invite-only, so it needs the public one too), default channels
  // only by administrators and never private, then the web-public prerequisites, then owners
  // for a retention period.
  const realm = engine.state.realm;
  const kindSetting = s.invite_only ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (!hasRealmGroupPermission(engine, actor, kindSetting)) throw ChatError.insufficientPermission();
  if (s.is_default_stream && !isAdmin(actor)) throw ChatError.insufficientPermission();
  if (s.is_default_stream && s.invite_only) throw ChatError.badRequest('A default channel cannot be private.');
  if (s.is_web_public) {
    if (!realm.enable_spectator_access) throw ChatError.badRequest('Web-public channels are not enabled.');
    if (!hasRealmGroupPermission(engine, actor, 'can_create_web_public_channel_group')) throw ChatError.insufficientPermission();
  }
  if (s.message_retention_days !== undefined && s.message_retention_days !== 'realm_default' && !isOwner(actor)) {
    throw ChatError.ownerRequired();
  }
  // Public and web-public channels always show history to subscribers.
  const historyPublic = s.invite_only && !s.is_web_public ? (s.history_public_to_subscribers ?? false) : true;
  return {
    invite_only: s.invite_only && !s.is_web_public,
    is_web_public: s.is_web_public,
    is_default_stream: s.is_default_stream,
    history_public_to_subscribers: historyPublic,
    message_retention_days: values.retention,
    topics_policy: s.topics_policy ?? 'inherit',
    folder_id: s.folder_id ?? null,
    groups,
  };
}

export function doCreateStream(engine: Engine, actor: UserRecord, name: string, description: string, s: ResolvedSettings): StreamRecord {
  const state = engine.state;
  // Zulip replaces each "\n" with a space and nothing else (a "\r" stays).
  const text = description.replaceAll('\n', ' ');
  const stream: StreamRecord = {
    id: nextId(state, 'stream'),
    name,
    description: text,
    rendered_description: renderDescription(state, text),
    date_created: nowSeconds(engine),
    creator_id: actor.id,
    invite_only: s.invite_only,
    is_web_public: s.is_web_public,
    history_public_to_subscribers: s.history_public_to_subscribers,
    is_archived: false,
    message_retention_days: s.message_retention_days,
    topics_policy: s.topics_policy,
    folder_id: s.folder_id,
    email_token: emailToken(engine.deps),
    recipient_id: nextId(state, 'recipient'),
    groups: { ...defaultChannelGroups(state, actor.id), ...s.groups },
  };
  addStreamToIndexes(state, stream);
  state.subscriptions.set(stream.id, new Map());
  if (s.is_default_stream) state.realm.default_stream_ids.add(stream.id);
  return stream;
}

/**
 * Who hears about a channel: public → active non-guests, web-public → all active, private →
 * everyone with metadata access (administrators, subscribers, members of the granting group
 * settings such as the creator's can_administer_channel_group).
 */
export function streamAudience(engine: Engine, stream: StreamRecord): number[] {
  const users = activeUsers(engine);
  if (stream.is_web_public) return users.map((u) => u.id);
  if (!stream.invite_only) return users.filter((u) => !isGuest(u)).map((u) => u.id);
  return users.filter((u) => canAccessStreamMetadata(engine, u, stream)).map((u) => u.id);
}

/**
 * Who hears of subscribers joining or leaving (peer_add / peer_remove): everyone who can see the
 * channel (streamAudience) and its subscribers, active users only.
 */
export function peerAudience(engine: Engine, stream: StreamRecord): number[] {
  return [...new Set([...streamAudience(engine, stream), ...subscribersOf(engine, stream.id)])].sort((a, b) => a - b);
}
