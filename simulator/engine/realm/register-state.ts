/**
 * POST /register's `realm` bundle (zerver/lib/events.py:fetch_initial_state_data, zerver/models/realms.py): the realm's settings (`realm_` +
 * property name) and group settings as settings.ts gives them (the values PATCH /realm
 * changes and realm events report), and the server's limits and facts, at Zulip's defaults.
 */
import type { Engine } from '../core.ts';
import { hasRealmGroupPermission } from '../groups/groups.ts';
import { OFFLINE_THRESHOLD_SECS, PRESENCE_PING_INTERVAL_SECS } from '../users/presence.ts';
import { realmSettingsState } from './settings.ts';
import { realmIconUrl } from './server-settings.ts';
import type { GroupSettingValue, UserRecord } from '../state.ts';

/** event_queue_longpoll_timeout_seconds: how long clients should let a GET /events hang. */
export const EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS = 90;

/** Legacy policy integers computed from a group setting (get_corresponding_policy_value_for_group_setting). */
const POLICY_BY_SYSTEM_GROUP: Record<string, number> = {
  'role:owners': 7,
  'role:administrators': 2,
  'role:moderators': 4,
  'role:fullmembers': 3,
  'role:members': 1,
  'role:everyone': 5,
  'role:nobody': 6,
};

/** The policy of a system-group value when the legacy setting had it, else the setting's first (widest) policy. */
function legacyPolicy(engine: Engine, value: GroupSettingValue, valid: readonly number[]): number {
  const group = typeof value === 'number' ? engine.state.userGroups.get(value) : undefined;
  const policy = group?.is_system_group ? POLICY_BY_SYSTEM_GROUP[group.name] : undefined;
  return policy !== undefined && valid.includes(policy) ? policy : valid[0]!;
}

/** WildcardMentionPolicyEnum from can_mention_many_users_group (everyone 1 … moderators 7). */
function wildcardMentionPolicy(engine: Engine): number {
  const value = engine.state.realm.can_mention_many_users_group;
  const group = typeof value === 'number' ? engine.state.userGroups.get(value) : undefined;
  const byGroup: Record<string, number> = {
    'role:everyone': 1,
    'role:members': 2,
    'role:fullmembers': 3,
    'role:administrators': 5,
    'role:nobody': 6,
    'role:moderators': 7,
  };
  return (group?.is_system_group ? byGroup[group.name] : undefined) ?? 5;
}

/** The `realm` fetch type. */
export function realmState(engine: Engine): Record<string, unknown> {
  const realm = engine.state.realm;
  // Every organization setting PATCH /realm changes, as realm events report them.
  const out: Record<string, unknown> = realmSettingsState(engine);
  out.realm_empty_topic_display_name = realm.realm_empty_topic_display_name;
  out.realm_push_notifications_enabled = realm.push_notifications_enabled;
  const passwordAuth = realm.password_auth_enabled;
  const common = [1, 2, 3, 4];
  Object.assign(out, {
    realm_create_public_stream_policy: legacyPolicy(engine, realm.can_create_public_channel_group, common),
    realm_create_private_stream_policy: legacyPolicy(engine, realm.can_create_private_channel_group, common),
    realm_create_web_public_stream_policy: legacyPolicy(engine, realm.can_create_web_public_channel_group, [7, 2, 4, 6]),
    realm_wildcard_mention_policy: wildcardMentionPolicy(engine),
    realm_email_auth_enabled: passwordAuth,
    realm_password_auth_enabled: passwordAuth,
    realm_presence_disabled: false,
    realm_url: realm.url,
    realm_uuid: realm.uuid,
    realm_uri: realm.url,
    realm_bot_domain: realm.host,
    realm_icon_url: realmIconUrl(engine),
    realm_icon_source: 'G',
    realm_logo_url: `${realm.url}/static/images/logo/zulip-org-logo.svg`,
    realm_logo_source: 'D',
    realm_night_logo_url: `${realm.url}/static/images/logo/zulip-org-logo.svg`,
    realm_night_logo_source: 'D',
    realm_plan_type: 1,
    zulip_plan_is_not_limited: true,
    realm_upload_quota_mib: null,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_date_created: Math.floor(realm.date_created),
    realm_default_external_accounts: {},
    max_stream_name_length: realm.max_stream_name_length,
    max_stream_description_length: realm.max_stream_description_length,
    max_topic_length: realm.max_topic_length,
    max_message_length: realm.max_message_length,
    max_bulk_new_subscription_messages: 100,
    max_channel_folder_name_length: 60,
    max_channel_folder_description_length: 1024,
    max_reminder_note_length: 1000,
    max_avatar_file_size_mib: 5,
    max_file_upload_size_mib: 25,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECS,
    server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECS,
    server_typing_started_expiry_period_milliseconds: 45_000,
    server_typing_stopped_wait_period_milliseconds: 12_000,
    server_typing_started_wait_period_milliseconds: 30_000,
    event_queue_longpoll_timeout_seconds: EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS,
    server_generation: 0,
    development_environment: realm.dev_auth_enabled,
    password_min_length: realm.password_min_length,
    password_max_length: 100,
    password_min_guesses: realm.password_min_guesses,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_thumbnail_formats: [],
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_web_public_streams_enabled: true,
    gif_rating_policy_options: {},
    server_emoji_data_url: `${realm.url}/static/generated/emoji/emoji_api.json`,
    server_needs_upgrade: false,
    server_jitsi_server_url: null,
    jitsi_server_url: 'https://meet.jit.si',
    server_can_summarize_topics: false,
    server_report_message_types: [],
    server_supported_permission_settings: {},
    server_min_deactivated_realm_deletion_days: 14,
    server_max_deactivated_realm_deletion_days: null,
    settings_send_digest_emails: false,
    upgrade_text_for_wide_organization_logo: '',
  });
  return out;
}

/** Whether `user` may create channels of each kind, and invite (the own-user keys of `realm_user`). */
export function creationRights(engine: Engine, user: UserRecord): Record<string, boolean> {
  const pub = hasRealmGroupPermission(engine, user, 'can_create_public_channel_group');
  const priv = hasRealmGroupPermission(engine, user, 'can_create_private_channel_group');
  const web = engine.state.realm.enable_spectator_access && hasRealmGroupPermission(engine, user, 'can_create_web_public_channel_group');
  return {
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    can_create_web_public_streams: web,
    can_create_streams: pub || priv || web,
    can_invite_others_to_realm: hasRealmGroupPermission(engine, user, 'can_invite_users_group'),
  };
}
