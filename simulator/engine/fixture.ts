/**
 * Fixture → State. The fixture is validated against schemas/chat/fixture.schema.json (ajv,
 * compiled once) and then cross-checked (unique ids and emails, every referenced email and
 * channel exists), each problem named by its JSON pointer, before anything is built.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import schema from '../../schemas/chat/fixture.schema.json' with { type: 'json' };
import type { Fixture, FixtureGroupSetting, FixtureUser } from '../../schemas/generated/types/chat/fixture.ts';
import { storedContentType } from './integrations/attachments.ts';
import { randomApiKey, type Deps } from './deps.ts';
import { REALM_GROUP_SETTING_RULES } from './groups/groups.ts';
import { indexEmail } from './core.ts';
import { linkifierErrors } from './realm/linkifier-syntax.ts';
import { renderDescription } from './markdown/descriptions.ts';
import { SYSTEM_GROUPS, SYSTEM_GROUP_BASE_ID, createSystemGroups, syncSystemGroups } from './groups/system-groups.ts';
import {
  CHANNEL_GROUP_SETTINGS,
  EMAIL_VISIBILITY,
  INVALID_GROUP_NAME_PREFIXES,
  REALM_GROUP_SETTINGS,
  ROLE,
  emptyState,
  nextId,
  reserveId,
  USER_GROUP_SETTINGS,
  type ChannelGroupSetting,
  type GroupSettingValue,
  type Realm,
  type RealmGroupSetting,
  type RealmGroupSettings,
  type State,
  type StreamRecord,
  type SubscriptionRecord,
  type UserGroupSetting,
  type UserRecord,
} from './state.ts';

export class FixtureError extends Error {
  constructor(
    readonly problems: { pointer: string; message: string }[],
    readonly file?: string,
  ) {
    super(
      `Invalid fixture${file ? ` ${file}` : ''}:\n` +
        problems.map((p) => `  ${p.pointer || '/'}: ${p.message}`).join('\n'),
    );
    this.name = 'FixtureError';
  }
}

/**
 * Compiled on first use, not at import: compiling takes half of the simulator's start-up, and the
 * built-in fixture, checked by the test suite, is never validated at run time.
 */
