/**
 * User administration (zerver/views/users.py): creating accounts (POST /users), changing another
 * user's name, role and profile data (PATCH /users/{id}), reactivating an account, and the pieces
 * the bot endpoints share with them: the full-name rules, a new account's record and its
 * `realm_user` `add` events, role and name changes with their events.
 */
import {
  activeUserIds,
  canAccessStreamMetadata,
  canSeeDeliveryEmail,
  getStreamById,
  isAdmin,
  isOwner,
  isSystemBotEmail,
  nowSeconds,
  subscribersOf,
  userIdsWhoCanAccessUser,
  type Engine,
} from '../core.ts';
import { botOwnerChangeEvents, botOwnerUserIds, checkCanCreateBot } from '../bots/rules.ts';
import { formatStream } from '../channels/channels.ts';
import { updateProfileData, type ProfileDataChange } from './profile-fields.ts';
import { randomApiKey } from '../deps.ts';
import { isStrongEnough } from './passwords.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { addUserToIndexes } from '../fixture.ts';
import { subscribeNewUser } from '../channels/subscriptions.ts';
import { forgetPromotionHint, joinSystemGroups, moveBetweenSystemGroups } from '../groups/system-groups.ts';
import { codePointLength } from '../text.ts';
import { formatUser } from './users.ts';
import {
  EMAIL_VISIBILITY,
  REALM_GROUP_SETTINGS,
  ROLE,
  USER_GROUP_SETTINGS,
  nextId,
  type GroupSettingValue,
  type Role,
  type StreamRecord,
  type UserRecord,
} from '../state.ts';
import { groupSettingForApi } from '../groups/groups.ts';

/** UserProfile.MAX_NAME_LENGTH, in code points. */
export const MAX_NAME_LENGTH = 100;
/** UserProfile.NAME_INVALID_CHARS: characters that would break mention syntax. */
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];
/** RegistrationForm.MAX_PASSWORD_LENGTH. */
export const PASSWORD_MAX_LENGTH = 100;

export const ROLES: readonly Role[] = [ROLE.owner, ROLE.administrator, ROLE.moderator, ROLE.member, ROLE.guest];

/**
 * check_full_name: trimmed; at most 100 code points; not empty; no control characters nor
 * mention-breaking ones; not ending in `|digits` (checked on the raw value, as upstream); unique in
 * the realm (NFKC, case-folded) when the realm requires it, `self` excepted.
 */
export function checkFullName(engine: Engine, raw: string, self: UserRecord | null): string {
  const name = raw.trim();
  if (codePointLength(name) > MAX_NAME_LENGTH) throw ChatError.badRequest('Name too long!');
  if (name.length === 0) throw ChatError.badRequest('Name must not be empty!');
  // check_string_is_printable refuses Unicode categories Cc and Cs.
  if (/[\p{Cc}\p{Cs}]/u.test(name) || NAME_INVALID_CHARS.some((c) => name.includes(c))) {
    throw ChatError.badRequest('Invalid characters in name!');
  }
  if (/\|\d+$/.test(raw)) throw ChatError.badRequest('Invalid format!');
  if (engine.state.realm.require_unique_names) {
    const fold = (text: string) => text.normalize('NFKC').toLowerCase();
    const wanted = fold(name);
    for (const u of engine.state.users.values()) {
      if (u.is_system_bot || u.id === self?.id) continue;
      if (fold(u.full_name) === wanted) throw ChatError.badRequest('Unique names required in this organization.');
    }
  }
  return name;
}

export { isValidEmail, userByDeliveryEmail } from './emails.ts';
import { isValidEmail, userByDeliveryEmail } from './emails.ts';

export interface NewAccount {
  email: string;
  fullName: string;
  password: string | null;
  role: Role;
  /** Bots only. */
  bot?: { type: number; ownerId: number; defaultSendingStreamId: number | null; defaultEventsRegisterStreamId: number | null; defaultAllPublicStreams: boolean };
}

/**
 * create_user: a new account with Zulip's new-user defaults (the realm's email visibility for
 * humans, "everyone" for bots; gravatar; no timezone), indexed, with an API key from the seeded
 * random source. No events: see notifyCreatedUser.
 */
