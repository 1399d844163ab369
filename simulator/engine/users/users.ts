/**
 * Users: the User object as each viewer sees it (zerver/views/users.py, zerver/lib/users.py) and deactivation (zerver/views/users.py:deactivate_user_backend, zerver/actions/users.py:do_deactivate_user).
 */
import {
  activeUserIds,
  avatarUrl,
  canSeeDeliveryEmail,
  getRealmUserByDeliveryEmail,
  isAdmin,
  isOwner,
  nowSeconds,
  userIdsWhoCanAccessUser,
  type Engine,
} from '../core.ts';
import { botDict, botOwnerUserIds } from '../bots/rules.ts';
import { RENDERED_FIELD_TYPES, renderProfileValue } from './profile-fields.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import { expireInvitesBy } from './invites.ts';
import { deleteMessagesBySender } from '../messages/delete.ts';
import { creationRights } from '../realm/register-state.ts';
import { peerAudience } from '../channels/settings.ts';
import { ROLE, type UserRecord } from '../state.ts';
import type { User } from '../../../schemas/generated/types/chat/user.ts';

export interface FormatUserOptions {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

/** Unix seconds of 10000-01-01T00:00Z: years from then on are written with six digits and a sign. */
const YEAR_10000 = 253_402_300_800;

/**
 * `2019-10-20T07:50+00:00`: ISO 8601, minute precision, UTC (Zulip 9.0+). Computed with integer
 * arithmetic (Hinnant's civil_from_days) where a Date and its ISO string cost about ten times as
 * much; a property test holds it to the Date's text for every time a Date can hold.
 */
export function isoMinute(unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  if (!(t >= 0 && t < YEAR_10000)) return `${new Date(t * 1000).toISOString().slice(0, 16)}+00:00`;
  const days = Math.floor(t / 86_400);
  const seconds = t - days * 86_400;
  // Days since 0000-03-01, counted in 400-year eras of 146,097 days.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(Math.floor(seconds / 3600))}:${two(Math.floor((seconds % 3600) / 60))}+00:00`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** Render and store a user's Markdown-capable profile values (done when values are saved). */
export function renderProfileData(engine: Engine, user: UserRecord): void {
  user.profile_data_rendered.clear();
  for (const field of engine.state.realm.custom_profile_fields) {
    const value = user.profile_data.get(field.id);
    if (value !== undefined && RENDERED_FIELD_TYPES.has(field.type)) {
      user.profile_data_rendered.set(field.id, renderProfileValue(engine, value));
    }
  }
}

export function profileDataOf(engine: Engine, user: UserRecord): Record<string, { value: string; rendered_value?: string }> {
  const out: Record<string, { value: string; rendered_value?: string }> = {};
  for (const field of engine.state.realm.custom_profile_fields) {
    const value = user.profile_data.get(field.id);
    if (value === undefined) continue;
    const rendered = user.profile_data_rendered.get(field.id);
    out[String(field.id)] = rendered === undefined ? { value } : { value, rendered_value: rendered };
  }
  return out;
}

/** The User object (format_user_row) of `user` as `viewer` (undefined: a spectator) sees it. */
export function formatUser(
  engine: Engine,
  viewer: UserRecord | undefined,
  user: UserRecord,
  options: FormatUserOptions,
): User {
  const out: User = {
    user_id: user.id,
    email: user.email,
    delivery_email: canSeeDeliveryEmail(engine, viewer, user) ? user.delivery_email : null,
    full_name: user.full_name,
    // Spectators get the date only.
    date_joined: viewer ? isoMinute(user.date_joined) : isoMinute(user.date_joined).slice(0, 10),
    is_active: user.is_active,
    is_owner: user.role === ROLE.owner,
    is_admin: user.role <= ROLE.administrator,
    is_guest: user.role === ROLE.guest,
    is_bot: user.is_bot,
    role: user.role as User['role'],
    timezone: user.timezone,
    avatar_version: user.avatar_version,
    avatar_url: avatarUrl(engine, user, { clientGravatar: options.clientGravatar, viewer }),
    is_imported_stub: user.is_imported_stub,
  };
  if (user.is_bot) {
    out.bot_type = user.bot_type as User['bot_type'];
    out.bot_owner_id = user.is_system_bot ? null : user.bot_owner_id;
    if (user.is_system_bot) out.is_system_bot = true;
  } else if (options.includeCustomProfileFields) {
    out.profile_data = profileDataOf(engine, user);
  }
  if (user.is_deleted) out.is_deleted = true;
  return out;
}

/** Users of the realm a listing shows: active and deactivated, humans and bots, no system bots. */
export function realmUsers(engine: Engine): UserRecord[] {
  return [...engine.state.users.values()].filter((u) => !u.is_system_bot).sort((a, b) => a.id - b.id);
}

export function listUsers(
  engine: Engine,
  viewer: UserRecord | undefined,
  params: FormatUserOptions & { userIds?: number[] | undefined },
): User[] {
  let users = realmUsers(engine);
  if (params.userIds) {
    const wanted = new Set(params.userIds);
    for (const id of wanted) {
      const u = engine.state.users.get(id);
      if (!u || u.is_system_bot) throw ChatError.badRequest(`Invalid user ID: ${id}`);
    }
    users = users.filter((u) => wanted.has(u.id));
  }
  return users.map((u) => formatUser(engine, viewer, u, params));
}

/** avatar_url_medium: the 500-pixel variant of the same avatar. */
export function avatarUrlMedium(engine: Engine, user: UserRecord): string {
  const url = avatarUrl(engine, user, { clientGravatar: false })!;
  return user.avatar_source === 'U' ? url.replace(/\.png\?/, '-medium.png?') : `${url}&s=500`;
}

/**
 * notify_avatar_url_change: the bot's owners hear of its new avatar (realm_bot), and everyone who
 * can see the user gets its source, version and URLs. The URLs are always full ones, whatever a
 * client's client_gravatar: such clients blank a gravatar they can compute themselves.
 */
export function avatarChangeEvents(engine: Engine, user: UserRecord): Effect[] {
  const url = avatarUrl(engine, user, { clientGravatar: false });
  const events: Effect[] = [];
  if (user.is_bot) events.push(effect({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, avatar_url: url } }, botOwnerUserIds(engine, user)));
  const person = { avatar_source: user.avatar_source, avatar_url: url, avatar_url_medium: avatarUrlMedium(engine, user), avatar_version: user.avatar_version, user_id: user.id };
  events.push(effect({ type: 'realm_user', op: 'update', person }, userIdsWhoCanAccessUser(engine, user)));
  return events;
}

export interface RealmUserStateOptions {
  clientGravatar: boolean;
}

/**
 * The `realm_user` fetch type (zerver/lib/events.py:fetch_initial_state_data): active users and bots by ID without
 * `is_active`, the deactivated ones apart, the system bots (by name), and the caller's own keys (avatars
 * always as URLs, as with client_gravatar off).
 */
export function realmUserState(engine: Engine, me: UserRecord, options: RealmUserStateOptions): Record<string, unknown> {
  const active: User[] = [];
  const inactive: User[] = [];
  const format = { clientGravatar: options.clientGravatar, includeCustomProfileFields: true };
  for (const u of realmUsers(engine)) {
    const { is_active: _isActive, ...person } = formatUser(engine, me, u, format);
    (u.is_active ? active : inactive).push(person as User);
  }
  // Zulip's get_cross_realm_dicts: by full name, and is_active kept (only the realm's users lose it).
  const crossRealmBots = [...engine.state.users.values()]
    .filter((u) => u.is_system_bot)
    .sort((a, b) => (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : a.id - b.id))
    .map((u) => formatUser(engine, me, u, { clientGravatar: false, includeCustomProfileFields: false }));
  return {
    realm_users: active,
    realm_non_active_users: inactive,
    cross_realm_bots: crossRealmBots,
    avatar_source: me.avatar_source,
    avatar_url_medium: avatarUrlMedium(engine, me),
    avatar_url: avatarUrl(engine, me, { clientGravatar: false }),
    ...creationRights(engine, me),
    is_admin: isAdmin(me),
    is_owner: isOwner(me),
    is_moderator: me.role <= ROLE.moderator,
    is_guest: me.role === ROLE.guest,
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
  };
}

/** The `realm_bot` fetch type: the bots the user owns; an administrator sees every bot. */
export function realmBotState(engine: Engine, me: UserRecord): Record<string, unknown> {
  const bots = realmUsers(engine)
    .filter((u) => u.is_bot && (isAdmin(me) || u.bot_owner_id === me.id))
    .map((bot) => botDict(engine, bot));
  return { realm_bots: bots };
}

/** GET /users/{user_id}: any realm user, deactivated and bots included; else `No such user`. */
export function accessUserById(engine: Engine, userId: number): UserRecord {
  const user = engine.state.users.get(userId);
  if (!user || user.is_system_bot) throw ChatError.badRequest('No such user');
  return user;
}

/** Zulip's UserProfile.can_admin_user: realm administrators, and a bot's owner for that bot. */
export function canAdminUser(actor: UserRecord, target: UserRecord): boolean {
  return (target.is_bot && target.bot_owner_id === actor.id) || isAdmin(actor);
}

export interface AccessUserOptions {
  /** Bots count as users (otherwise `No such user`). */
  allowBots?: boolean;
  /** Deactivated users count (otherwise `User is deactivated`). */
  allowDeactivated?: boolean;
  /** The actor must be allowed to administer the target (`Insufficient permission`). */
  forAdmin: boolean;
}

/**
 * Zulip's access_user_by_id: the target is looked up and checked first, and only then the actor's
 * right to it. That order is why the administrator requirement of `DELETE /users/{id}` and
 * `POST /users/{id}/status` cannot be a route-level role check: an unknown target answers
 * `No such user` to everyone, and the permission failure is `Insufficient permission`.
 */
export function accessUser(engine: Engine, actor: UserRecord, userId: number, options: AccessUserOptions): UserRecord {
  const target = engine.state.users.get(userId);
  // System bots live in the internal realm: no such user here.
  if (!target || target.is_system_bot) throw ChatError.badRequest('No such user');
  if (target.is_bot && !options.allowBots) throw ChatError.badRequest('No such user');
  if (!target.is_active && !options.allowDeactivated) throw ChatError.badRequest('User is deactivated');
  // Reading a user needs no more than seeing them, and every user of the realm sees every other
  // (the simulator has no can_access_all_users_group restriction).
  if (options.forAdmin && !canAdminUser(actor, target)) throw ChatError.insufficientPermission();
  return target;
}

/** Zulip's access_bot_by_id: any bot of the realm, deactivated ones included, that the actor may administer. */
export function accessBotById(engine: Engine, actor: UserRecord, botId: number): UserRecord {
  const target = engine.state.users.get(botId);
  if (!target || target.is_system_bot || !target.is_bot) throw ChatError.badRequest('No such bot');
  if (!canAdminUser(actor, target)) throw ChatError.insufficientPermission();
  return target;
}

/**
 * GET /users/{email}: the fake `user{id}@host` address, or the real one when the viewer may see it.
 */
export function accessUserByEmail(engine: Engine, viewer: UserRecord, email: string): UserRecord {
  const fake = new RegExp(`^user(\\d+)@${engine.state.realm.host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i').exec(email);
  if (fake) return accessUserById(engine, Number(fake[1]));
  // Otherwise by the real address (delivery_email__iexact=email.strip()), among the users whose
  // visibility lets the viewer see it; a visible user's API email is that same address.
  const key = email.trim().toLowerCase();
  const u = getRealmUserByDeliveryEmail(engine, key);
  if (u && (u.email.toLowerCase() === key || canSeeDeliveryEmail(engine, viewer, u))) {
    return u;
  }
  throw ChatError.badRequest('No such user');
}

// ---------------------------------------------------------------- deactivation

export const DEACTIVATION_ACTIONS = [
  'delete_profile',
  'delete_public_channel_messages',
  'delete_private_channel_messages',
  'delete_direct_messages',
] as const;
export type DeactivationAction = (typeof DEACTIVATION_ACTIONS)[number];

export interface DeactivateParams {
  userId: number;
  actions: Partial<Record<DeactivationAction, boolean>>;
  /** null: no email; '' an email without comment. */
  notificationComment: string | null;
}

export function checkDeactivateUser(engine: Engine, actor: UserRecord, params: DeactivateParams): UserRecord {
  // Bots are deactivated through DELETE /bots/{id}: here they are "no such user".
  const target = accessUser(engine, actor, params.userId, { forAdmin: true });
  if (isOwner(target) && !isOwner(actor)) throw ChatError.ownerRequired();
  if (isOwner(target)) {
    const otherOwners = [...engine.state.users.values()].filter(
      (u) => u.id !== target.id && u.is_active && !u.is_bot && isOwner(u),
    );
    if (otherOwners.length === 0) throw ChatError.badRequest('Cannot deactivate the only organization owner');
  }
  return target;
}

/**
 * DELETE /bots/{bot_id}: a bot's owner or an administrator. A bot that is already deactivated
 * is left as it is, without events (Zulip's do_deactivate_user returns early).
 */
export function deactivateBot(engine: Engine, actor: UserRecord, botId: number): Outcome<DeactivateResult> {
  const bot = accessBotById(engine, actor, botId);
  if (!bot.is_active) return outcome({ deactivatedUserIds: [] });
  return doDeactivateUser(engine, actor, bot, { userId: bot.id, actions: {}, notificationComment: null });
}

/** DELETE /users/me: the last owner or last user answers with Zulip's coded error. */
export function deactivateSelf(engine: Engine, user: UserRecord): Outcome<DeactivateResult> {
  const humans = [...engine.state.users.values()].filter((u) => u.is_active && !u.is_bot && !u.is_system_bot);
  const lastError = (isLastOwner: boolean): ChatError => {
    const entity = isLastOwner ? 'organization owner' : 'user';
    return new ChatError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${entity}.`, {
      extra: { is_last_owner: isLastOwner, entity },
    });
  };
  if (humans.length === 1 && humans[0]!.id === user.id) throw lastError(false);
  if (isOwner(user) && !humans.some((u) => u.id !== user.id && isOwner(u))) throw lastError(true);
  return doDeactivateUser(engine, user, user, { userId: user.id, actions: {}, notificationComment: null });
}

