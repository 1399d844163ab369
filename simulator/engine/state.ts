/**
 * The whole simulated server as plain data. Everything the engine knows lives here; actions read
 * and mutate it; `snapshot()` serialises it. No class instances beyond Map/Set, so a snapshot is
 * a straightforward walk.
 */
import { createMessageStore, type MessageStore } from './messages/store.ts';

/** Zulip's role integers. */
export const ROLE = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

/** Per-user email visibility (Zulip's email_address_visibility values). */
export const EMAIL_VISIBILITY = {
  everyone: 1,
  members: 2,
  admins: 3,
  nobody: 4,
  moderators: 5,
} as const;

export interface CustomProfileField {
  id: number;
  name: string;
  hint: string;
  /** Zulip field type: 1 short text, 2 long text, 3 select, 4 date, 5 link, 6 user, 7 external account, 8 pronouns. */
  type: number;
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
  required?: boolean;
  editable_by_user?: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
}

export interface Realm extends RealmGroupSettings {
  id: number;
  string_id: string;
  name: string;
  description: string;
  /** Host used for the fake `user{id}@host` addresses and the realm URL. */
  host: string;
  url: string;
  /** Unix seconds. */
  date_created: number;
  deactivated: boolean;
  /** Default email visibility for new users. */
  email_address_visibility: number;
  realm_empty_topic_display_name: string;
  enable_spectator_access: boolean;
  /** Whether spectators (no credentials) may list users (feature level 387). */
  allow_unauthenticated_user_list: boolean;
  /** Whether JSON web tokens are accepted; null disables JWT login. */
  jwt_key: string | null;
  password_auth_enabled: boolean;
  /** The realm's UUID (Realm.uuid, feature level 466). */
  uuid: string;
  /** The server's PASSWORD_MIN_LENGTH (code points) and PASSWORD_MIN_GUESSES (zxcvbn's estimate); 0 and 0 on Zulip's development server. */
  password_min_length: number;
  password_min_guesses: number;
  /** Whether this is the development server (dev_fetch_api_key and dev_list_users work). */
  dev_auth_enabled: boolean;
  /** Most characters (keys plus values) one bot may keep in its storage (Zulip's USER_STATE_SIZE_LIMIT). */
  bot_storage_size_limit: number;
  /** Whether the server has the video-call provider's OAuth client credentials. */
  videocall_provider_configured: boolean;
  /** The allowed email domains (Zulip's RealmDomain rows), in the order added; ids from the `realm_domain` counter. */
  domains: { id: number; domain: string; allow_subdomains: boolean }[];
  /** Whether the server can send mobile push notifications (Zulip's push_notifications_configured). */
  push_notifications_enabled: boolean;
  send_channel_events_messages: boolean;
  message_retention_days: number | null;
  /** Recipient of "new channel" announcements. */
  new_stream_announcements_stream_id: number | null;
  /** Address pattern for channel email gateways, `%s` replaced by the local part. */
  email_gateway_pattern: string;
  max_stream_name_length: number;
  max_stream_description_length: number;
  max_topic_length: number;
  max_message_length: number;
  /** Largest file POST /user_uploads accepts (Zulip's max_file_upload_size_mib). */
  max_file_upload_size_mib: number;
  /** Realm linkifiers in definition order (Zulip applies earlier ones first). */
  linkifiers: { id: number; pattern: string; url_template: string }[];
  /** RealmUserDefault: the settings new accounts start with, where the realm changed them (email visibility excepted: email_address_visibility). */
  user_settings_defaults: Record<string, boolean | number | string>;
  /** Code playgrounds (RealmPlayground), in creation order. */
  playgrounds: { id: number; name: string; pygments_language: string; url_template: string }[];
  /** Data exports (RealmExport), in request order (realm/exports.ts). */
  exports: RealmExportRecord[];
  emoji: Map<string, RealmEmoji>;
  custom_profile_fields: CustomProfileField[];
  default_stream_ids: Set<number>;
  /** Group ids of the system groups, by name (`role:everyone`, …). */
  system_groups: Record<string, number>;
  /** Days before a new member becomes a full member (role:fullmembers). */
  waiting_period_threshold: number;
  /** Message editing and moving (zerver/models/users.py, zerver/models/realms.py, zerver/views/message_edit.py, zerver/actions/message_edit.py). Limits in seconds; null = no limit. */
  allow_message_editing: boolean;
  message_content_edit_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  /** Who may read edit history: everything, only moves, or nothing. */
  message_edit_history_visibility_policy: EditHistoryVisibility;
  /** Whether a channel message may have the empty topic (channels' `inherit` policy follows this). */
  topics_policy: RealmTopicsPolicy;
  // Organization settings PATCH /realm changes that the simulator only stores and reports
  // (Realm.property_types in zerver/models/realms.py).
  avatar_changes_disabled: boolean;
  default_code_block_language: string;
  /** Default language of new users (one of Zulip's language codes). */
  default_language: string;
  digest_emails_enabled: boolean;
  /** 0 Monday … 6 Sunday. */
  digest_weekday: number;
  disallow_disposable_email_addresses: boolean;
  email_changes_disabled: boolean;
  emails_restricted_to_domains: boolean;
  enable_guest_user_dm_warning: boolean;
  enable_guest_user_indicator: boolean;
  enable_read_receipts: boolean;
  /** 0 disabled, 1 Y, 2 G, 3 PG, 4 PG-13, 5 R. */
  gif_rating_policy: number;
  inline_image_preview: boolean;
  inline_url_embed_preview: boolean;
  invite_required: boolean;
  /** null: the server's default Jitsi server. */
  jitsi_server_url: string | null;
  message_content_allowed_in_email_notifications: boolean;
  name_changes_disabled: boolean;
  require_e2ee_push_notifications: boolean;
  require_unique_names: boolean;
  /** The server's EMBEDDED_BOTS_ENABLED: whether embedded bots (type 4) may be created. */
  embedded_bots_enabled: boolean;
  send_welcome_emails: boolean;
  /** 0 none, 1 Jitsi Meet, 3 Zoom, 4 BigBlueButton, 5 Zoom (server to server). */
  video_chat_provider: number;
  want_advertise_in_communities_directory: boolean;
  welcome_message_custom_text: string;
  /** Zulip's OrgTypeEnum value (0 unspecified). */
  org_type: number;
  /** Channels that receive new-user and Zulip-update announcements, and moderation requests; null none. */
  signup_announcements_stream_id: number | null;
  zulip_update_announcements_stream_id: number | null;
  moderation_request_channel_id: number | null;
}