export function addAccount(engine: Engine, account: NewAccount): UserRecord {
  const state = engine.state;
  const id = nextId(state, 'user');
  const bot = account.bot;
  // copy_default_settings: the realm's RealmUserDefault changes.
  const { presence_enabled: presence, enable_drafts_synchronization: drafts, ...startWith } = state.realm.user_settings_defaults;
  const visibility = bot ? EMAIL_VISIBILITY.everyone : state.realm.email_address_visibility;
  const user: UserRecord = {
    id,
    email: visibility === EMAIL_VISIBILITY.everyone ? account.email : `user${id}@${state.realm.host}`,
    delivery_email: account.email,
    full_name: account.fullName,
    role: account.role,
    is_bot: bot !== undefined,
    bot_type: bot?.type ?? null,
    bot_owner_id: bot?.ownerId ?? null,
    is_system_bot: false,
    is_active: true,
    is_imported_stub: false,
    is_deleted: false,
    api_key: randomApiKey(engine.deps.random),
    password: account.password,
    timezone: '',
    date_joined: nowSeconds(engine),
    avatar_source: 'G',
    avatar_version: 1,
    email_address_visibility: visibility,
    profile_data: new Map(),
    profile_data_rendered: new Map(),
    recipient_id: nextId(state, 'recipient'),
    videocall_token: null,
    presence_enabled: (presence ?? true) as boolean,
    enable_drafts_synchronization: (drafts ?? true) as boolean,
    can_create_users: false,
    default_sending_stream_id: bot?.defaultSendingStreamId ?? null,
    default_events_register_stream_id: bot?.defaultEventsRegisterStreamId ?? null,
    default_all_public_streams: bot?.defaultAllPublicStreams ?? false,
    bot_services: [],
    bot_config: {},
    settings: { ...startWith },
  };
  addUserToIndexes(state, user);
  return user;
}

/**
 * notify_created_user and the system-group part of do_create_user: `realm_user` `add` with the
 * full user (avatar as a URL, no profile data yet) to every active user, in two copies split by
 * who may see the real address; then `add_members` for the role's group (and full members).
 */
export function notifyCreatedUser(engine: Engine, user: UserRecord): Effect[] {
  const seeing: number[] = [];
  const notSeeing: number[] = [];
  for (const id of activeUserIds(engine)) {
    (canSeeDeliveryEmail(engine, engine.state.users.get(id), user) ? seeing : notSeeing).push(id);
  }
  const person = (viewerId: number) =>
    formatUser(engine, engine.state.users.get(viewerId), user, { clientGravatar: false, includeCustomProfileFields: true });
  const events: Effect[] = [];
  if (seeing.length > 0) events.push(effect({ type: 'realm_user', op: 'add', person: person(seeing[0]!) }, seeing));
  if (notSeeing.length > 0) events.push(effect({ type: 'realm_user', op: 'add', person: person(notSeeing[0]!) }, notSeeing));
  events.push(...joinSystemGroups(engine, user, nowSeconds(engine)));
  return events;
}

// ---------------------------------------------------------------- POST /users

export interface CreateUserParams {
  email: string;
  password: string;
  fullName: string;
}

/**
 * POST /users (administrators, checked by the route): the caller's can_create_users, the name,
 * the address (valid, unused), the password; then a member account subscribed to the realm's
 * default channels.
 */
export function createUser(engine: Engine, actor: UserRecord, p: CreateUserParams): Outcome<{ user_id: number }> {
  if (!actor.can_create_users) throw ChatError.badRequest('User not authorized to create users');
  const fullName = checkFullName(engine, p.fullName, null);
  const email = p.email.trim();
  if (!isValidEmail(email)) throw ChatError.badRequest('Bad name or username');
  // get_existing_user_errors, verbose: the system bots live in another realm, but their addresses stay theirs.
  if (isSystemBotEmail(engine, email)) throw ChatError.badRequest(`${email} is reserved for system bots`);
  if (userByDeliveryEmail(engine, email)) throw ChatError.badRequest(`Email '${p.email}' already in use`);
  if (!isStrongEnough(engine.state.realm, p.password) || p.password.length > PASSWORD_MAX_LENGTH) {
    throw ChatError.badRequest('The password is too weak.');
  }

  const user = addAccount(engine, { email, fullName, password: p.password, role: ROLE.member });
  const events = notifyCreatedUser(engine, user);
  const defaults = [...engine.state.realm.default_stream_ids]
    .map((id) => getStreamById(engine, id))
    .filter((s): s is StreamRecord => s !== undefined && !s.is_archived);
  events.push(...subscribeNewUser(engine, user, defaults));
  return outcome({ user_id: user.id }, events);
}

// ---------------------------------------------------------------- role and name changes