export interface DeactivateResult {
  deactivatedUserIds: number[];
}

export function deactivateUser(engine: Engine, actor: UserRecord, params: DeactivateParams): Outcome<DeactivateResult> {
  const target = checkDeactivateUser(engine, actor, params);
  return doDeactivateUser(engine, actor, target, params);
}

function applyActions(engine: Engine, actor: UserRecord, user: UserRecord, params: DeactivateParams, events: Effect[]): void {
  const a = params.actions;
  if (a.delete_profile) {
    user.full_name = `Deleted User ${user.id}`;
    user.avatar_source = 'G';
    user.avatar_version += 1;
    user.profile_data.clear();
    user.profile_data_rendered.clear();
    const everyone = activeUserIds(engine);
    events.push(effect({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: user.full_name } }, everyone));
    events.push(...avatarChangeEvents(engine, user));
  }
  const kinds = {
    publicChannels: a.delete_public_channel_messages === true,
    privateChannels: a.delete_private_channel_messages === true,
    directMessages: a.delete_direct_messages === true,
  };
  if (kinds.publicChannels || kinds.privateChannels || kinds.directMessages) {
    events.push(...deleteMessagesBySender(engine, user.id, kinds, actor.id));
  }
}

function deactivateOne(engine: Engine, user: UserRecord, events: Effect[]): void {
  user.is_active = false;
  const recipients = activeUserIds(engine);
  events.push(effect({ type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: false } }, recipients));
  if (user.is_bot) {
    const admins = recipients.filter((id) => isAdmin(engine.state.users.get(id)!));
    const owner = user.bot_owner_id !== null ? [user.bot_owner_id] : [];
    events.push(
      effect({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, is_active: false } }, [...admins, ...owner].filter((id) => engine.state.users.get(id)?.is_active)),
    );
  }
  // Subscriptions stay, but a deactivated user drops out of subscriber lists: peers learn it.
  for (const [streamId, subs] of engine.state.subscriptions) {
    const sub = subs.get(user.id);
    if (!sub?.active) continue;
    const stream = engine.state.streams.get(streamId)!;
    events.push(effect({ type: 'subscription', op: 'peer_remove', stream_ids: [streamId], user_ids: [user.id] }, peerAudience(engine, stream)));
  }
}

