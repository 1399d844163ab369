/**
 * POST /register's `realm` bundle (reference part 3 §1.6): the realm's settings (`realm_` +
 * property name), its group settings, and the server's limits and facts. Values the simulator
 * stores come from the state; the others are Zulip's defaults for a new organization, so a client
 * reading any documented key finds a value of the documented type.
 */
import { isUserInGroup, type Engine } from './core.ts';
import { groupSettingForApi } from './groups.ts';
import { realmIconUrl } from './server-settings.ts';
import type { GroupSettingValue, UserRecord } from './state.ts';

/** event_queue_longpoll_timeout_seconds: how long clients should let a GET /events hang. */
export const EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS = 90;

/** Realm.property_types the simulator does not model, at Zulip's defaults (realms.py). */
const REALM_PROPERTY_DEFAULTS = {
  allow_message_editing: true,
  avatar_changes_disabled: false,
  default_code_block_language: '',
  default_language: 'en',
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_guest_user_dm_warning: true,
  enable_guest_user_indicator: true,
  enable_read_receipts: false,
  giphy_rating: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  jitsi_server_url: null,
  message_content_allowed_in_email_notifications: true,
  message_content_delete_limit_seconds: 600,
  message_content_edit_limit_seconds: 600,
  message_edit_history_visibility_policy: 'all',
  move_messages_between_streams_limit_seconds: 604_800,
  move_messages_within_stream_limit_seconds: 604_800,
  name_changes_disabled: false,
  require_e2ee_push_notifications: false,
  require_unique_names: false,
  send_welcome_emails: true,
  topics_policy: 'allow_empty_topic',
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  welcome_message_custom_text: '',
} as const;

/** Realm group settings the simulator does not store, by their default system group. */
const GROUP_SETTING_DEFAULTS: Record<string, string> = {
  create_multiuse_invite_group: 'role:administrators',
  can_access_all_users_group: 'role:everyone',
  can_add_custom_emoji_group: 'role:members',
  can_create_bots_group: 'role:members',
  can_create_groups: 'role:members',
  can_create_write_only_bots_group: 'role:members',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_invite_users_group: 'role:members',
  can_manage_all_groups: 'role:owners',
  can_manage_billing_group: 'role:administrators',
  can_mention_many_users_group: 'role:administrators',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_set_delete_message_policy_group: 'role:moderators',
  can_summarize_topics_group: 'role:everyone',
  direct_message_initiator_group: 'role:everyone',
  direct_message_permission_group: 'role:everyone',
};

const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
};

/** Legacy policy integers computed from the creation groups (reference §1.6). */
function createStreamPolicy(engine: Engine, groupId: number): number {
  const g = engine.state.realm.system_groups;
  if (groupId === g['role:administrators']) return 2;
  if (groupId === g['role:fullmembers']) return 3;
  if (groupId === g['role:moderators']) return 4;
  if (groupId === g['role:nobody']) return 6;
  if (groupId === g['role:owners']) return 7;
  return 1;
}

function realmGroupSettings(engine: Engine): Record<string, GroupSettingValue> {
  const realm = engine.state.realm;
  const g = realm.system_groups;
  const out: Record<string, GroupSettingValue> = {};
  for (const [name, group] of Object.entries(GROUP_SETTING_DEFAULTS)) out[`realm_${name}`] = g[group]!;
  out.realm_can_add_subscribers_group = groupSettingForApi(engine, realm.can_add_subscribers_group);
  out.realm_can_create_public_channel_group = groupSettingForApi(engine, realm.can_create_public_channel_group);
  out.realm_can_create_private_channel_group = groupSettingForApi(engine, realm.can_create_private_channel_group);
  out.realm_can_create_web_public_channel_group = groupSettingForApi(engine, realm.can_create_web_public_channel_group);
  out.realm_can_set_topics_policy_group = groupSettingForApi(engine, realm.can_set_topics_policy_group);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The `realm` fetch type. */
export function realmState(engine: Engine): Record<string, unknown> {
  const realm = engine.state.realm;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(REALM_PROPERTY_DEFAULTS)) out[`realm_${name}`] = value;
  Object.assign(out, {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_enable_spectator_access: realm.enable_spectator_access,
    realm_send_channel_events_messages: realm.send_channel_events_messages,
    realm_message_retention_days: realm.message_retention_days ?? -1,
    realm_empty_topic_display_name: realm.realm_empty_topic_display_name,
    realm_push_notifications_enabled: realm.push_notifications_enabled,
  });
  out.realm_allow_edit_history = out.realm_message_edit_history_visibility_policy !== 'none';
  out.realm_mandatory_topics = out.realm_topics_policy === 'disable_empty_topic';
  Object.assign(out, realmGroupSettings(engine));
  const passwordAuth = realm.password_auth_enabled;
  Object.assign(out, {
    realm_create_public_stream_policy: createStreamPolicy(engine, realm.can_create_public_channel_group),
    realm_create_private_stream_policy: createStreamPolicy(engine, realm.can_create_private_channel_group),
    realm_create_web_public_stream_policy: createStreamPolicy(engine, realm.can_create_web_public_channel_group),
    realm_wildcard_mention_policy: 5,
    realm_authentication_methods: {
      Email: { enabled: passwordAuth, available: true },
      Dev: { enabled: realm.dev_auth_enabled, available: true },
    },
    realm_email_auth_enabled: passwordAuth,
    realm_password_auth_enabled: passwordAuth,
    realm_presence_disabled: false,
    realm_url: realm.url,
    realm_uri: realm.url,
    realm_bot_domain: realm.host,
    realm_icon_url: realmIconUrl(engine),
    realm_icon_source: 'G',
    realm_logo_url: `${realm.url}/static/images/logo/zulip-org-logo.svg`,
    realm_logo_source: 'D',
    realm_night_logo_url: `${realm.url}/static/images/logo/zulip-org-logo.svg`,
    realm_night_logo_source: 'D',
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    realm_org_type: 0,
    realm_plan_type: 1,
    zulip_plan_is_not_limited: true,
    realm_upload_quota_mib: null,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_date_created: Math.floor(realm.date_created),
    realm_new_stream_announcements_stream_id: realm.new_stream_announcements_stream_id ?? -1,
    realm_signup_announcements_stream_id: -1,
    realm_zulip_update_announcements_stream_id: -1,
    realm_moderation_request_channel_id: -1,
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
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_typing_started_expiry_period_milliseconds: 45_000,
    server_typing_stopped_wait_period_milliseconds: 12_000,
    server_typing_started_wait_period_milliseconds: 30_000,
    event_queue_longpoll_timeout_seconds: EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS,
    server_generation: 0,
    development_environment: realm.dev_auth_enabled,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 10_000,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_thumbnail_formats: [],
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_web_public_streams_enabled: true,
    giphy_rating_options: {},
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

/** Whether `user` may create channels of each kind (the own-user keys of `realm_user`). */
export function creationRights(engine: Engine, user: UserRecord): Record<string, boolean> {
  const realm = engine.state.realm;
  const pub = isUserInGroup(engine, user.id, realm.can_create_public_channel_group);
  const priv = isUserInGroup(engine, user.id, realm.can_create_private_channel_group);
  const web = realm.enable_spectator_access && isUserInGroup(engine, user.id, realm.can_create_web_public_channel_group);
  const invite = engine.state.realm.system_groups[GROUP_SETTING_DEFAULTS.can_invite_users_group!];
  return {
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    can_create_web_public_streams: web,
    can_create_streams: pub || priv || web,
    can_invite_others_to_realm: invite !== undefined && isUserInGroup(engine, user.id, invite),
  };
}
