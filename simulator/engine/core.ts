/**
 * The engine's bottom layer: the Engine type, the read helpers every action module uses to reach
 * users, channels and groups, and `commit`. It imports only state and types, so every resource
 * module (users, channels, messages, drafts, groups, ...) can import it without forming a circle;
 * `engine.ts` builds an engine on top of all of them.
 */
import type { EngineCaches } from './fast/caches.ts';
import type { Deps } from './deps.ts';
import type { EventQueues } from './events/queues.ts';
import type { Outcome } from './events/effects.ts';
import type { OutgoingWebhookTrigger } from './integrations/outgoing-webhooks.ts';
import { md5Hex } from './md5.ts';
import { ROLE, EMAIL_VISIBILITY, type GroupSettingValue, type State, type StreamRecord, type UserRecord } from './state.ts';

export interface Engine {
  state: State;
  deps: Deps;
  /** The users' event queues (events/queues.ts): where every committed event goes. */
  queues: EventQueues;
  /**
   * Told of every outgoing-webhook trigger as the message is sent (integrations/outgoing-webhooks.ts), by
   * whoever delivers them (the simulator's webhook delivery); none: they are only recorded.
   */
  onOutgoingWebhook?: ((trigger: OutgoingWebhookTrigger) => void) | undefined;
  /** What this engine keeps only to answer faster (fast/caches.ts): made with it, dropped with it. */
  caches: EngineCaches;
}

/** Deliver an action's events to the event queues and hand back its value (the façade every route uses). */
export function commit<T>(engine: Engine, outcome: Outcome<T>): T {
  if (outcome.events.length > 0) engine.queues.publish(outcome.events);
  return outcome.value;
}

/** Current time in whole Unix seconds. */
export function nowSeconds(engine: Engine): number {
  return Math.floor(engine.deps.clock.now());
}

// ---------------------------------------------------------------- users

export function getUser(engine: Engine, id: number): UserRecord | undefined {
  return engine.state.users.get(id);
}

/** Look a user up by delivery or API email, case-insensitively. */
export function getUserByEmail(engine: Engine, email: string): UserRecord | undefined {
  const id = engine.state.usersByEmail.get(email.trim().toLowerCase());
  return id === undefined ? undefined : engine.state.users.get(id);
}

/**
 * An address held by a system bot stays the bot's: Zulip's lookups by email
 * (get_user_including_cross_realm) answer the system bot first, and a realm user that shares its
 * address (POST /users allows it: the bots are in another realm) is found by login paths only.
 */
export function indexEmail(state: State, email: string, userId: number): void {
  const key = email.toLowerCase();
  const holder = state.usersByEmail.get(key);
  if (holder !== undefined && holder !== userId && state.users.get(holder)?.is_system_bot) return;
  state.usersByEmail.set(key, userId);
}

/**
 * The realm's own user (never a system bot) whose delivery email is `email`, case-insensitively:
 * Zulip's get_user_by_delivery_email, what logins use. System bots live in another realm, so a
 * realm user may share a system bot's address; the email index keeps the bot (see
 * addUserToIndexes), and only then is the realm searched.
 */
export function getRealmUserByDeliveryEmail(engine: Engine, email: string): UserRecord | undefined {
  const key = email.trim().toLowerCase();
  const user = getUserByEmail(engine, key);
  if (user && !user.is_system_bot) return user.delivery_email.toLowerCase() === key ? user : undefined;
  if (!user) return undefined;
  for (const u of engine.state.users.values()) if (!u.is_system_bot && u.delivery_email.toLowerCase() === key) return u;
  return undefined;
}

/** Zulip's is_cross_realm_bot_email: the address of one of the server's system bots. */
export function isSystemBotEmail(engine: Engine, email: string): boolean {
  return getUserByEmail(engine, email)?.is_system_bot === true;
}

/**
 * Zulip's get_user / get_user_including_cross_realm: by the API `email` only (case-insensitive,
 * trimmed). What API lookups by email use (principals, DM recipients, narrow operands): a hidden
 * delivery address names nobody there, whoever asks. Login paths use the delivery email instead.
 */