export function doDeactivateUser(
  engine: Engine,
  actor: UserRecord,
  target: UserRecord,
  params: DeactivateParams,
): Outcome<DeactivateResult> {
  const events: Effect[] = [];
  const bots = [...engine.state.users.values()]
    .filter((u) => u.is_bot && u.is_active && u.bot_owner_id === target.id)
    .sort((a, b) => a.id - b.id);
  const deactivated: number[] = [];
  // The target's bots go first, each with the requested actions applied before it is deactivated.
  for (const bot of bots) {
    applyActions(engine, actor, bot, params, events);
    deactivateOne(engine, bot, events);
    deactivated.push(bot.id);
  }
  applyActions(engine, actor, target, params, events);
  deactivateOne(engine, target, events);
  deactivated.push(target.id);
  // A deactivated user's invitation links stop working (revoke_invites_generated_by_user).
  events.push(...expireInvitesBy(engine, target));
  if (params.notificationComment !== null) {
    engine.state.outbox.push({
      to: target.delivery_email,
      template: 'zerver/emails/deactivate',
      context: {
        realm_name: engine.state.realm.name,
        deactivation_notification_comment: params.notificationComment,
        acting_user_id: actor.id,
      },
      timestamp: nowSeconds(engine),
    });
  }
  return outcome({ deactivatedUserIds: deactivated }, events);
}