export type EditHistoryVisibility = 'all' | 'moves' | 'none';

export type RealmTopicsPolicy = 'allow_empty_topic' | 'disable_empty_topic';

/**
 * Every realm setting that names a group, in Zulip's Realm.REALM_PERMISSION_GROUP_SETTINGS order
 * (who may create channels, invite, add emoji, move and delete messages, …). Each is a group id
 * or an anonymous group, changed by PATCH /realm.
 */
export const REALM_GROUP_SETTINGS = [
  'create_multiuse_invite_group',
  'can_access_all_users_group',
  'can_add_subscribers_group',
  'can_add_custom_emoji_group',
  'can_create_bots_group',
  'can_create_groups',
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_create_write_only_bots_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'can_mention_many_users_group',
  'can_move_messages_between_channels_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'can_set_delete_message_policy_group',
  'can_set_topics_policy_group',
  'can_summarize_topics_group',
  'direct_message_initiator_group',
  'direct_message_permission_group',
  /** Who counts as a workplace user for billing (feature level 477). */
  'workplace_users_group',
] as const;
export type RealmGroupSetting = (typeof REALM_GROUP_SETTINGS)[number];
export type RealmGroupSettings = Record<RealmGroupSetting, GroupSettingValue>;

export interface UserRecord {
  id: number;
  /** API email: the real address for bots and visibility "everyone", else the fake `user{id}@host`. */
  email: string;
  delivery_email: string;
  full_name: string;
  role: Role;
  is_bot: boolean;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded; null for humans. */
  bot_type: number | null;
  bot_owner_id: number | null;
  is_system_bot: boolean;
  is_active: boolean;
  is_imported_stub: boolean;
  is_deleted: boolean;
  api_key: string;
  password: string | null;
  timezone: string;
  /** Unix seconds. */
  date_joined: number;
  /** 'G' gravatar, 'U' uploaded. */
  avatar_source: 'G' | 'U';
  avatar_version: number;
  email_address_visibility: number;
  /** Custom profile field id → raw value. */
  profile_data: Map<number, string>;
  /** Field id → HTML of Markdown-capable values, rendered when saved (as Zulip stores them). */
  profile_data_rendered: Map<number, string>;
  /** Recipient row for direct messages to this user. */
  recipient_id: number;
  /**
   * The user's connection to the video-call provider (Zulip keeps the OAuth token in
   * third_party_api_state): none, a token the provider accepts, or one it will reject.
   */
  videocall_token: 'valid' | 'revoked' | null;
  /** Whether others see the user's presence (false = "away" in the legacy status API). */
  presence_enabled: boolean;
  /** Whether drafts are kept server-side (Zulip's enable_drafts_synchronization). */
  enable_drafts_synchronization: boolean;
  /** Zulip's server-level can_create_users: may create accounts through POST /users (administrators only). */
  can_create_users: boolean;
  /** Bots: the channel a message goes to when none is named, and the one /register narrows to. */
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: boolean;
  /** Outgoing-webhook and embedded bots: their service (Zulip's Service row); empty otherwise. */
  bot_services: BotService[];
  /** Incoming-webhook and embedded bots: their configuration (Zulip's BotConfigData), in insertion order. */
  bot_config: Record<string, string>;
  /** Personal settings changed from Zulip's new-user defaults (users/settings.ts holds the table). */
  settings: Record<string, boolean | number | string>;
}

