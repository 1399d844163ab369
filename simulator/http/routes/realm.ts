/** The organization's settings: PATCH /realm (zerver/views/realm.py, zerver/actions/realm_settings.py). */
import { ChatError } from '../../engine/errors.ts';
import { parseGroupSettingChange, type GroupSettingChange } from '../../engine/groups/groups.ts';
import {
  EDIT_HISTORY_POLICY_VALUES,
  ORG_TYPES,
  REALM_CHANNEL_SETTINGS,
  TOPICS_POLICY_VALUES,
  updateRealm,
  type RealmProperty,
  type RealmUpdate,
} from '../../engine/realm/settings.ts';
import { sendTestWelcomeBotCustomMessage } from '../../engine/realm/welcome-bot.ts';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../../engine/users/invites.ts';
import { REALM_GROUP_SETTINGS, type RealmGroupSetting } from '../../engine/state.ts';
import { boolParam, nonNegative } from '../checks.ts';
import { defineRoute, paramList, type ParamsOf } from '../define-route.ts';
import type { ParamSpec, Route } from '../route.ts';

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** `Json[int | str]` (time limits, retention): a JSON integer or a JSON string. */
function intOrString(value: unknown, name: string): number | string {
  if (typeof value === 'string' || isInt(value)) return value;
  throw ChatError.badRequest(`${name}["int"] is not an integer`);
}

/** A string naming one member of an enum (parse_enum_from_string_value). */
const enumName =
  (names: Record<string, number>) =>
  (value: string, name: string): string => {
    if (!Object.hasOwn(names, value)) throw ChatError.badRequest(`Invalid ${name}`);
    return value;
  };

/** An integer among the enum's values (upstream's pydantic enum check). */
const enumValue =
  (values: ReadonlySet<number>) =>
  (value: number, name: string): number => {
    if (!values.has(value)) throw ChatError.badRequest(`Invalid ${name}`);
    return value;
  };

/** check_jitsi_url: "default", or an http(s) URL of at most 200 characters (Json[str]). */
function jitsiUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw ChatError.badRequest(`${name} is not a string`);
  if (value === 'default') return value;
  let ok = value.length <= 200;
  try {
    const url = new URL(value);
    ok &&= (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok) throw ChatError.badRequest(`${name} is not an allowed_type`);
  return value;
}

const bool = boolParam;
const group = <N extends string>(name: N) => ({ name, type: 'json', validate: parseGroupSettingChange }) as const;
function int<N extends string>(name: N): { name: N; type: 'int' };
function int<N extends string, R>(name: N, validate: (value: number, name: string) => R): { name: N; type: 'int'; validate: (value: number, name: string) => R };
function int(name: string, validate?: (value: number, name: string) => unknown): ParamSpec {
  return { name, type: 'int', ...(validate ? { validate } : {}) };
}
const limit = <N extends string>(name: N) => ({ name, type: 'json', validate: intOrString }) as const;