let compiledSchema: ValidateFunction<Fixture> | undefined;
function validateSchema(): ValidateFunction<Fixture> {
  compiledSchema ??= new Ajv({ allErrors: true, strict: false }).compile<Fixture>(schema);
  return compiledSchema;
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    return `unknown property "${String((error.params as { additionalProperty: string }).additionalProperty)}"`;
  }
  if (error.keyword === 'enum') {
    return `must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  }
  return error.message ?? error.keyword;
}

/** Schema validation plus cross-reference checks; throws FixtureError listing every problem. */
export function validateFixture(input: unknown, file?: string): Fixture {
  const validate = validateSchema();
  if (!validate(input)) {
    const problems = (validate.errors ?? []).map((e) => ({ pointer: e.instancePath, message: describe(e) }));
    throw new FixtureError(problems, file);
  }
  const fixture = input;
  const problems: { pointer: string; message: string }[] = [];
  const emails = new Set<string>();
  const ids = new Set<number>();
  fixture.users.forEach((u, i) => {
    if (ids.has(u.id)) problems.push({ pointer: `/users/${i}/id`, message: `duplicate user id ${u.id}` });
    ids.add(u.id);
    const key = u.email.toLowerCase();
    if (emails.has(key)) problems.push({ pointer: `/users/${i}/email`, message: `duplicate email ${u.email}` });
    emails.add(key);
  });
  const known = (email: string | undefined): boolean => email === undefined || emails.has(email.toLowerCase());
  fixture.users.forEach((u, i) => {
    if (u.is_bot && u.bot_type === undefined) problems.push({ pointer: `/users/${i}/bot_type`, message: 'bots need a bot_type' });
    if (!u.is_bot && (u.bot_type !== undefined || u.bot_owner !== undefined)) {
      problems.push({ pointer: `/users/${i}`, message: 'bot_type and bot_owner are for bots only' });
    }
    if (!known(u.bot_owner)) problems.push({ pointer: `/users/${i}/bot_owner`, message: `no user with email ${u.bot_owner}` });
    for (const fieldId of Object.keys(u.profile_data ?? {})) {
      if (!(fixture.custom_profile_fields ?? []).some((f) => f.id === Number(fieldId))) {
        problems.push({ pointer: `/users/${i}/profile_data/${fieldId}`, message: `no custom profile field ${fieldId}` });
      }
    }
  });
  if (!fixture.users.some((u) => u.role === 'owner' && !u.is_bot && u.is_active !== false)) {
    problems.push({ pointer: '/users', message: 'the realm needs at least one active human owner' });
  }
  const folderIds = new Set<number>();
  const folderNames = new Set<string>();
  (fixture.channel_folders ?? []).forEach((f, i) => {
    if (folderIds.has(f.id)) problems.push({ pointer: `/channel_folders/${i}/id`, message: `duplicate channel folder id ${f.id}` });
    folderIds.add(f.id);
    const key = f.name.toLowerCase();
    if (folderNames.has(key)) problems.push({ pointer: `/channel_folders/${i}/name`, message: `duplicate channel folder name ${f.name}` });
    folderNames.add(key);
    if (!known(f.creator)) problems.push({ pointer: `/channel_folders/${i}/creator`, message: `no user with email ${f.creator}` });
  });
  const uploadPaths = new Set<string>();
  const realmId = fixture.realm.id ?? 2;
  (fixture.uploads ?? []).forEach((u, i) => {
    if (uploadPaths.has(u.path_id)) problems.push({ pointer: `/uploads/${i}/path_id`, message: `duplicate upload path ${u.path_id}` });
    uploadPaths.add(u.path_id);
    if (!u.path_id.startsWith(`${realmId}/`)) problems.push({ pointer: `/uploads/${i}/path_id`, message: `must start with the realm id ${realmId}/` });
    if (!known(u.owner)) problems.push({ pointer: `/uploads/${i}/owner`, message: `no user with email ${u.owner}` });
    if (u.content_encoding === 'base64' && (u.content.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(u.content))) {
      problems.push({ pointer: `/uploads/${i}/content`, message: 'not Base64' });
    }
  });
  const streamIds = new Set<number>();
  const streamNames = new Set<string>();
  fixture.streams.forEach((s, i) => {
    if (streamIds.has(s.id)) problems.push({ pointer: `/streams/${i}/id`, message: `duplicate channel id ${s.id}` });
    streamIds.add(s.id);
    const key = s.name.trim().toLowerCase();
    if (streamNames.has(key)) problems.push({ pointer: `/streams/${i}/name`, message: `duplicate channel name ${s.name}` });
    streamNames.add(key);
    if (!known(s.creator)) problems.push({ pointer: `/streams/${i}/creator`, message: `no user with email ${s.creator}` });
    if (s.folder_id !== undefined && !folderIds.has(s.folder_id)) {
      problems.push({ pointer: `/streams/${i}/folder_id`, message: `no channel folder ${s.folder_id}` });
    }
    (s.subscribers ?? []).forEach((e, j) => {
      if (!known(e)) problems.push({ pointer: `/streams/${i}/subscribers/${j}`, message: `no user with email ${e}` });
    });
  });
  const channelRef = (name: string | null | undefined, pointer: string): void => {
    if (name && !streamNames.has(name.toLowerCase())) problems.push({ pointer, message: `no channel named ${name}` });
  };
  channelRef(fixture.realm.new_stream_announcements_stream, '/realm/new_stream_announcements_stream');
  (fixture.realm.default_streams ?? []).forEach((n, i) => channelRef(n, `/realm/default_streams/${i}`));
  (fixture.realm_emoji ?? []).forEach((e, i) => {
    if (!known(e.author)) problems.push({ pointer: `/realm_emoji/${i}/author`, message: `no user with email ${e.author}` });
  });
  validateUserGroups(fixture, known, problems);
  validateLinkifiers(fixture, problems);
  fixture.messages.forEach((m, i) => {
    if (!known(m.sender)) problems.push({ pointer: `/messages/${i}/sender`, message: `no user with email ${m.sender}` });
    if (m.channel === undefined && m.to === undefined) {
      problems.push({ pointer: `/messages/${i}`, message: 'needs either channel + topic or to' });
    }
    channelRef(m.channel, `/messages/${i}/channel`);
    for (const key of ['to', 'read_by', 'starred_by'] as const) {
      (m[key] ?? []).forEach((e, j) => {
        if (!known(e)) problems.push({ pointer: `/messages/${i}/${key}/${j}`, message: `no user with email ${e}` });
      });
    }
    (m.reactions ?? []).forEach((r, j) => {
      if (!known(r.user)) problems.push({ pointer: `/messages/${i}/reactions/${j}/user`, message: `no user with email ${r.user}` });
    });
  });
  if (problems.length > 0) throw new FixtureError(problems, file);
  return fixture;
}

/**
 * Each linkifier as POST /realm/filters checks it (a pattern RE2 compiles, matching groups and
 * template variables, no pattern twice), so a fixture cannot hold one Zulip would refuse.
 */
function validateLinkifiers(fixture: Fixture, problems: { pointer: string; message: string }[]): void {
  const linkifiers = fixture.realm.linkifiers ?? [];
  const ids = new Set<number>();
  linkifiers.forEach((l, i) => {
    if (ids.has(l.id)) problems.push({ pointer: `/realm/linkifiers/${i}/id`, message: `duplicate linkifier id ${l.id}` });
    ids.add(l.id);
    const taken = linkifiers.slice(0, i).some((other) => other.pattern === l.pattern);
    for (const [field, messages] of Object.entries(linkifierErrors(l.pattern, l.url_template, taken))) {
      const pointer = field === '__all__' ? `/realm/linkifiers/${i}` : `/realm/linkifiers/${i}/${field}`;
      for (const message of messages) problems.push({ pointer, message });
    }
  });
}

const GROUP_SETTING_KEYS = USER_GROUP_SETTINGS;

/**
 * Fixture groups: unique names that a user could have chosen (no system prefix), known members
 * and creator, subgroups and setting groups that are system groups or groups listed earlier (so
 * there can be no cycle).
 */
function validateUserGroups(
  fixture: Fixture,
  known: (email: string | undefined) => boolean,
  problems: { pointer: string; message: string }[],
): void {
  const names = new Set<string>(SYSTEM_GROUPS.map(([name]) => name));
  const ids = new Set<number>();
  (fixture.user_groups ?? []).forEach((g, i) => {
    const at = `/user_groups/${i}`;
    if (names.has(g.name)) problems.push({ pointer: `${at}/name`, message: `duplicate group name ${g.name}` });
    else if (INVALID_GROUP_NAME_PREFIXES.some((p) => g.name.startsWith(p))) {
      problems.push({ pointer: `${at}/name`, message: `group names may not start with ${INVALID_GROUP_NAME_PREFIXES.join(' ')}` });
    }
    if (g.id !== undefined) {
      if (g.id < SYSTEM_GROUP_BASE_ID + SYSTEM_GROUPS.length || ids.has(g.id)) problems.push({ pointer: `${at}/id`, message: `group id ${g.id} is taken` });
      ids.add(g.id);
    }
    (g.members ?? []).forEach((e, j) => {
      if (!known(e)) problems.push({ pointer: `${at}/members/${j}`, message: `no user with email ${e}` });
    });
    if (!known(g.creator)) problems.push({ pointer: `${at}/creator`, message: `no user with email ${g.creator}` });
    const groupRef = (name: string, pointer: string): void => {
      if (!names.has(name)) problems.push({ pointer, message: `no system group or earlier group named ${name}` });
    };
    (g.subgroups ?? []).forEach((n, j) => groupRef(n, `${at}/subgroups/${j}`));
    for (const key of GROUP_SETTING_KEYS) {
      const value = g[key];
      if (value === undefined) continue;
      if (typeof value === 'string') groupRef(value, `${at}/${key}`);
      else {
        (value.direct_members ?? []).forEach((e, j) => {
          if (!known(e)) problems.push({ pointer: `${at}/${key}/direct_members/${j}`, message: `no user with email ${e}` });
        });
        (value.direct_subgroups ?? []).forEach((n, j) => groupRef(n, `${at}/${key}/direct_subgroups/${j}`));
      }
    }
    names.add(g.name);
  });
}

/** Zulip's STREAM_ASSIGNMENT_COLORS, handed out in order per user. */
export const STREAM_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5',
  '#f5ce6e', '#c2726a', '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063',
  '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4', '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

const ROLE_BY_NAME: Record<FixtureUser['role'], UserRecord['role']> = {
  owner: ROLE.owner,
  administrator: ROLE.administrator,
  moderator: ROLE.moderator,
  member: ROLE.member,
  guest: ROLE.guest,
};

function buildRealm(fixture: Fixture): Realm {
  const r = fixture.realm;
  return {
    id: r.id ?? 2,
    string_id: r.string_id,
    name: r.name,
    description: r.description ?? '',
    host: r.host,
    url: r.url ?? `http://${r.host}`,
    date_created: r.date_created ?? 1_700_000_000,
    deactivated: r.deactivated ?? false,
    email_address_visibility: r.email_address_visibility ?? EMAIL_VISIBILITY.admins,
    realm_empty_topic_display_name: r.realm_empty_topic_display_name ?? 'general chat',
    enable_spectator_access: r.enable_spectator_access ?? true,
    allow_unauthenticated_user_list: r.allow_unauthenticated_user_list ?? false,
    jwt_key: r.jwt_key ?? null,
    password_auth_enabled: r.password_auth_enabled ?? true,
    // A fixed UUID per realm id, so a seed realm's answers are the same on every run.
    uuid: r.uuid ?? `00000000-0000-4000-8000-${String(r.id ?? 2).padStart(12, '0')}`,
    password_min_length: r.password_min_length ?? 0,
    password_min_guesses: r.password_min_guesses ?? 0,
    dev_auth_enabled: r.dev_auth_enabled ?? true,
    push_notifications_enabled: r.push_notifications_enabled ?? false,
    bot_storage_size_limit: r.bot_storage_size_limit ?? 10_000_000,
    videocall_provider_configured: r.videocall_provider_configured ?? true,
    domains: (r.domains ?? []).map((d, i) => ({ id: i + 1, domain: d.domain.toLowerCase(), allow_subdomains: d.allow_subdomains ?? false })),
    send_channel_events_messages: r.send_channel_events_messages ?? true,
    message_retention_days: r.message_retention_days ?? null,
    new_stream_announcements_stream_id: null,
    email_gateway_pattern: r.email_gateway_pattern ?? `%s@${r.host}`,
    max_stream_name_length: r.max_stream_name_length ?? 60,
    max_stream_description_length: r.max_stream_description_length ?? 1024,
    max_topic_length: r.max_topic_length ?? 60,
    max_message_length: r.max_message_length ?? 10000,
    max_file_upload_size_mib: r.max_file_upload_size_mib ?? 25,
    linkifiers: (r.linkifiers ?? []).map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template })),
    playgrounds: [],
    exports: [],
    user_settings_defaults: {},
    emoji: new Map(),
    custom_profile_fields: [],
    default_stream_ids: new Set(),
    system_groups: {},
    waiting_period_threshold: r.waiting_period_threshold ?? 0,
    allow_message_editing: r.allow_message_editing ?? true,
    message_content_edit_limit_seconds: timeLimit(r.message_content_edit_limit_seconds, 600),
    message_content_delete_limit_seconds: timeLimit(r.message_content_delete_limit_seconds, 600),
    move_messages_within_stream_limit_seconds: timeLimit(r.move_messages_within_stream_limit_seconds, 604_800),
    move_messages_between_streams_limit_seconds: timeLimit(r.move_messages_between_streams_limit_seconds, 604_800),
    message_edit_history_visibility_policy: r.message_edit_history_visibility_policy ?? 'all',
    topics_policy: 'allow_empty_topic',
    // Zulip's defaults for a new organization (zerver/models/realms.py).
    avatar_changes_disabled: false,
    default_code_block_language: '',
    default_language: 'en',
    digest_emails_enabled: false,
    digest_weekday: 1,
    disallow_disposable_email_addresses: true,
    email_changes_disabled: r.email_changes_disabled ?? false,
    emails_restricted_to_domains: false,
    enable_guest_user_dm_warning: true,
    enable_guest_user_indicator: true,
    enable_read_receipts: r.enable_read_receipts ?? false,
    gif_rating_policy: 2,
    inline_image_preview: true,
    inline_url_embed_preview: false,
    invite_required: true,
    jitsi_server_url: null,
    message_content_allowed_in_email_notifications: true,
    name_changes_disabled: r.name_changes_disabled ?? false,
    require_e2ee_push_notifications: false,
    require_unique_names: r.require_unique_names ?? false,
    embedded_bots_enabled: r.embedded_bots_enabled ?? false,
    send_welcome_emails: true,
    video_chat_provider: 1,
    want_advertise_in_communities_directory: false,
    welcome_message_custom_text: '',
    org_type: 0,
    signup_announcements_stream_id: null,
    zulip_update_announcements_stream_id: null,
    moderation_request_channel_id: null,
    // Group settings are resolved once the system groups exist (setRealmGroupDefaults).
    ...(Object.fromEntries(REALM_GROUP_SETTINGS.map((key) => [key, 0])) as RealmGroupSettings),
  };
}