/** What an outgoing-webhook or embedded bot answers with (Zulip's Service). */
export interface BotService {
  name: string;
  /** Outgoing webhooks: where messages are posted. */
  base_url: string;
  /** 1 generic, 2 Slack-compatible. */
  interface: number;
  /** Sent with each outgoing-webhook request so the receiver can check it came from here. */
  token: string;
}

/** Group setting: a group id, or an anonymous group of users and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** A user group's own permission settings (NamedUserGroup.GROUP_PERMISSION_SETTINGS, in that order). */
export const USER_GROUP_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type UserGroupSetting = (typeof USER_GROUP_SETTINGS)[number];

/** NamedUserGroup.MAX_NAME_LENGTH, in code points. */
export const MAX_GROUP_NAME_LENGTH = 100;
/** Names users may not give a group (NamedUserGroup.INVALID_NAME_PREFIXES, checked in this order). */
export const INVALID_GROUP_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'] as const;

/** A named user group: a system (role) group or one users made. */
export interface UserGroup {
  id: number;
  name: string;
  description: string;
  is_system_group: boolean;
  /** Direct members (deactivated users stay members, as upstream; listings show active ones). */
  members: Set<number>;
  subgroups: Set<number>;
  deactivated: boolean;
  creator_id: number | null;
  date_created: number | null;
  settings: Record<UserGroupSetting, GroupSettingValue>;
}

/** A reusable invitation link (Zulip's MultiuseInvite with its Confirmation). */
/** An email invitation (PreregistrationUser with referred_by). */
export interface EmailInvite {
  id: number;
  email: string;
  referred_by: number;
  invited_as: Role;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  notify_referrer_on_join: boolean;
  welcome_message_custom_text: string | null;
  /** Unix seconds of the last (re)sending. */
  date_sent: number;
  /** Unix seconds; null never expires. */
  expiry_date: number | null;
}

export interface MultiuseInvite {
  id: number;
  /** The confirmation key of the link `{realm url}/join/{key}/`. */
  key: string;
  referred_by: number;
  invited_as: Role;
  stream_ids: number[];
  group_ids: number[];
  include_realm_default_subscriptions: boolean;
  /** null: the organization's default welcome text; '' none. */
  welcome_message_custom_text: string | null;
  /** Unix seconds. */
  date_sent: number;
  /** Unix seconds; null never expires. */
  expiry_date: number | null;
  revoked: boolean;
}

export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export interface StreamRecord {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  is_archived: boolean;
  message_retention_days: number | null;
  topics_policy: TopicsPolicy;
  folder_id: number | null;
  /** Secret part of the channel's email-gateway address (32 lowercase hex). */
  email_token: string;
  recipient_id: number;
  groups: Record<ChannelGroupSetting, GroupSettingValue>;
}