/** update_realm's parameters, in its (alphabetical) declaration order: the order they are checked in. */
const PARAMS = paramList([
  bool('allow_message_editing'),
  { name: 'authentication_methods', type: 'json_object' },
  bool('avatar_changes_disabled'),
  group('can_access_all_users_group'),
  group('can_add_custom_emoji_group'),
  group('can_add_subscribers_group'),
  group('can_create_bots_group'),
  group('can_create_groups'),
  group('can_create_private_channel_group'),
  group('can_create_public_channel_group'),
  group('can_create_web_public_channel_group'),
  group('can_create_write_only_bots_group'),
  group('can_delete_any_message_group'),
  group('can_delete_own_message_group'),
  group('can_invite_users_group'),
  group('can_manage_all_groups'),
  group('can_manage_billing_group'),
  group('can_mention_many_users_group'),
  group('can_move_messages_between_channels_group'),
  group('can_move_messages_between_topics_group'),
  group('can_resolve_topics_group'),
  group('can_set_delete_message_policy_group'),
  group('can_set_topics_policy_group'),
  group('can_summarize_topics_group'),
  group('create_multiuse_invite_group'),
  { name: 'default_code_block_language', type: 'string' },
  { name: 'default_language', type: 'string' },
  { name: 'description', type: 'string', maxLength: 1000 },
  bool('digest_emails_enabled'),
  int('digest_weekday', enumValue(new Set([0, 1, 2, 3, 4, 5, 6]))),
  group('direct_message_initiator_group'),
  group('direct_message_permission_group'),
  bool('disallow_disposable_email_addresses'),
  bool('email_changes_disabled'),
  bool('emails_restricted_to_domains'),
  bool('enable_guest_user_dm_warning'),
  bool('enable_guest_user_indicator'),
  bool('enable_read_receipts'),
  bool('enable_spectator_access'),
  int('gif_rating_policy'),
  bool('inline_image_preview'),
  bool('inline_url_embed_preview'),
  bool('invite_required'),
  { name: 'jitsi_server_url', type: 'json', validate: jitsiUrl },
  bool('message_content_allowed_in_email_notifications'),
  limit('message_content_delete_limit_seconds'),
  limit('message_content_edit_limit_seconds'),
  { name: 'message_edit_history_visibility_policy', type: 'string', validate: enumName(EDIT_HISTORY_POLICY_VALUES) },
  limit('message_retention_days'),
  int('moderation_request_channel_id'),
  limit('move_messages_between_streams_limit_seconds'),
  limit('move_messages_within_stream_limit_seconds'),
  { name: 'name', type: 'string', maxLength: 40 },
  bool('name_changes_disabled'),
  int('new_stream_announcements_stream_id'),
  int('org_type', enumValue(ORG_TYPES)),
  bool('require_e2ee_push_notifications'),
  bool('require_unique_names'),
  bool('send_channel_events_messages'),
  bool('send_welcome_emails'),
  int('signup_announcements_stream_id'),
  { name: 'string_id', type: 'string', maxLength: 40 },
  { name: 'topics_policy', type: 'string', validate: enumName(TOPICS_POLICY_VALUES) },
  int('video_chat_provider'),
  int('waiting_period_threshold', nonNegative),
  bool('want_advertise_in_communities_directory'),
  group('workplace_users_group'),
  int('zulip_update_announcements_stream_id'),
  { name: 'welcome_message_custom_text', type: 'string', maxLength: 8000 },
]);

const GROUP_NAMES = new Set<string>(REALM_GROUP_SETTINGS);
const CHANNEL_NAMES = new Set<string>(REALM_CHANNEL_SETTINGS);
const OTHER_NAMES = new Set(['authentication_methods', 'org_type', 'string_id']);

/** The decoded parameters, sorted into what the engine's update names. */
function realmUpdate(params: ParamsOf<typeof PARAMS>): RealmUpdate {
  const update: RealmUpdate = { properties: {}, groups: {}, channels: {} };
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (GROUP_NAMES.has(name)) update.groups[name as RealmGroupSetting] = value as GroupSettingChange;
    else if (CHANNEL_NAMES.has(name)) update.channels[name as (typeof REALM_CHANNEL_SETTINGS)[number]] = value as number;
    else if (!OTHER_NAMES.has(name)) update.properties[name as RealmProperty] = value;
  }
  update.authentication_methods = params.authentication_methods;
  update.org_type = params.org_type;
  update.string_id = params.string_id;
  return update;
}

export const realmRoutes: Route[] = [
  defineRoute({
    method: 'PATCH',
    path: '/realm',
    response: 'update-realm',
    auth: 'admin',
    summary: "change the organization's settings (some only by owners)",
    params: PARAMS,
    handler({ engine, user, params }) {
      return updateRealm(engine, user, realmUpdate(params));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/realm/test_welcome_bot_custom_message',
    response: 'test-welcome-bot-custom-message',
    auth: 'admin',
    summary: 'Welcome Bot sends you the custom welcome text, as new users would get it',
    params: [{ name: 'welcome_message_custom_text', type: 'string', required: true, maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }],
    handler: ({ engine, user, params }) => sendTestWelcomeBotCustomMessage(engine, user, params.welcome_message_custom_text),
  }),
];