export function getUserByApiEmail(engine: Engine, email: string): UserRecord | undefined {
  const key = email.trim().toLowerCase();
  const user = getUserByEmail(engine, key);
  return user && user.email.toLowerCase() === key ? user : undefined;
}

/** The system bot that speaks for the server (subscription notices, bot-owner alerts). */
export function notificationBot(engine: Engine): UserRecord | undefined {
  for (const u of engine.state.users.values()) {
    if (u.is_system_bot && u.delivery_email.toLowerCase().startsWith('notification-bot@')) return u;
  }
  return undefined;
}

export function isAdmin(user: UserRecord): boolean {
  return user.role <= ROLE.administrator;
}

export function isOwner(user: UserRecord): boolean {
  return user.role === ROLE.owner;
}

export function isGuest(user: UserRecord): boolean {
  return user.role === ROLE.guest;
}

export function isModerator(user: UserRecord): boolean {
  return user.role <= ROLE.moderator;
}

/** All active users, ascending id. */
export function activeUsers(engine: Engine): UserRecord[] {
  return [...engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot);
}

export function activeUserIds(engine: Engine): number[] {
  return activeUsers(engine).map((u) => u.id);
}

/** Realm.get_human_admin_users: the active administrators and owners that are not bots, ascending id. */
export function humanAdminIds(engine: Engine): number[] {
  return activeUsers(engine)
    .filter((u) => !u.is_bot && isAdmin(u))
    .map((u) => u.id);
}

/**
 * Zulip's get_user_ids_who_can_access_user: who hears about changes to `target` (status, profile
 * fields). Every active user, bots included: the simulator has no can_access_all_users_group
 * restriction, so even guests see everyone.
 */
export function userIdsWhoCanAccessUser(engine: Engine, _target: UserRecord): number[] {
  return activeUserIds(engine);
}

/** Zulip's can_access_delivery_email: may `viewer` see `target`'s real address? */
export function canSeeDeliveryEmail(engine: Engine, viewer: UserRecord | undefined, target: UserRecord): boolean {
  // Spectators never see a real address, not even a bot's (format_user_row checks the viewer first).
  if (!viewer) return false;
  if (target.is_bot) return true;
  if (viewer.id === target.id) return true;
  const visibility = target.email_address_visibility;
  if (visibility === EMAIL_VISIBILITY.everyone) return true;
  switch (visibility) {
    case EMAIL_VISIBILITY.members:
      return viewer.role !== ROLE.guest;
    case EMAIL_VISIBILITY.admins:
      return isAdmin(viewer);
    case EMAIL_VISIBILITY.moderators:
      return isModerator(viewer);
    default:
      return false;
  }
}

export function gravatarUrl(engine: Engine, user: UserRecord): string {
  const email = user.delivery_email.toLowerCase();
  const hashes = engine.caches.gravatarHashes;
  let hash = hashes.get(email);
  if (hash === undefined) {
    hash = md5Hex(email);
    // A pure function of the email, bounded by the number of addresses seen.
    if (hashes.size < 100_000) hashes.set(email, hash);
  }
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
}

/**
 * avatar_url per zerver/lib/avatar.py: null only when the client computes gravatars itself
 * (client_gravatar) and may do so (visibility everyone, no uploaded avatar).
 */
export function avatarUrl(
  engine: Engine,
  user: UserRecord,
  options: { clientGravatar: boolean; viewer?: UserRecord | undefined },
): string | null {
  if (user.avatar_source === 'U') {
    return `/user_avatars/${engine.state.realm.id}/${md5Hex(`${user.id}:${user.delivery_email}`)}.png?version=${user.avatar_version}`;
  }
  if (options.clientGravatar && user.email_address_visibility === EMAIL_VISIBILITY.everyone) return null;
  return gravatarUrl(engine, user);
}

// ---------------------------------------------------------------- groups

/**
 * Is `userId` a member of group `groupId`, directly or through subgroups (cycle-safe)? Every
 * message send asks, so the visited set is only built once there are subgroups to walk.
 */
