/**
 * The eight role groups every realm has (zerver/lib/user_groups.py:create_system_user_groups_for_realm): created with the realm, each
 * holding the users of one role directly and the next stricter group as its one subgroup, so that
 * role:members reaches owners through fullmembers, moderators and administrators. Membership
 * follows the users' roles: set at load, then changed (with events) when a user is created or
 * changes role. Deactivation leaves memberships alone, as upstream; listings show active users.
 */
import { activeUserIds, type Engine } from '../core.ts';
import { effect, type Effect } from '../events/effects.ts';
import { ROLE, USER_GROUP_SETTINGS, reserveId, type GroupSettingValue, type Role, type State, type UserGroup, type UserGroupSetting, type UserRecord } from '../state.ts';

/** In creation order (create_system_user_groups_for_realm): consecutive ids from the base. */
export const SYSTEM_GROUPS = [
  ['role:nobody', 'Nobody'],
  ['role:owners', 'Owners of this organization'],
  ['role:administrators', 'Administrators of this organization, including owners'],
  ['role:moderators', 'Moderators of this organization, including administrators'],
  ['role:fullmembers', 'Members of this organization, not including new accounts and guests'],
  ['role:members', 'Members of this organization, not including guests'],
  ['role:everyone', 'Everyone in this organization, including guests'],
  ['role:internet', 'Everyone on the Internet'],
] as const;

/** The internal realm's eight system groups come first on a fresh server. */
export const SYSTEM_GROUP_BASE_ID = 9;

/** The group holding each role's users directly (full members are decided separately). */
const ROLE_GROUP: Record<Role, string> = {
  [ROLE.owner]: 'role:owners',
  [ROLE.administrator]: 'role:administrators',
  [ROLE.moderator]: 'role:moderators',
  [ROLE.member]: 'role:members',
  [ROLE.guest]: 'role:everyone',
};

export function createSystemGroups(state: State): void {
  const nobodyId = SYSTEM_GROUP_BASE_ID;
  const nobodyEverywhere = Object.fromEntries(USER_GROUP_SETTINGS.map((s) => [s, nobodyId])) as Record<UserGroupSetting, GroupSettingValue>;
  const groups: UserGroup[] = SYSTEM_GROUPS.map(([name, description], i) => ({
    id: SYSTEM_GROUP_BASE_ID + i,
    name,
    description,
    is_system_group: true,
    members: new Set<number>(),
    subgroups: new Set<number>(),
    deactivated: false,
    creator_id: null,
    date_created: null,
    // Nobody may join, leave, manage or mention a role group.
    settings: { ...nobodyEverywhere },
  }));
  // Each group from administrators on holds the one before it; nobody stands alone.
  groups.forEach((g, i) => {
    if (i >= 2) g.subgroups.add(groups[i - 1]!.id);
    state.userGroups.set(g.id, g);
    state.realm.system_groups[g.name] = g.id;
    reserveId(state, 'user_group', g.id);
  });
}

function systemGroup(state: State, name: string): UserGroup {
  return state.userGroups.get(state.realm.system_groups[name]!)!;
}

/** Members past the realm's waiting period are full members (upstream's is_provisional_member). */
export function isFullMember(state: State, user: UserRecord, now: number): boolean {
  if (user.role !== ROLE.member) return false;
  const days = Math.floor((now - user.date_joined) / 86_400);
  return days >= state.realm.waiting_period_threshold;
}

/** Fill the system groups from the users' roles (at load; system bots belong to no realm group). */
export function syncSystemGroups(state: State, now: number): void {
  for (const [name] of SYSTEM_GROUPS) systemGroup(state, name).members.clear();
  for (const user of state.users.values()) {
    if (user.is_system_bot) continue;
    systemGroup(state, ROLE_GROUP[user.role]).members.add(user.id);
    if (isFullMember(state, user, now)) systemGroup(state, 'role:fullmembers').members.add(user.id);
  }
}

function membersEvent(engine: Engine, op: 'add_members' | 'remove_members', group: UserGroup, userId: number): Effect {
  return effect({ type: 'user_group', op, group_id: group.id, user_ids: [userId] }, activeUserIds(engine));
}

/**
 * A new user joins their role's group, and role:fullmembers when already past the waiting
 * period (do_create_user): add_members events to the realm.
 */
export function joinSystemGroups(engine: Engine, user: UserRecord, now: number): Effect[] {
  const state = engine.state;
  forgetPromotionHint(engine);
  const joined = [systemGroup(state, ROLE_GROUP[user.role])];
  if (isFullMember(state, user, now)) joined.push(systemGroup(state, 'role:fullmembers'));
  for (const group of joined) group.members.add(user.id);
  return joined.map((group) => membersEvent(engine, 'add_members', group, user.id));
}

/**
 * After `user`'s role changed from `oldRole` (do_change_user_role): out of the old role's group,
 * into the new one's, and role:fullmembers updated when either role is member.
 */