/** A fixture time limit: absent means Zulip's default, null means unlimited. */
function timeLimit(value: number | null | undefined, fallback: number): number | null {
  return value === undefined ? fallback : value;
}

/**
 * Default group settings of a new channel (Zulip's Stream.stream_permission_group_settings):
 * can_administer_channel_group is "channel_creator" — an anonymous group of just the creator, or
 * role:nobody when there is no recorded creator (realm administrators administer every channel
 * anyway); the deletion and moving settings default to role:nobody (the realm-wide settings
 * still apply on top of them).
 */
export function defaultChannelGroups(state: State, creatorId: number | null): Record<ChannelGroupSetting, GroupSettingValue> {
  const g = state.realm.system_groups;
  const admins = g['role:administrators']!;
  const everyone = g['role:everyone']!;
  const nobody = g['role:nobody']!;
  const out = {} as Record<ChannelGroupSetting, GroupSettingValue>;
  for (const key of CHANNEL_GROUP_SETTINGS) out[key] = nobody;
  out.can_administer_channel_group = creatorId === null ? nobody : { direct_members: [creatorId], direct_subgroups: [] };
  out.can_remove_subscribers_group = admins;
  out.can_send_message_group = everyone;
  out.can_create_topic_group = everyone;
  return out;
}

/**
 * The realm's group settings (Realm.REALM_PERMISSION_GROUP_SETTINGS), once the system groups
 * exist: the fixture's system group where it names one, else Zulip's default.
 */
