/**
 * The organization's settings: PATCH /realm (Zulip's
 * zerver/views/realm.py update_realm and zerver/actions/realm_settings.py) and their values as
 * the `realm` register bundle and realm events show them (zerver/lib/events.py:fetch_initial_state_data, zerver/models/realms.py, zerver/actions/realm_settings.py).
 *
 * Every setting lives on `state.realm` and is read there by whatever acts on it (message edit
 * and delete limits, channel creation, invitations, spectator access, the empty-topic policy), so
 * a change applies to the very next request. Unlike upstream, which applies some settings before
 * it has checked the rest, a request is checked whole first and then applied: an error leaves
 * the realm as it was.
 */
import { activeUserIds, getStreamById, isOwner, nowSeconds, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import {
  REALM_GROUP_SETTING_RULES,
  accessGroupSetting,
  groupSettingForApi,
  normalizeGroupSetting,
  sameGroupSetting,
  type GroupSettingChange,
} from '../groups/groups.ts';
import { AVAILABLE_LANGUAGE_CODES } from './languages.ts';
import { REALM_GROUP_SETTINGS, type GroupSettingValue, type Realm, type RealmGroupSetting, type UserRecord } from '../state.ts';
import { updateFullMembers } from '../groups/system-groups.ts';
import { validateWorkplaceUsersGroup } from '../groups/workplace-users.ts';

/** MessageEditHistoryVisibilityPolicyEnum and RealmTopicsPolicyEnum: API names and stored values. */
export const EDIT_HISTORY_POLICY_VALUES = { all: 1, moves: 2, none: 3 } as const;
export const TOPICS_POLICY_VALUES = { allow_empty_topic: 2, disable_empty_topic: 3 } as const;

/** Realm.VIDEO_CHAT_PROVIDERS this server offers (Zoom needs server credentials it does not have). */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
} as const;

/** Realm.GIF_RATING_POLICY_OPTIONS ids: disabled, Y, G, PG, PG-13, R (named giphy_rating before feature level 453). */
const GIF_RATING_POLICIES = new Set([0, 1, 2, 3, 4, 5]);

/** Zulip's OrgTypeEnum values. */
export const ORG_TYPES: ReadonlySet<number> = new Set([0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000]);

/**
 * Realm.property_types that PATCH /realm sets, in the order update_realm applies them (its
 * parameters alphabetically, then the values it parsed itself).
 */
export const REALM_PROPERTIES = [
  'allow_message_editing',
  'avatar_changes_disabled',
  'default_code_block_language',
  'default_language',
  'description',
  'digest_emails_enabled',
  'digest_weekday',
  'disallow_disposable_email_addresses',
  'email_changes_disabled',
  'emails_restricted_to_domains',
  'enable_guest_user_dm_warning',
  'enable_guest_user_indicator',
  'enable_read_receipts',
  'enable_spectator_access',
  'gif_rating_policy',
  'inline_image_preview',
  'inline_url_embed_preview',
  'invite_required',
  'message_content_allowed_in_email_notifications',
  'message_edit_history_visibility_policy',
  'name',
  'name_changes_disabled',
  'require_e2ee_push_notifications',
  'require_unique_names',
  'send_channel_events_messages',
  'send_welcome_emails',
  'topics_policy',
  'video_chat_provider',
  'waiting_period_threshold',
  'want_advertise_in_communities_directory',
  'welcome_message_custom_text',
  'message_retention_days',
  'message_content_delete_limit_seconds',
  'message_content_edit_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
  'jitsi_server_url',
] as const;
export type RealmProperty = (typeof REALM_PROPERTIES)[number];

/** The message time limits: a positive number of seconds, or "unlimited". */
export const TIME_LIMIT_SETTINGS = [
  'message_content_delete_limit_seconds',
  'message_content_edit_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;

/** Settings naming a channel (-1 for none), in the order update_realm handles them. */
export const REALM_CHANNEL_SETTINGS = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
] as const;
export type RealmChannelSetting = (typeof REALM_CHANNEL_SETTINGS)[number];

/** Group settings only owners may change, with invite_required (update_realm's owner checks). */
const OWNER_ONLY_GROUP_SETTINGS: ReadonlySet<RealmGroupSetting> = new Set([
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
]);