/** Channels whose metadata `user` may see (get_streams_for_user with include_all), ascending id. */
function visibleChannels(engine: Engine, user: UserRecord): Set<number> {
  const out = new Set<number>();
  for (const stream of engine.state.streams.values()) {
    if (!stream.is_archived && canAccessStreamMetadata(engine, user, stream)) out.add(stream.id);
  }
  return out;
}

/**
 * do_change_user_role: `realm_user` `update` `{role}` to everyone who can see the user, the
 * system-group moves, and the channels the user gains (`stream` `create` plus each one's
 * subscribers) or loses (`stream` `delete`) with the new role.
 */
export function changeUserRole(engine: Engine, user: UserRecord, role: Role): Effect[] {
  const oldRole = user.role;
  if (oldRole === role) return [];
  const before = visibleChannels(engine, user);
  user.role = role;
  const events: Effect[] = [
    effect({ type: 'realm_user', op: 'update', person: { user_id: user.id, role } }, userIdsWhoCanAccessUser(engine, user)),
    ...moveBetweenSystemGroups(engine, user, oldRole, nowSeconds(engine)),
  ];
  if (!user.is_active) return events;
  const after = visibleChannels(engine, user);
  const gained = [...after].filter((id) => !before.has(id)).sort((a, b) => a - b);
  const lost = [...before].filter((id) => !after.has(id)).sort((a, b) => a - b);
  if (gained.length > 0) {
    events.push(effect({ type: 'stream', op: 'create', streams: gained.map((id) => formatStream(engine, getStreamById(engine, id)!)) }, [user.id]));
    for (const id of gained) {
      const subscribers = subscribersOf(engine, id);
      if (subscribers.length > 0) events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [id], user_ids: subscribers }, [user.id]));
    }
  }
  if (lost.length > 0) {
    events.push(effect({ type: 'stream', op: 'delete', streams: lost.map((id) => ({ stream_id: id })), stream_ids: lost }, [user.id]));
  }
  return events;
}

/** do_change_full_name: to everyone who can see the user; a bot's owner and administrators also get `realm_bot`. */
export function changeFullName(engine: Engine, user: UserRecord, fullName: string): Effect[] {
  if (user.full_name === fullName) return [];
  user.full_name = fullName;
  const person = { user_id: user.id, full_name: fullName };
  const events = [effect({ type: 'realm_user', op: 'update', person }, userIdsWhoCanAccessUser(engine, user))];
  if (user.is_bot) events.push(effect({ type: 'realm_bot', op: 'update', bot: person }, botOwnerUserIds(engine, user)));
  return events;
}

/** Owners and administrators may change roles; granting or removing owner takes an owner. */
export function checkRoleChange(engine: Engine, actor: UserRecord, target: UserRecord, role: Role): void {
  if (role === target.role) return;
  if ((role === ROLE.owner || target.role === ROLE.owner) && !isOwner(actor)) throw ChatError.ownerRequired();
  if (!isAdmin(actor)) throw ChatError.adminRequired();
}

/** check_last_owner: the realm's only active human owner. */
export function isLastOwner(engine: Engine, user: UserRecord): boolean {
  if (!isOwner(user) || user.is_bot) return false;
  return ![...engine.state.users.values()].some((u) => u.id !== user.id && u.is_active && !u.is_bot && isOwner(u));
}

// ---------------------------------------------------------------- PATCH /users/{user_id}

export interface UpdateUserParams {
  userId: number;
  fullName?: string | undefined;
  role?: Role | undefined;
  profileData?: ProfileDataChange[] | undefined;
}

/**
 * PATCH /users/{user_id} (update_user_backend): the target (deactivated users and bots too) must
 * be one the actor administers; then role, full name and profile data, in that order. Every
 * check runs before anything changes (Zulip applies the role before checking the name).
 */
export function updateUser(engine: Engine, actor: UserRecord, p: UpdateUserParams): Outcome<Record<string, never>> {
  const target = engine.state.users.get(p.userId);
  if (!target || target.is_system_bot) throw ChatError.badRequest('No such user');
  if (!(isAdmin(actor) || (target.is_bot && target.bot_owner_id === actor.id))) throw ChatError.insufficientPermission();
  const roleChanges = p.role !== undefined && p.role !== target.role;
  if (roleChanges) {
    checkRoleChange(engine, actor, target, p.role!);
    if (isOwner(target) && isLastOwner(engine, target)) {
      throw ChatError.badRequest('The owner permission cannot be removed from the only organization owner.');
    }
  }
  // An empty name (or the current one) is ignored; name_changes_disabled does not bind administrators.
  const renames = p.fullName !== undefined && p.fullName !== target.full_name && p.fullName.trim() !== '';
  const fullName = renames ? checkFullName(engine, p.fullName!, target) : undefined;
  // Empty values ("" or []) remove, as null does.
  const profileChanges = p.profileData?.map((c) => ({ id: c.id, value: c.value === '' || (Array.isArray(c.value) && c.value.length === 0) ? null : c.value }));
  const profile = profileChanges ? updateProfileData(engine, actor, target, profileChanges) : outcome({});

  const events: Effect[] = [];
  if (roleChanges) events.push(...changeUserRole(engine, target, p.role!));
  if (fullName !== undefined) events.push(...changeFullName(engine, target, fullName));
  events.push(...profile.events);
  return outcome({}, events);
}