function setRealmGroupDefaults(state: State, fixture: Fixture): void {
  const g = state.realm.system_groups;
  const named = fixture.realm as Partial<Record<RealmGroupSetting, string>>;
  for (const key of REALM_GROUP_SETTINGS) state.realm[key] = g[named[key] ?? REALM_GROUP_SETTING_RULES[key].default]!;
}

export function newSubscription(color: string): SubscriptionRecord {
  return {
    active: true,
    color,
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
  };
}

/** The next color for a user's new subscription: the first not yet used by them, else cycle. */
export function pickColor(state: State, userId: number): string {
  const used = new Set<string>();
  let count = 0;
  for (const subs of state.subscriptions.values()) {
    const sub = subs.get(userId);
    if (sub) {
      used.add(sub.color);
      count++;
    }
  }
  return STREAM_COLORS.find((c) => !used.has(c)) ?? STREAM_COLORS[count % STREAM_COLORS.length]!;
}

export function emailToken(deps: Deps): string {
  return deps.random.string(32, '0123456789abcdef');
}

/** Build the state a validated fixture describes (messages excepted: see seedMessages). */
/** State from a valid fixture (validateFixture says which are). */
export function loadFixture(fixture: Fixture, deps: Deps): State {
  const state = emptyState(buildRealm(fixture));
  for (const l of state.realm.linkifiers) reserveId(state, 'linkifier', l.id);
  for (const d of state.realm.domains) reserveId(state, 'realm_domain', d.id);
  const realm = state.realm;
  const created = fixture.realm.date_created ?? 1_700_000_000;
  createSystemGroups(state);
  setRealmGroupDefaults(state, fixture);

  for (const f of fixture.custom_profile_fields ?? []) {
    realm.custom_profile_fields.push({
      id: f.id,
      name: f.name,
      hint: f.hint ?? '',
      type: f.type,
      field_data: f.field_data ?? '',
      order: realm.custom_profile_fields.length + 1,
      display_in_profile_summary: f.display_in_profile_summary ?? false,
      required: f.required ?? false,
      editable_by_user: f.editable_by_user ?? true,
    });
    reserveId(state, 'custom_profile_field', f.id);
  }

  const emailToId = new Map(fixture.users.map((u) => [u.email.toLowerCase(), u.id]));
  const idOf = (email: string): number => emailToId.get(email.toLowerCase())!;
  const users = [...fixture.users].sort((a, b) => a.id - b.id);
  for (const u of users) {
    const isBot = u.is_bot ?? false;
    const visibility = isBot ? EMAIL_VISIBILITY.everyone : (u.email_address_visibility ?? realm.email_address_visibility);
    const record: UserRecord = {
      id: u.id,
      email: visibility === EMAIL_VISIBILITY.everyone ? u.email : `user${u.id}@${realm.host}`,
      delivery_email: u.email,
      full_name: u.full_name,
      role: ROLE_BY_NAME[u.role],
      is_bot: isBot,
      bot_type: isBot ? (u.bot_type ?? 1) : null,
      bot_owner_id: u.bot_owner ? idOf(u.bot_owner) : null,
      is_system_bot: u.is_system_bot ?? false,
      is_active: u.is_active ?? true,
      is_imported_stub: false,
      is_deleted: false,
      // Keys are drawn in id order so the same seed always yields the same keys.
      api_key: randomApiKey(deps.random),
      password: u.password ?? null,
      timezone: u.timezone ?? '',
      date_joined: u.date_joined ?? created,
      avatar_source: u.avatar_source ?? 'G',
      avatar_version: 1,
      email_address_visibility: visibility,
      profile_data: new Map(Object.entries(u.profile_data ?? {}).map(([k, v]) => [Number(k), v ?? ''])),
      profile_data_rendered: new Map(),
      recipient_id: nextId(state, 'recipient'),
      presence_enabled: u.presence_enabled ?? true,
      videocall_token: u.videocall_token ?? null,
      enable_drafts_synchronization: u.enable_drafts_synchronization ?? true,
      can_create_users: u.can_create_users ?? false,
      default_sending_stream_id: null,
      default_events_register_stream_id: null,
      default_all_public_streams: false,
      bot_services: [],
      bot_config: {},
      settings: {},
    };
    addUserToIndexes(state, record);
    reserveId(state, 'user', u.id);
  }
  // One reading of the clock for both: the default clock steps on each reading.
  const moment = deps.clock.now();
  syncSystemGroups(state, moment);
  loadPresences(state, users, moment);

  loadUserGroups(state, fixture, idOf, created);

  for (const e of fixture.realm_emoji ?? []) {
    realm.emoji.set(e.id, {
      id: e.id,
      name: e.name,
      source_url: e.source_url,
      deactivated: e.deactivated ?? false,
      author_id: e.author ? idOf(e.author) : null,
    });
    reserveId(state, 'realm_emoji', Number(e.id));
  }

  state.pushService.failure = fixture.push_service?.failure ?? null;

  // Before the messages are seeded, so that messages linking them claim them.
  for (const u of fixture.uploads ?? []) {
    const bytes = u.content_encoding === 'base64' ? Uint8Array.from(atob(u.content), (ch) => ch.charCodeAt(0)) : new TextEncoder().encode(u.content);
    const name = u.name ?? u.path_id.split('/').pop()!;
    const id = nextId(state, 'attachment');
    state.attachments.set(id, {
      id,
      ownerId: idOf(u.owner),
      name,
      pathId: u.path_id,
      size: bytes.length,
      contentType: storedContentType(name, u.content_type ?? '', bytes),
      createTime: u.create_time ?? created,
      bytes,
      messageIds: [],
    });
    state.attachmentsByPath.set(u.path_id, id);
  }

  (fixture.channel_folders ?? []).forEach((f, index) => {
    const description = f.description ?? '';
    state.channelFolders.set(f.id, {
      id: f.id,
      name: f.name,
      description,
      renderedDescription: renderDescription(state, description),
      order: index,
      dateCreated: f.date_created ?? created,
      creatorId: f.creator ? idOf(f.creator) : null,
      isArchived: f.is_archived ?? false,
    });
    reserveId(state, 'channel_folder', f.id);
  });

  const streams = [...fixture.streams].sort((a, b) => a.id - b.id);
  for (const s of streams) {
    const creatorId = s.creator ? idOf(s.creator) : null;
    const description = (s.description ?? '').replace(/\r?\n/g, ' ');
    const stream: StreamRecord = {
      id: s.id,
      name: s.name.trim(),
      description,
      rendered_description: renderDescription(state, description),
      date_created: s.date_created ?? created,
      creator_id: creatorId,
      invite_only: s.invite_only ?? false,
      is_web_public: s.is_web_public ?? false,
      history_public_to_subscribers: s.history_public_to_subscribers ?? !(s.invite_only ?? false),
      is_archived: s.is_archived ?? false,
      message_retention_days: s.message_retention_days ?? null,
      topics_policy: s.topics_policy ?? 'inherit',
      folder_id: s.folder_id ?? null,
      email_token: emailToken(deps),
      recipient_id: nextId(state, 'recipient'),
      groups: defaultChannelGroups(state, creatorId),
    };
    addStreamToIndexes(state, stream);
    reserveId(state, 'stream', s.id);
    const subs = new Map<number, SubscriptionRecord>();
    state.subscriptions.set(stream.id, subs);
  }
  // Subscriptions in channel-id order, then subscriber order, so colors are stable.
  for (const s of streams) {
    const subs = state.subscriptions.get(s.id)!;
    for (const email of s.subscribers ?? []) {
      const userId = idOf(email);
      subs.set(userId, newSubscription(pickColor(state, userId)));
    }
  }
  const announce = fixture.realm.new_stream_announcements_stream;
  if (announce) realm.new_stream_announcements_stream_id = state.streamsByName.get(announce.toLowerCase()) ?? null;
  for (const name of fixture.realm.default_streams ?? []) {
    const id = state.streamsByName.get(name.toLowerCase());
    if (id !== undefined) realm.default_stream_ids.add(id);
  }
  // Last, so the fixture's own ids stay as given: only what comes next continues above the mark.
  for (const [kind, last] of Object.entries(fixture.id_sequences ?? {})) reserveId(state, kind, last);
  return state;
}