/** What PATCH /realm asked for, each value already of its declared type (the route decodes them). */
export interface RealmUpdate {
  /** Booleans, strings and integers as sent; time limits and retention as sent (number or string). */
  properties: Partial<Record<RealmProperty, unknown>>;
  groups: Partial<Record<RealmGroupSetting, GroupSettingChange>>;
  channels: Partial<Record<RealmChannelSetting, number>>;
  authentication_methods?: Record<string, unknown> | undefined;
  org_type?: number | undefined;
  string_id?: string | undefined;
}

/** Python's truthiness, for authentication_methods' values (Json[dict[str, Any]]). */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's repr of a list of strings, as Zulip's error interpolates it. */
function pyList(items: readonly string[]): string {
  return `[${items.map((s) => `'${s}'`).join(', ')}]`;
}

/** Python's str() of a JSON-decoded value, for "Bad value for …" messages. */
function pyStr(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** The realm's authentication backends this server has, and whether each is on. */
function authenticationMethods(realm: Realm): Record<string, boolean> {
  return { Dev: realm.dev_auth_enabled, Email: realm.password_auth_enabled };
}

/** get_realm_authentication_methods_for_page_params_api (a self-hosted server: all available). */
export function authenticationMethodsForApi(realm: Realm): Record<string, { enabled: boolean; available: boolean }> {
  const out: Record<string, { enabled: boolean; available: boolean }> = {};
  for (const [name, enabled] of Object.entries(authenticationMethods(realm))) out[name] = { enabled, available: true };
  return out;
}

/** parse_message_time_limit_setting / parse_message_retention_days: "unlimited" or a positive integer. */
function parseLimit(name: string, value: unknown, unlimited: number | null): number | null {
  if (value === 'unlimited') return unlimited;
  if (typeof value === 'string' || typeof value !== 'number' || value <= 0) {
    throw ChatError.badRequest(`Bad value for '${name}': ${pyStr(value)}`);
  }
  return value;
}

/** A property's value as the API shows it (events, register, comparisons). */
export function realmPropertyForApi(realm: Realm, name: RealmProperty): unknown {
  if (name === 'message_retention_days') return realm.message_retention_days ?? -1;
  return realm[name];
}

function storeProperty(realm: Realm, name: RealmProperty, value: unknown): void {
  if (name === 'message_retention_days') realm.message_retention_days = value === -1 ? null : (value as number);
  else (realm as unknown as Record<string, unknown>)[name] = value;
}

/** do_set_realm_property's event: its special shapes for the edit settings and the two policies. */
function propertyEvent(name: RealmProperty, value: unknown): Effect['event'] {
  if (name === 'allow_message_editing' || name === 'message_content_edit_limit_seconds') {
    return { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } };
  }
  if (name === 'topics_policy') {
    return {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { topics_policy: value, mandatory_topics: value === 'disable_empty_topic' },
    };
  }
  return { type: 'realm', op: 'update', property: name, value };
}

/** One property of the request: its new API value, whether it changes, and what the reply says. */
interface PropertyStep {
  name: RealmProperty;
  value: unknown;
  changed: boolean;
  reply: unknown;
}

interface CheckedUpdate {
  /** Properties in the order update_realm applies them and lists them in its reply. */
  properties: PropertyStep[];
  groups: [RealmGroupSetting, GroupSettingValue][];
  authentication: Record<string, boolean> | undefined;
  channels: [RealmChannelSetting, number][];
  orgType: number | undefined;
}

/** The checks of update_realm that come before any setting is applied, in its order. */
function checkOwnerOnly(actor: UserRecord, u: RealmUpdate): void {
  const sent = (name: RealmProperty) => u.properties[name] !== undefined;
  const groupSent = [...OWNER_ONLY_GROUP_SETTINGS].some((key) => u.groups[key] !== undefined);
  if ((sent('invite_required') || groupSent) && !isOwner(actor)) throw ChatError.ownerRequired();
  if ((sent('emails_restricted_to_domains') || sent('disallow_disposable_email_addresses')) && !isOwner(actor)) {
    throw ChatError.ownerRequired();
  }
  if (sent('waiting_period_threshold') && !isOwner(actor)) throw ChatError.ownerRequired();
}