export interface SubscriptionRecord {
  active: boolean;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/** A message draft kept for its author (Zulip's Draft). */
export interface DraftRecord {
  id: number;
  userId: number;
  /** '' for an unaddressed draft. */
  type: '' | 'stream' | 'private';
  /** As the API shows it: the channel id, or the other participants (the author alone for a note to self). */
  to: number[];
  topic: string;
  content: string;
  /** Unix seconds, microsecond precision (the API shows whole seconds). */
  lastEditTime: number;
}

/** A message waiting to be sent at a later time (Zulip's ScheduledMessage: send-later, or a reminder). */
export interface ScheduledMessageRecord {
  id: number;
  senderId: number;
  /** The channel, for a channel message. */
  streamId: number | null;
  /** '' for a direct message. */
  topic: string;
  /** A direct message's participants, the sender included, ascending. */
  dmUserIds: number[] | null;
  content: string;
  renderedContent: string;
  /** Unix seconds. */
  scheduledTimestamp: number;
  readBySender: boolean;
  /** The client that scheduled (or last edited) it: the sent message's `client`. */
  client: string;
  delivered: boolean;
  deliveredMessageId: number | null;
  failed: boolean;
  failureMessage: string | null;
  /**
   * Set for a message reminder (Zulip's delivery type REMIND, zerver/actions/reminders.py): the
   * message it reminds of, and the note the user gave (null without one). Absent: send-later.
   */
  reminder?: { targetMessageId: number; note: string | null };
}

/** A reusable text a user keeps for composing (Zulip's SavedSnippet). */
export interface SavedSnippetRecord {
  id: number;
  userId: number;
  title: string;
  content: string;
  /** Unix seconds. */
  dateCreated: number;
}

/** A user's pinned or listed view of the web app (Zulip's NavigationView). */
export interface NavigationViewRecord {
  userId: number;
  /** URL fragment, e.g. `inbox` or `narrow/is/starred`. */
  fragment: string;
  isPinned: boolean;
  /** Null for built-in views. */
  name: string | null;
}

/** A user's status (Zulip's UserStatus row); '' means unset, as Zulip stores it. */
export interface UserStatusRecord {
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/**
 * A user's presence (Zulip's UserPresence row): when they were last active and last connected,
 * Unix seconds (null: never, which the API shows as their date_joined), and the realm-wide
 * sequence number of the row's last change.
 */
export interface PresenceRecord {
  lastActiveTime: number | null;
  lastConnectedTime: number | null;
  lastUpdateId: number;
}

/** A named group of channels in the sidebar (Zulip's ChannelFolder). */
export interface ChannelFolderRecord {
  id: number;
  name: string;
  description: string;
  renderedDescription: string;
  /** Position among the realm's folders (a new folder's order is its id). */
  order: number;
  /** Unix seconds. */
  dateCreated: number;
  creatorId: number | null;
  isArchived: boolean;
}

/** An uploaded file (Zulip's Attachment) with its bytes: the engine is its own file store. */
export interface AttachmentRecord {
  id: number;
  ownerId: number;
  /** The name it was uploaded under (unsanitized). */
  name: string;
  /** `{realm id}/{2 hex}/{24 random}/{sanitized name}`: the file's URL is /user_uploads/{pathId}. */
  pathId: string;
  size: number;
  contentType: string;
  /** Unix seconds. */
  createTime: number;
  bytes: Uint8Array;
  /** Messages that link the file, ascending. */
  messageIds: number[];
}

/** A short-lived token that lets anyone fetch one upload (/user_uploads/temporary/…). */
export interface UploadToken {
  pathId: string;
  /** Unix seconds after which the token no longer works. */
  expires: number;
}

/** A legacy push registration: an APNs (`push_a`) or FCM (`push_b`) token of one user. */
export interface PushTokenRecord {
  userId: number;
  kind: 'push_a' | 'push_b';
  token: string;
  /** The iOS app id that goes with a push_a token; null for push_b. */
  appid: string | null;
}

/** A logged-in mobile client (Zulip's Device), and its end-to-end encrypted push registration. */
export interface ClientDeviceRecord {
  id: number;
  userId: number;
  /** The push_key as sent (Base64), its client-chosen id, and the token's kind (`fcm` or `apns`). */
  pushKey: string | null;
  pushKeyId: number | null;
  pushTokenKind: string | null;
  /** Base64 ids of the registered token, and of one still on its way to the push service. */
  pushTokenId: string | null;
  pendingPushTokenId: string | null;
  /** Unix seconds. */
  pushTokenLastUpdated: number | null;
  pushRegistrationErrorCode: string | null;
}

/** A data export (RealmExport): its type, who asked and when, and what became of it. */
export interface RealmExportRecord {
  id: number;
  actingUserId: number;
  /** RealmExport.EXPORT_PUBLIC (1) or EXPORT_FULL_WITH_CONSENT (2). */
  type: 1 | 2;
  /** `requested` only while the request runs: the (simulated) worker makes it before the answer. */
  status: 'requested' | 'succeeded' | 'deleted';
  /** Unix seconds. */
  requestedAt: number;
  /** The tarball's path under the realm URL (`/user_avatars/exports/…`) once made. */
  exportPath: string | null;
  deletedAt: number | null;
}

/** A push notification handed to the (simulated) push service: recorded, as `outbox` records emails. */
export interface OutgoingPush {
  userId: number;
  deviceId: number;
  tokenKind: string | null;
  payload: Record<string, unknown>;
  timestamp: number;
}

/** A request Zulip would POST to an outgoing-webhook bot's endpoint (integrations/outgoing-webhooks.ts), recorded instead. */
export interface OutgoingWebhookRecord {
  botId: number;
  url: string;
  contentType: string;
  /** The request body, byte for byte. */
  body: string;
  trigger: 'mention' | 'direct_message';
  messageId: number;
  timestamp: number;
}

/** How the simulated push service answers: normally, or with one of Zulip's three failures. */
export const PUSH_SERVICE_FAILURES = ['admin_action_required', 'failed_to_connect', 'server_error'] as const;
export type PushServiceFailure = (typeof PUSH_SERVICE_FAILURES)[number];

/** Zulip's UserTopic.VisibilityPolicy: how a user wants one topic treated. */
export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;
export type VisibilityPolicy = (typeof VISIBILITY_POLICY)[keyof typeof VISIBILITY_POLICY];

/** One user's setting for one topic (Zulip's UserTopic row; `inherit` is the absence of a row). */
export interface UserTopicRecord {
  streamId: number;
  /** As the user last named it (topics match case-insensitively). */
  topicName: string;
  /** Unix seconds. */
  lastUpdated: number;
  visibilityPolicy: Exclude<VisibilityPolicy, 0>;
}

/** An email the server would have sent (no I/O in the simulator: recorded instead). */
export interface OutboxEmail {
  to: string;
  template: string;
  context: Record<string, unknown>;
  timestamp: number;
}

export type CounterKind =
  | 'message'
  | 'user'
  | 'stream'
  | 'recipient'
  | 'reaction'
  | 'user_group'
  | 'custom_profile_field'
  | 'realm_emoji'
  | 'multiuse_invite'
  | 'event'
  | (string & {});

export interface State {
  realm: Realm;
  users: Map<number, UserRecord>;
  /** Lower-cased delivery and API emails → user id. */
  usersByEmail: Map<string, number>;
  /** API key → user id. */
  usersByApiKey: Map<string, number>;
  streams: Map<number, StreamRecord>;
  /** Lower-cased channel name → channel id. */
  streamsByName: Map<string, number>;
  /** Channel id → user id → subscription (inactive rows kept, like Zulip). */
  subscriptions: Map<number, Map<number, SubscriptionRecord>>;
  userGroups: Map<number, UserGroup>;
  /** Reusable invitation links by id (revoked ones kept, as upstream). */
  invites: Map<number, MultiuseInvite>;
  /** Email invitations by id (a revoked one is gone, as do_revoke_user_invite deletes it). */
  emailInvites: Map<number, EmailInvite>;
  counters: Record<string, number>;
  messages: MessageStore;
  outbox: OutboxEmail[];
  /** Bot id → key → value (Zulip's BotStorageData), keys in insertion order. */
  botStorage: Map<number, Map<string, string>>;
  /** User id → status, for users who ever set one. */
  userStatuses: Map<number, UserStatusRecord>;
  /** User id → presence, for humans who ever reported one (users/presence.ts). */
  presences: Map<number, PresenceRecord>;
  /** Drafts by id (ascending: creation order). */
  drafts: Map<number, DraftRecord>;
  /** Saved snippets by id (ascending: creation order). */
  savedSnippets: Map<number, SavedSnippetRecord>;
  /** Scheduled messages by id, delivered and failed ones kept (as Zulip keeps the rows). */
  scheduledMessages: Map<number, ScheduledMessageRecord>;
  /** Every user's navigation views, in creation order. */
  navigationViews: NavigationViewRecord[];
  /** The realm's channel folders by id, archived ones included. */
  channelFolders: Map<number, ChannelFolderRecord>;
  /** Uploaded files by id. */
  attachments: Map<number, AttachmentRecord>;
  /** path_id → attachment id. */
  attachmentsByPath: Map<string, number>;
  /** Temporary download tokens handed out by GET /api/v1/user_uploads/…. */
  uploadTokens: Map<string, UploadToken>;
  /** Legacy push tokens, in registration order. */
  pushTokens: PushTokenRecord[];
  /** Registered mobile clients by id. */
  clientDevices: Map<number, ClientDeviceRecord>;
  /** Push notifications sent, oldest first (bounded like the event log). */
  pushOutbox: OutgoingPush[];
  /**
   * The simulated push service: a failure makes pushes fail that way, the next `remaining` of them
   * (then it works again) or, with remaining null, until cleared.
   */
  pushService: { failure: PushServiceFailure | null; remaining: number | null };
  /**
   * User id → topic key (`userTopicKey`) → the user's topic setting, oldest change first (a change
   * moves the row to the end, as Zulip replaces the row).
   */
  userTopics: Map<number, Map<string, UserTopicRecord>>;
  /**
   * User id → alert words as the user spelled them, oldest first (no two equal ignoring case). A
   * change replaces the user's list, never edits it in place: users/alert-words.ts memoises by identity.
   */
  alertWords: Map<number, string[]>;
  /** User id → the users they muted → when (Unix seconds), oldest mute first. */
  mutedUsers: Map<number, Map<number, number>>;
  /** Requests outgoing-webhook bots would have been sent, oldest first (bounded like pushOutbox). */
  outgoingWebhooks: OutgoingWebhookRecord[];
  /** Bot id → when its owner was last warned that it sent to a missing or empty channel (Zulip's last_reminder). */
  botOwnerAlerts: Map<number, number>;
}

export function emptyState(realm: Realm): State {
  return {
    realm,
    users: new Map(),
    usersByEmail: new Map(),
    usersByApiKey: new Map(),
    streams: new Map(),
    streamsByName: new Map(),
    subscriptions: new Map(),
    userGroups: new Map(),
    invites: new Map(),
    emailInvites: new Map(),
    counters: {},
    messages: createMessageStore(),
    outbox: [],
    userStatuses: new Map(),
    presences: new Map(),
    botStorage: new Map(),
    drafts: new Map(),
    savedSnippets: new Map(),
    scheduledMessages: new Map(),
    navigationViews: [],
    channelFolders: new Map(),
    attachments: new Map(),
    attachmentsByPath: new Map(),
    uploadTokens: new Map(),
    pushTokens: [],
    clientDevices: new Map(),
    pushOutbox: [],
    pushService: { failure: null, remaining: null },
    userTopics: new Map(),
    alertWords: new Map(),
    mutedUsers: new Map(),
    outgoingWebhooks: [],
    botOwnerAlerts: new Map(),
  };
}

/** Next sequential id of a kind: deterministic, never reused. */
export function nextId(state: State, kind: CounterKind): number {
  const next = (state.counters[kind] ?? 0) + 1;
  state.counters[kind] = next;
  return next;
}

/** Make sure the next id of `kind` is above `id` (used when a fixture supplies explicit ids). */
export function reserveId(state: State, kind: CounterKind, id: number): void {
  if ((state.counters[kind] ?? 0) < id) state.counters[kind] = id;
}