/**
 * Fixture groups in listed order. Without a creator, the settings that default to "the group's
 * creator" fall back to role:nobody (owners still manage every group by default).
 */
function loadUserGroups(state: State, fixture: Fixture, idOf: (email: string) => number, created: number): void {
  const byName = (name: string): number => [...state.userGroups.values()].find((g) => g.name === name)!.id;
  const setting = (value: FixtureGroupSetting): GroupSettingValue =>
    typeof value === 'string'
      ? byName(value)
      : {
          direct_members: (value.direct_members ?? []).map(idOf).sort((a, b) => a - b),
          direct_subgroups: (value.direct_subgroups ?? []).map(byName).sort((a, b) => a - b),
        };
  const g = state.realm.system_groups;
  for (const f of fixture.user_groups ?? []) {
    const creatorId = f.creator ? idOf(f.creator) : null;
    const creatorGroup: GroupSettingValue = creatorId === null ? g['role:nobody']! : { direct_members: [creatorId], direct_subgroups: [] };
    const defaults: Record<UserGroupSetting, GroupSettingValue> = {
      can_add_members_group: creatorGroup,
      can_join_group: g['role:nobody']!,
      can_leave_group: g['role:everyone']!,
      can_manage_group: creatorGroup,
      can_mention_group: g['role:everyone']!,
      can_remove_members_group: g['role:nobody']!,
    };
    const settings = { ...defaults };
    for (const key of USER_GROUP_SETTINGS) {
      const value = f[key];
      if (value !== undefined) settings[key] = setting(value);
    }
    const id = f.id ?? nextId(state, 'user_group');
    reserveId(state, 'user_group', id);
    state.userGroups.set(id, {
      id,
      name: f.name,
      description: f.description ?? '',
      is_system_group: false,
      members: new Set((f.members ?? []).map(idOf)),
      subgroups: new Set((f.subgroups ?? []).map(byName)),
      deactivated: f.deactivated ?? false,
      creator_id: creatorId,
      date_created: f.date_created ?? created,
      settings,
    });
  }
}

/**
 * Each user's presence report at the fixture's moment, stored as do_update_user_presence stores a
 * first report (zerver/actions/presence.py): both times for `active`, the connection only for
 * `idle`. No event: nobody has a queue yet.
 */
function loadPresences(state: State, users: readonly FixtureUser[], moment: number): void {
  for (const u of users) {
    if (!u.presence) continue;
    const at = moment - (u.presence.seconds_ago ?? 0);
    state.presences.set(u.id, { lastActiveTime: u.presence.status === 'active' ? at : null, lastConnectedTime: at, lastUpdateId: nextId(state, 'presence_update') });
  }
}

export function addUserToIndexes(state: State, user: UserRecord): void {
  state.users.set(user.id, user);
  indexEmail(state, user.delivery_email, user.id);
  indexEmail(state, user.email, user.id);
  state.usersByApiKey.set(user.api_key, user.id);
}



export function addStreamToIndexes(state: State, stream: StreamRecord): void {
  state.streams.set(stream.id, stream);
  state.streamsByName.set(stream.name.toLowerCase(), stream.id);
}