function checkAuthenticationMethods(engine: Engine, actor: UserRecord, methods: Record<string, unknown>): Record<string, boolean> {
  if (!isOwner(actor)) throw ChatError.ownerRequired();
  const current = authenticationMethods(engine.state.realm);
  for (const name of Object.keys(methods)) {
    if (!(name in current)) {
      throw ChatError.badRequest(`Invalid authentication method: ${name}. Valid methods are: ${pyList(Object.keys(current).sort())}`);
    }
  }
  if (!Object.values(methods).some((v) => v === true)) throw ChatError.badRequest('At least one authentication method must be enabled.');
  return Object.fromEntries(Object.entries(methods).map(([name, v]) => [name, truthy(v)]));
}

function checkUpdate(engine: Engine, actor: UserRecord, u: RealmUpdate): CheckedUpdate {
  const realm = engine.state.realm;
  const p = u.properties;
  if (p.default_language !== undefined && !AVAILABLE_LANGUAGE_CODES.has(p.default_language as string)) {
    throw ChatError.badRequest(`Invalid language '${String(p.default_language)}'`);
  }
  const authentication = u.authentication_methods === undefined ? undefined : checkAuthenticationMethods(engine, actor, u.authentication_methods);
  const providers = new Set<number>(Object.values(VIDEO_CHAT_PROVIDERS).map((v) => v.id));
  if (p.video_chat_provider !== undefined && !providers.has(p.video_chat_provider as number)) {
    throw ChatError.badRequest(`Invalid video_chat_provider ${String(p.video_chat_provider)}`);
  }
  if (p.gif_rating_policy !== undefined && !GIF_RATING_POLICIES.has(p.gif_rating_policy as number)) {
    throw ChatError.badRequest(`Invalid gif_rating_policy ${String(p.gif_rating_policy)}`);
  }
  const parsed = new Map<RealmProperty, unknown>();
  if (p.message_retention_days !== undefined) {
    if (!isOwner(actor)) throw ChatError.ownerRequired();
    parsed.set('message_retention_days', parseLimit('message_retention_days', p.message_retention_days, -1));
  }
  checkOwnerOnly(actor, u);
  for (const name of TIME_LIMIT_SETTINGS) {
    if (p[name] !== undefined) parsed.set(name, parseLimit(name, p[name], null));
  }
  if (p.jitsi_server_url !== undefined) parsed.set('jitsi_server_url', p.jitsi_server_url === 'default' ? null : p.jitsi_server_url);

  // "Unlimited" limits are applied as they are parsed, before the property loop; in the loop a
  // value different from the current one is stored, and the two policies are echoed in the reply
  // whenever sent (upstream compares their enum with the stored integer, which never matches).
  const unlimited: PropertyStep[] = [];
  const properties: PropertyStep[] = [];
  for (const name of REALM_PROPERTIES) {
    const value = parsed.has(name) ? parsed.get(name) : p[name];
    if (value === undefined) continue;
    const changed = value !== realmPropertyForApi(realm, name);
    const policy = name === 'topics_policy' ? TOPICS_POLICY_VALUES : name === 'message_edit_history_visibility_policy' ? EDIT_HISTORY_POLICY_VALUES : null;
    if (policy) properties.push({ name, value, changed, reply: policy[value as keyof typeof policy] });
    else if (!changed) continue;
    else if (value === null && (name === 'jitsi_server_url' || (TIME_LIMIT_SETTINGS as readonly string[]).includes(name))) {
      unlimited.push({ name, value, changed, reply: null });
    } else properties.push({ name, value, changed, reply: typeof value === 'string' ? 'updated' : value });
  }

  const groups: [RealmGroupSetting, GroupSettingValue][] = [];
  for (const key of REALM_GROUP_SETTINGS) {
    const change = u.groups[key];
    if (change === undefined) continue;
    const current = groupSettingForApi(engine, realm[key]);
    const wanted = normalizeGroupSetting(engine, change.new);
    if (change.old !== undefined && !sameGroupSetting(normalizeGroupSetting(engine, change.old), current)) {
      throw new ChatError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
    }
    if (sameGroupSetting(current, wanted)) continue;
    const stored = accessGroupSetting(engine, key, wanted, REALM_GROUP_SETTING_RULES[key]);
    if (key === 'workplace_users_group') validateWorkplaceUsersGroup(engine, stored);
    groups.push([key, stored]);
  }

  const channels: [RealmChannelSetting, number][] = [];
  for (const key of REALM_CHANNEL_SETTINGS) {
    const id = u.channels[key];
    if (id === undefined || realm[key] === id) continue;
    if (id >= 0) {
      const stream = getStreamById(engine, id);
      if (!stream) throw ChatError.invalidChannelId();
      if (key === 'moderation_request_channel_id' && !stream.invite_only) {
        throw ChatError.badRequest('Moderation request channel must be private.');
      }
    }
    channels.push([key, id]);
  }

  if (u.string_id !== undefined) {
    if (!isOwner(actor)) throw ChatError.ownerRequired();
    // Only demo organizations may change their subdomain; the simulated realm is not one.
    throw ChatError.badRequest('Must be a demo organization.');
  }
  return { properties: [...unlimited, ...properties], groups, authentication, channels, orgType: u.org_type };
}