export function isUserInGroup(engine: Engine, userId: number, groupId: number, seen?: Set<number>): boolean {
  const group = engine.state.userGroups.get(groupId);
  if (!group || group.deactivated) return false;
  if (group.members.has(userId)) return true;
  if (group.subgroups.size === 0) return false;
  const visited = seen ?? new Set<number>();
  visited.add(groupId);
  for (const sub of group.subgroups) if (!visited.has(sub) && isUserInGroup(engine, userId, sub, visited)) return true;
  return false;
}

export function isUserInGroupSetting(engine: Engine, userId: number, value: GroupSettingValue): boolean {
  if (typeof value === 'number') return isUserInGroup(engine, userId, value);
  if (value.direct_members.includes(userId)) return true;
  return value.direct_subgroups.some((g) => isUserInGroup(engine, userId, g));
}

// ---------------------------------------------------------------- channels

export function getStreamById(engine: Engine, id: number): StreamRecord | undefined {
  return engine.state.streams.get(id);
}

/** Channel names match case-insensitively, as in Zulip. */
export function getStreamByName(engine: Engine, name: string): StreamRecord | undefined {
  const id = engine.state.streamsByName.get(name.trim().toLowerCase());
  return id === undefined ? undefined : engine.state.streams.get(id);
}

export function isSubscribed(engine: Engine, userId: number, streamId: number): boolean {
  return engine.state.subscriptions.get(streamId)?.get(userId)?.active === true;
}

/** Active subscribers who are active users, ascending id. */
export function subscribersOf(engine: Engine, streamId: number): number[] {
  const subs = engine.state.subscriptions.get(streamId);
  if (!subs) return [];
  const out: number[] = [];
  let ascending = true;
  const users = engine.state.users;
  // forEach, not for…of over entries: no [key, value] pair made per subscriber.
  subs.forEach((sub, userId) => {
    if (!sub.active || !users.get(userId)?.is_active) return;
    if (out.length > 0 && out[out.length - 1]! > userId) ascending = false;
    out.push(userId);
  });
  // Subscriptions are mostly made in id order: sorted only when they were not.
  return ascending ? out : out.sort((a, b) => a - b);
}

/** How many subscribersOf would list, without listing them (every Channel object carries it). */
export function subscriberCount(engine: Engine, streamId: number): number {
  const subs = engine.state.subscriptions.get(streamId);
  if (!subs) return 0;
  let count = 0;
  const users = engine.state.users;
  subs.forEach((sub, userId) => {
    if (sub.active && users.get(userId)?.is_active) count++;
  });
  return count;
}

/**
 * Zulip's content access: subscribers always; for public channels every non-guest; for
 * web-public channels guests too. Private channels: subscribers only (admins get metadata,
 * not content).
 */
export function canAccessStreamContent(engine: Engine, user: UserRecord | undefined, stream: StreamRecord): boolean {
  if (!user) return stream.is_web_public && engine.state.realm.enable_spectator_access;
  if (isSubscribed(engine, user.id, stream.id)) return true;
  if (stream.is_web_public) return true;
  if (isGuest(user)) return false;
  if (!stream.invite_only) return true;
  // Whoever may subscribe themselves or others may read a private channel (Zulip's
  // stream_permission_group_settings_requiring_content_access).
  return (
    isUserInGroupSetting(engine, user.id, stream.groups.can_add_subscribers_group) ||
    isUserInGroupSetting(engine, user.id, stream.groups.can_subscribe_group)
  );
}

/**
 * Metadata access: content access, an administrator (who sees every channel), or a member of a
 * group setting that grants it (can_administer_channel_group, e.g. a private channel's creator).
 */
export function canAccessStreamMetadata(engine: Engine, user: UserRecord | undefined, stream: StreamRecord): boolean {
  if (user && isAdmin(user)) return true;
  if (canAccessStreamContent(engine, user, stream)) return true;
  // Group-granted access never reaches guests (allow_everyone_group=False for these settings).
  return user !== undefined && !isGuest(user) && isUserInGroupSetting(engine, user.id, stream.groups.can_administer_channel_group);
}