// ---------------------------------------------------------------- reactivation

/**
 * POST /users/{user_id}/reactivate (administrators, or a bot's owner for the bot): a bot is held
 * to the bot-creation rules and to its name being free among active accounts; a bot whose owner
 * was deactivated passes to the actor. `realm_user` `update` `{is_active: true}` to everyone, the
 * bot's `realm_bot` update, and peer_add for the channels the account is still subscribed to.
 */
export function reactivateUser(engine: Engine, actor: UserRecord, userId: number): Outcome<Record<string, never>> {
  const target = engine.state.users.get(userId);
  if (!target || target.is_system_bot) throw ChatError.badRequest('No such user');
  if (!(isAdmin(actor) || (target.is_bot && target.bot_owner_id === actor.id))) throw ChatError.insufficientPermission();
  if (target.is_bot) {
    checkCanCreateBot(engine, actor, target.bot_type ?? 1);
    const name = target.full_name.trim();
    const taken = [...engine.state.users.values()].some((u) => u.is_active && u.id !== target.id && !u.is_system_bot && u.full_name === name);
    if (taken) {
      throw ChatError.badRequest(
        `There is already an active bot named "${target.full_name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
      );
    }
  }

  target.is_active = true;
  // A member who left before the waiting period ended may now be due to become a full member.
  forgetPromotionHint(engine);
  const events: Effect[] = [effect({ type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: true } }, activeUserIds(engine))];
  if (target.is_bot) {
    const owner = target.bot_owner_id === null ? undefined : engine.state.users.get(target.bot_owner_id);
    const ownerChanged = owner !== undefined && !owner.is_active;
    if (ownerChanged) target.bot_owner_id = actor.id;
    events.push(effect({ type: 'realm_bot', op: 'update', bot: { user_id: target.id, is_active: true } }, botOwnerUserIds(engine, target)));
    if (ownerChanged) events.push(...botOwnerChangeEvents(engine, target, actor, owner));
  }
  for (const [streamId, subs] of engine.state.subscriptions) {
    const stream = engine.state.streams.get(streamId)!;
    if (!subs.get(target.id)?.active || stream.is_archived) continue;
    const peers = activeUserIds(engine).filter((id) => id !== target.id && canAccessStreamMetadata(engine, engine.state.users.get(id), stream));
    if (peers.length > 0) events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [target.id] }, peers));
  }
  events.push(...groupEventsForReactivation(engine, target));
  return outcome({}, events);
}

/**
 * A deactivated account drops out of every group's member list as clients and /register show
 * it; reactivated, it is back, which Zulip's do_reactivate_user announces to the realm: an
 * add_members per group the account belongs to directly, and the new value of every anonymous
 * group setting (the realm's, a named group's) that names it.
 */
function groupEventsForReactivation(engine: Engine, target: UserRecord): Effect[] {
  const realmUsers = activeUserIds(engine);
  const names = (value: GroupSettingValue): boolean => typeof value !== 'number' && value.direct_members.includes(target.id);
  const events: Effect[] = [];
  const groups = [...engine.state.userGroups.values()].sort((a, b) => a.id - b.id);
  for (const group of groups) {
    if (group.members.has(target.id)) events.push(effect({ type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [target.id] }, realmUsers));
  }
  for (const setting of REALM_GROUP_SETTINGS) {
    const value = engine.state.realm[setting];
    if (names(value)) {
      events.push(effect({ type: 'realm', op: 'update_dict', property: 'default', data: { [setting]: groupSettingForApi(engine, value) } }, realmUsers));
    }
  }
  for (const group of groups) {
    for (const setting of USER_GROUP_SETTINGS) {
      const value = group.settings[setting];
      if (names(value)) {
        events.push(effect({ type: 'user_group', op: 'update', group_id: group.id, data: { [setting]: groupSettingForApi(engine, value) } }, realmUsers));
      }
    }
  }
  return events;
}