/**
 * PATCH /realm: every check first (update_realm's order: language, authentication methods, video
 * provider, GIPHY rating, retention (owners), owner-only settings, time limits, group settings,
 * channels, subdomain), then each change with its event to every active user. The reply names
 * what changed: the new value, `"updated"` for text, the new group setting.
 */
export function updateRealm(engine: Engine, actor: UserRecord, u: RealmUpdate): Outcome<Record<string, unknown>> {
  const c = checkUpdate(engine, actor, u);
  const realm = engine.state.realm;
  const everyone = activeUserIds(engine);
  const events: Effect[] = [];
  const data: Record<string, unknown> = {};

  for (const step of c.properties) {
    data[step.name] = step.reply;
    if (!step.changed) continue;
    storeProperty(realm, step.name, step.value);
    events.push(effect(propertyEvent(step.name, step.value), everyone));
    if (step.name === 'waiting_period_threshold') events.push(...updateFullMembers(engine, nowSeconds(engine)));
  }

  for (const [key, value] of c.groups) {
    realm[key] = value;
    const apiValue = groupSettingForApi(engine, value);
    events.push(effect({ type: 'realm', op: 'update_dict', property: 'default', data: { [key]: apiValue } }, everyone));
    data[key] = apiValue;
  }

  if (c.authentication !== undefined) {
    if (c.authentication.Email !== undefined) realm.password_auth_enabled = c.authentication.Email;
    if (c.authentication.Dev !== undefined) realm.dev_auth_enabled = c.authentication.Dev;
    const sent = u.authentication_methods!;
    events.push(
      effect(
        { type: 'realm', op: 'update_dict', property: 'default', data: { authentication_methods: authenticationMethodsForApi(realm) } },
        everyone,
      ),
    );
    data.authentication_methods = sent;
  }

  for (const [key, id] of c.channels) {
    realm[key] = id < 0 ? null : id;
    events.push(effect({ type: 'realm', op: 'update', property: key, value: id }, everyone));
    data[key] = id;
  }

  if (c.orgType !== undefined) {
    realm.org_type = c.orgType;
    events.push(effect({ type: 'realm', op: 'update', property: 'org_type', value: c.orgType }, everyone));
    data.org_type = c.orgType;
  }
  return outcome(data, events);
}

/**
 * The realm's settings as the `realm` register bundle names them (`realm_` + setting), so that
 * a client applying the events above to it stays in step with GET-style reads.
 */
export function realmSettingsState(engine: Engine): Record<string, unknown> {
  const realm = engine.state.realm;
  const out: Record<string, unknown> = {};
  for (const name of REALM_PROPERTIES) out[`realm_${name}`] = realmPropertyForApi(realm, name);
  out.realm_allow_edit_history = realm.message_edit_history_visibility_policy !== 'none';
  out.realm_mandatory_topics = realm.topics_policy === 'disable_empty_topic';
  for (const key of REALM_GROUP_SETTINGS) out[`realm_${key}`] = groupSettingForApi(engine, realm[key]);
  for (const key of REALM_CHANNEL_SETTINGS) out[`realm_${key}`] = realm[key] ?? -1;
  out.realm_org_type = realm.org_type;
  out.realm_authentication_methods = authenticationMethodsForApi(realm);
  out.realm_available_video_chat_providers = VIDEO_CHAT_PROVIDERS;
  return out;
}