export function moveBetweenSystemGroups(engine: Engine, user: UserRecord, oldRole: Role, now: number): Effect[] {
  if (oldRole === user.role) return [];
  const state = engine.state;
  forgetPromotionHint(engine);
  const before = systemGroup(state, ROLE_GROUP[oldRole]);
  const after = systemGroup(state, ROLE_GROUP[user.role]);
  before.members.delete(user.id);
  after.members.add(user.id);
  const events = [membersEvent(engine, 'remove_members', before, user.id), membersEvent(engine, 'add_members', after, user.id)];
  const full = systemGroup(state, 'role:fullmembers');
  const wasFull = full.members.has(user.id);
  const isFull = isFullMember(state, user, now);
  if (wasFull && !isFull) {
    full.members.delete(user.id);
    events.push(membersEvent(engine, 'remove_members', full, user.id));
  } else if (!wasFull && isFull) {
    full.members.add(user.id);
    events.push(membersEvent(engine, 'add_members', full, user.id));
  }
  return events;
}

/**
 * update_users_in_full_members_system_group after the realm's waiting period changed: members
 * past the new period join role:fullmembers, the others leave it, each change one event to the
 * realm (removals first).
 */
export function updateFullMembers(engine: Engine, now: number): Effect[] {
  const state = engine.state;
  forgetPromotionHint(engine);
  const full = systemGroup(state, 'role:fullmembers');
  const leaving: number[] = [];
  const joining: number[] = [];
  for (const user of state.users.values()) {
    if (user.is_system_bot || !user.is_active) continue;
    const should = isFullMember(state, user, now);
    if (full.members.has(user.id) && !should) leaving.push(user.id);
    else if (!full.members.has(user.id) && should) joining.push(user.id);
  }
  const events: Effect[] = [];
  const byId = (a: number, b: number) => a - b;
  if (leaving.length > 0) {
    for (const id of leaving) full.members.delete(id);
    events.push(effect({ type: 'user_group', op: 'remove_members', group_id: full.id, user_ids: leaving.sort(byId) }, activeUserIds(engine)));
  }
  if (joining.length > 0) {
    for (const id of joining) full.members.add(id);
    events.push(effect({ type: 'user_group', op: 'add_members', group_id: full.id, user_ids: joining.sort(byId) }, activeUserIds(engine)));
  }
  return events;
}

/** When a member who is not a full member yet reaches the waiting period; undefined for anyone else. */
function promotionTime(user: UserRecord, full: ReadonlySet<number>, waiting: number): number | undefined {
  if (user.role !== ROLE.member || full.has(user.id) || !user.is_active || user.is_system_bot) return undefined;
  return user.date_joined + waiting;
}

/*
 * engine.caches.promotions: no member becomes a full member before `at`, as long as the realm has
 * `users` users: the clock step reads every user only once the present reaches it. Kept per user
 * table (a state replaced whole starts without one) and forgotten by whatever can make someone
 * wait anew: a role or waiting-period change, a new user, a reactivation.
 */
export function forgetPromotionHint(engine: Engine): void {
  engine.caches.promotions.delete(engine.state.users);
}

/** When the next member becomes a full member: exact when that is by `until`, else a moment after it. */
export function nextFullMemberPromotion(engine: Engine, until: number): number | undefined {
  const state = engine.state;
  const promotionHints = engine.caches.promotions;
  const hint = promotionHints.get(state.users);
  if (hint && hint.users === state.users.size && hint.at > until) return hint.at === Number.POSITIVE_INFINITY ? undefined : hint.at;
  const full = systemGroup(state, 'role:fullmembers').members;
  const waiting = state.realm.waiting_period_threshold * 86_400;
  let next: number | undefined;
  for (const user of state.users.values()) {
    const at = promotionTime(user, full, waiting);
    if (at !== undefined && (next === undefined || at < next)) next = at;
  }
  promotionHints.set(state.users, { at: next ?? Number.POSITIVE_INFINITY, users: state.users.size });
  return next;
}

/**
 * Members whose waiting period has ended by `at` join role:fullmembers, in one add_members event to
 * the realm (Zulip's promote_new_full_members job, run at the very moment rather than daily).
 */
export function promoteFullMembers(engine: Engine, at: number): { value: number[]; events: Effect[] } {
  const state = engine.state;
  const full = systemGroup(state, 'role:fullmembers');
  const waiting = state.realm.waiting_period_threshold * 86_400;
  const joining: number[] = [];
  for (const user of state.users.values()) {
    const due = promotionTime(user, full.members, waiting);
    if (due !== undefined && due <= at) joining.push(user.id);
  }
  if (joining.length === 0) return { value: [], events: [] };
  joining.sort((a, b) => a - b);
  for (const id of joining) full.members.add(id);
  return { value: joining, events: [effect({ type: 'user_group', op: 'add_members', group_id: full.id, user_ids: joining }, activeUserIds(engine))] };
}
