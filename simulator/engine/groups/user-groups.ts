/**
 * User groups (zerver/views/user_groups.py, zerver/actions/user_groups.py): creating, listing, reading membership,
 * changing membership and subgroups, editing, deactivating and reactivating, with Zulip's
 * permission rules (zerver/lib/user_groups.py access_user_group_for_update) and the user_group
 * events every active user receives. Membership changes that give or take away metadata access
 * to private channels also send the stream create/delete events those users need.
 */
import { streamAudience } from '../channels/settings.ts';
import { formatStream, streamDeletionEvent } from '../channels/channels.ts';
import { activeUserIds, nowSeconds, subscribersOf, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { effect, outcome, type Effect, type Outcome } from '../events/effects.ts';
import {
  accessGroupSetting,
  groupSettingForApi,
  groupSettingMentions,
  hasGroupPermission,
  hasRealmGroupPermission,
  normalizeGroupSetting,
  sameGroupSetting,
  type GroupSettingChange,
} from './groups.ts';
import { sendGroupMembershipNotices } from '../channels/notifications.ts';
import {
  CHANNEL_GROUP_SETTINGS,
  INVALID_GROUP_NAME_PREFIXES,
  MAX_GROUP_NAME_LENGTH,
  REALM_GROUP_SETTINGS,
  USER_GROUP_SETTINGS,
  nextId,
  type ChannelGroupSetting,
  type GroupSettingValue,
  type StreamRecord,
  type UserGroup,
  type UserGroupSetting,
  type UserRecord,
} from '../state.ts';

/** The user group object of GET /user_groups, /register and the `add` event. */
export interface UserGroupDict {
  id: number;
  name: string;
  creator_id: number | null;
  date_created: number | null;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_add_members_group: GroupSettingValue;
  can_join_group: GroupSettingValue;
  can_leave_group: GroupSettingValue;
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
  can_remove_members_group: GroupSettingValue;
  deactivated: boolean;
}

const byId = (a: number, b: number): number => a - b;

function activeMembers(engine: Engine, group: UserGroup): number[] {
  return [...group.members].filter((id) => engine.state.users.get(id)?.is_active).sort(byId);
}

function settingsForApi(engine: Engine, group: UserGroup): Pick<UserGroupDict, UserGroupSetting> {
  const out = {} as Pick<UserGroupDict, UserGroupSetting>;
  for (const key of USER_GROUP_SETTINGS) out[key] = groupSettingForApi(engine, group.settings[key]);
  return out;
}

/** Direct, active members and direct subgroups, sorted (user_groups_in_realm_serialized). */
export function formatUserGroup(engine: Engine, group: UserGroup): UserGroupDict {
  return {
    id: group.id,
    name: group.name,
    creator_id: group.creator_id,
    date_created: group.date_created,
    description: group.description,
    members: activeMembers(engine, group),
    direct_subgroup_ids: [...group.subgroups].sort(byId),
    is_system_group: group.is_system_group,
    ...settingsForApi(engine, group),
    deactivated: group.deactivated,
  };
}

/** GET /user_groups: every group of the realm by id, system groups included. */
export function listUserGroups(engine: Engine, includeDeactivated: boolean): UserGroupDict[] {
  return [...engine.state.userGroups.values()]
    .filter((g) => includeDeactivated || !g.deactivated)
    .sort((a, b) => a.id - b.id)
    .map((g) => formatUserGroup(engine, g));
}

/** The `realm_user_groups` key of /register (deactivated groups only for clients that ask). */
export function userGroupsRegisterState(engine: Engine, options: { includeDeactivatedGroups: boolean }): { realm_user_groups: UserGroupDict[] } {
  return { realm_user_groups: listUserGroups(engine, options.includeDeactivatedGroups) };
}

// ---------------------------------------------------------------- access

/** UserProfile.can_create_user_groups: the realm's can_create_groups. */
export function canCreateGroups(engine: Engine, user: UserRecord): boolean {
  return hasRealmGroupPermission(engine, user, 'can_create_groups');
}

function canManageAllGroups(engine: Engine, user: UserRecord): boolean {
  return hasRealmGroupPermission(engine, user, 'can_manage_all_groups');
}

/** get_user_group_by_id_in_realm: `Invalid user group`, and deactivated groups refused unless allowed. */
function getGroup(engine: Engine, groupId: number, allowDeactivated = false): UserGroup {
  const group = engine.state.userGroups.get(groupId);
  if (!group) throw ChatError.badRequest('Invalid user group');
  if (group.deactivated && !allowDeactivated) throw ChatError.badRequest('User group is deactivated.');
  return group;
}

/**
 * access_user_group_for_update: system groups are never changed through the API; whoever may
 * manage every group, or this group, may do anything; otherwise the named setting decides.
 */
export function accessGroupForUpdate(
  engine: Engine,
  user: UserRecord,
  groupId: number,
  permission: UserGroupSetting,
  options: { allowDeactivated?: boolean } = {},
): UserGroup {
  const group = getGroup(engine, groupId, options.allowDeactivated);
  if (group.is_system_group) throw ChatError.insufficientPermission();
  if (canManageAllGroups(engine, user)) return group;
  if (hasGroupPermission(engine, user, 'can_manage_group', group.settings.can_manage_group)) return group;
  if (permission !== 'can_manage_group' && hasGroupPermission(engine, user, permission, group.settings[permission])) return group;
  throw ChatError.insufficientPermission();
}

/** user_ids_to_users: active users of the realm, the first bad id (in list order) named. */
function activeUsersByIds(engine: Engine, ids: readonly number[]): UserRecord[] {
  for (const id of ids) {
    const user = engine.state.users.get(id);
    if (!user || !user.is_active || user.is_system_bot) throw ChatError.badRequest(`Invalid user ID: ${id}`);
  }
  return [...new Set(ids)].sort(byId).map((id) => engine.state.users.get(id)!);
}

/** check_user_group_name: stored as sent; blank, length and prefix rules on the raw name. */
function checkGroupName(name: string): string {
  if (name.trim() === '') throw ChatError.badRequest("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) {
    throw ChatError.badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = INVALID_GROUP_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw ChatError.badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

/** Names are unique per realm, exactly (case-sensitive), across system and deactivated groups. */
function checkNameFree(engine: Engine, name: string): void {
  for (const g of engine.state.userGroups.values()) {
    if (g.name === name) throw ChatError.badRequest(`User group '${name}' already exists.`);
  }
}

/** Existing, active groups to use as subgroups; unknown ids first, then deactivated ones. */
function potentialSubgroups(engine: Engine, ids: readonly number[]): UserGroup[] {
  const groups = engine.state.userGroups;
  const missing = ids.find((id) => !groups.has(id));
  if (missing !== undefined) throw ChatError.badRequest(`Invalid user group ID: ${missing}`);
  const found = [...new Set(ids)].sort(byId).map((id) => groups.get(id)!);
  if (found.some((g) => g.deactivated)) throw ChatError.badRequest('User group is deactivated.');
  return found;
}

/** `groupIds` and every group below them. */
function withRecursiveSubgroups(engine: Engine, groupIds: Iterable<number>): Set<number> {
  const out = new Set<number>();
  const queue = [...groupIds];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    for (const sub of engine.state.userGroups.get(id)?.subgroups ?? []) queue.push(sub);
  }
  return out;
}

/** `groupId` and every named group above it. */
function withRecursiveSupergroups(engine: Engine, groupId: number): Set<number> {
  const out = new Set<number>([groupId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of engine.state.userGroups.values()) {
      if (!out.has(g.id) && [...g.subgroups].some((id) => out.has(id))) {
        out.add(g.id);
        grew = true;
      }
    }
  }
  return out;
}

function realmEvent(engine: Engine, event: Effect['event']): Effect {
  return effect(event, activeUserIds(engine));
}

// ---------------------------------------------------------------- channel metadata access

/** Stream.stream_permission_group_settings_granting_metadata_access. */
const METADATA_SETTINGS: readonly ChannelGroupSetting[] = ['can_add_subscribers_group', 'can_administer_channel_group', 'can_subscribe_group'];

/** Who sees each private channel whose metadata access goes through `groupId` (or a group above it). */
function metadataAudiences(engine: Engine, groupId: number): Map<StreamRecord, Set<number>> {
  const above = withRecursiveSupergroups(engine, groupId);
  const out = new Map<StreamRecord, Set<number>>();
  for (const stream of engine.state.streams.values()) {
    if (!stream.invite_only || stream.is_archived) continue;
    if (METADATA_SETTINGS.some((key) => groupSettingMentions(stream.groups[key], above))) {
      out.set(stream, new Set(streamAudience(engine, stream)));
    }
  }
  return out;
}

/**
 * After a membership change: stream create (+ peer_add with the subscribers) for users who can
 * now see a private channel, stream delete for users who no longer can.
 */
function metadataAccessEvents(engine: Engine, before: Map<StreamRecord, Set<number>>): Effect[] {
  const events: Effect[] = [];
  for (const [stream, had] of before) {
    const has = new Set(streamAudience(engine, stream));
    const gaining = [...has].filter((id) => !had.has(id));
    const losing = [...had].filter((id) => !has.has(id));
    if (gaining.length > 0) {
      events.push(effect({ type: 'stream', op: 'create', streams: [formatStream(engine, stream)] }, gaining));
      events.push(effect({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: subscribersOf(engine, stream.id) }, gaining));
    }
    if (losing.length > 0) {
      events.push(streamDeletionEvent([stream], losing));
    }
  }
  return events;
}

// ---------------------------------------------------------------- create

export interface CreateUserGroupParams {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  /** As sent (shape checked); each validated here against its setting. */
  settings: Partial<Record<UserGroupSetting, GroupSettingValue>>;
}

/** The `add` event's group (do_send_create_user_group_event). */
function addEvent(engine: Engine, group: UserGroup, members: number[], subgroups: number[], forReactivation: boolean): Effect {
  const dict = formatUserGroup(engine, group);
  return realmEvent(engine, {
    type: 'user_group',
    op: 'add',
    group: { ...dict, members, direct_subgroup_ids: subgroups, deactivated: false },
    for_reactivation: forReactivation,
  });
}

/**
 * POST /user_groups/create, in add_user_group's order: members, name, each setting, the name's
 * uniqueness, then the subgroups (which need no permission on the new group). One transaction
 * upstream: any error leaves nothing behind.
 */
export function createUserGroup(engine: Engine, actor: UserRecord, p: CreateUserGroupParams): Outcome<{ group_id: number }> {
  const members = activeUsersByIds(engine, p.members);
  const name = checkGroupName(p.name);
  const settings: Partial<Record<UserGroupSetting, GroupSettingValue>> = {};
  for (const key of USER_GROUP_SETTINGS) {
    const value = p.settings[key];
    if (value !== undefined) settings[key] = accessGroupSetting(engine, key, value);
  }
  checkNameFree(engine, name);
  const subgroups = potentialSubgroups(engine, p.subgroups);

  const state = engine.state;
  const g = state.realm.system_groups;
  const creator: GroupSettingValue = { direct_members: [actor.id], direct_subgroups: [] };
  const group: UserGroup = {
    id: nextId(state, 'user_group'),
    name,
    description: p.description,
    is_system_group: false,
    members: new Set(members.map((u) => u.id)),
    subgroups: new Set(),
    deactivated: false,
    creator_id: actor.id,
    date_created: nowSeconds(engine),
    settings: {
      can_add_members_group: creator,
      can_join_group: g['role:nobody']!,
      can_leave_group: g['role:everyone']!,
      can_manage_group: creator,
      can_mention_group: g['role:everyone']!,
      can_remove_members_group: g['role:nobody']!,
      ...settings,
    },
  };
  state.userGroups.set(group.id, group);
  // The add event never lists subgroups: they follow in their own event.
  const events = [addEvent(engine, group, members.map((u) => u.id), [], false)];
  if (subgroups.length > 0) {
    for (const sub of subgroups) group.subgroups.add(sub.id);
    events.push(realmEvent(engine, { type: 'user_group', op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: subgroups.map((s) => s.id) }));
  }
  return outcome({ group_id: group.id }, events);
}

// ---------------------------------------------------------------- read membership

/** GET /user_groups/{id}/members: active members, through subgroups unless direct only. */
export function groupMembers(engine: Engine, groupId: number, directOnly: boolean): number[] {
  const group = getGroup(engine, groupId);
  if (directOnly) return activeMembers(engine, group);
  const ids = new Set<number>();
  for (const id of withRecursiveSubgroups(engine, [group.id])) {
    for (const member of engine.state.userGroups.get(id)!.members) ids.add(member);
  }
  return [...ids].filter((id) => engine.state.users.get(id)?.is_active).sort(byId);
}

/** GET /user_groups/{id}/members/{user_id}: the target must be an active human of the realm. */
export function isGroupMember(engine: Engine, groupId: number, userId: number, directOnly: boolean): boolean {
  getGroup(engine, groupId);
  const user = engine.state.users.get(userId);
  if (!user || user.is_system_bot || user.is_bot) throw ChatError.badRequest('No such user');
  if (!user.is_active) throw ChatError.badRequest('User is deactivated');
  return groupMembers(engine, groupId, directOnly).includes(userId);
}

/** GET /user_groups/{id}/subgroups: direct subgroups, or every group below (get_recursive_strict_subgroups). */
export function groupSubgroups(engine: Engine, groupId: number, directOnly: boolean): number[] {
  const group = getGroup(engine, groupId);
  if (directOnly) return [...group.subgroups].sort(byId);
  return [...withRecursiveSubgroups(engine, group.subgroups)].sort(byId);
}

// ---------------------------------------------------------------- membership changes

export interface MembershipChanges {
  add: number[];
  delete: number[];
  add_subgroups: number[];
  delete_subgroups: number[];
}

type Step =
  | { op: 'add_members' | 'remove_members'; users: UserRecord[] }
  | { op: 'add_subgroups' | 'remove_subgroups'; groups: UserGroup[] };

/** A single self-change goes through the self setting first, then the one for others. */
function accessForSelfOrOthers(
  engine: Engine,
  actor: UserRecord,
  groupId: number,
  ids: readonly number[],
  self: UserGroupSetting,
  others: UserGroupSetting,
): UserGroup {
  const options = { allowDeactivated: true };
  if (ids.length === 1 && ids[0] === actor.id) {
    try {
      return accessGroupForUpdate(engine, actor, groupId, self, options);
    } catch {
      return accessGroupForUpdate(engine, actor, groupId, others, options);
    }
  }
  return accessGroupForUpdate(engine, actor, groupId, others, options);
}

/**
 * POST /user_groups/{id}/members (and /subgroups): add members, remove members, add subgroups,
 * remove subgroups, in that order, each step checked against the group as the earlier steps
 * leave it; one transaction, so nothing changes unless every step passes.
 */
export function updateGroupMembership(engine: Engine, actor: UserRecord, groupId: number, c: MembershipChanges): Outcome<Record<string, never>> {
  const group = engine.state.userGroups.get(groupId);
  const members = new Set(group?.members);
  const subgroups = new Set(group?.subgroups);
  const steps: Step[] = [];

  if (c.add.length > 0) {
    accessForSelfOrOthers(engine, actor, groupId, c.add, 'can_join_group', 'can_add_members_group');
    const users = activeUsersByIds(engine, c.add);
    for (const user of users) {
      if (members.has(user.id)) throw ChatError.badRequest(`User ${user.id} is already a member of this group`);
    }
    for (const user of users) members.add(user.id);
    steps.push({ op: 'add_members', users });
  }
  if (c.delete.length > 0) {
    const users = activeUsersByIds(engine, c.delete);
    accessForSelfOrOthers(engine, actor, groupId, c.delete, 'can_leave_group', 'can_remove_members_group');
    for (const id of c.delete) {
      if (!members.has(id)) throw ChatError.badRequest(`There is no member '${id}' in this user group`);
    }
    for (const user of users) members.delete(user.id);
    steps.push({ op: 'remove_members', users });
  }
  if (c.add_subgroups.length > 0) {
    accessGroupForUpdate(engine, actor, groupId, 'can_add_members_group', { allowDeactivated: true });
    const added = potentialSubgroups(engine, c.add_subgroups);
    for (const sub of added) {
      if (subgroups.has(sub.id)) throw ChatError.badRequest(`User group ${sub.id} is already a subgroup of this group.`);
    }
    if (withRecursiveSubgroups(engine, added.map((g) => g.id)).has(groupId)) {
      throw ChatError.badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
    }
    for (const sub of added) subgroups.add(sub.id);
    steps.push({ op: 'add_subgroups', groups: added });
  }
  if (c.delete_subgroups.length > 0) {
    accessGroupForUpdate(engine, actor, groupId, 'can_manage_group', { allowDeactivated: true });
    const removed = potentialSubgroups(engine, c.delete_subgroups);
    for (const sub of removed) {
      if (!subgroups.has(sub.id)) throw ChatError.badRequest(`User group ${sub.id} is not a subgroup of this group.`);
    }
    for (const sub of removed) subgroups.delete(sub.id);
    steps.push({ op: 'remove_subgroups', groups: removed });
  }
  return outcome({}, steps.flatMap((step) => applyStep(engine, actor, group!, step)));
}

function applyStep(engine: Engine, actor: UserRecord, group: UserGroup, step: Step): Effect[] {
  const before = metadataAudiences(engine, group.id);
  let changed: Effect;
  let notices: Effect[] = [];
  if ('users' in step) {
    for (const u of step.users) {
      if (step.op === 'add_members') group.members.add(u.id);
      else group.members.delete(u.id);
    }
    changed = realmEvent(engine, { type: 'user_group', op: step.op, group_id: group.id, user_ids: step.users.map((u) => u.id) });
    notices = sendGroupMembershipNotices(engine, actor, group, step.users, step.op === 'add_members' ? 'added' : 'removed');
  } else {
    for (const g of step.groups) {
      if (step.op === 'add_subgroups') group.subgroups.add(g.id);
      else group.subgroups.delete(g.id);
    }
    changed = realmEvent(engine, { type: 'user_group', op: step.op, group_id: group.id, direct_subgroup_ids: step.groups.map((g) => g.id) });
  }
  return [changed, ...metadataAccessEvents(engine, before), ...notices];
}

// ---------------------------------------------------------------- edit, deactivate, reactivate

export interface UpdateUserGroupParams {
  name?: string | undefined;
  description?: string | undefined;
  deactivated?: boolean | undefined;
  settings: Partial<Record<UserGroupSetting, GroupSettingChange>>;
}

/**
 * PATCH /user_groups/{id} (edit_user_group): the name (checked, unique), the description,
 * reactivation (`deactivated: false`; `true` does nothing here), then each setting whose new
 * value differs from the current one, `old` (when sent) having to match it. Deactivated groups
 * may be edited. One transaction: every check passes before anything changes.
 */
export function updateUserGroup(engine: Engine, actor: UserRecord, groupId: number, p: UpdateUserGroupParams): Outcome<Record<string, never>> {
  const sent = p.name !== undefined || p.description !== undefined || p.deactivated !== undefined || Object.keys(p.settings).length > 0;
  if (!sent) throw ChatError.badRequest('No new data supplied');
  const group = accessGroupForUpdate(engine, actor, groupId, 'can_manage_group', { allowDeactivated: true });

  const rename = p.name !== undefined && p.name !== group.name ? checkGroupName(p.name) : undefined;
  if (rename !== undefined) checkNameFree(engine, rename);
  const describe = p.description !== undefined && p.description !== group.description ? p.description : undefined;
  const reactivate = p.deactivated === false && group.deactivated;
  const changes: [UserGroupSetting, GroupSettingValue][] = [];
  for (const key of USER_GROUP_SETTINGS) {
    const change = p.settings[key];
    if (change === undefined) continue;
    const current = groupSettingForApi(engine, group.settings[key]);
    const wanted = normalizeGroupSetting(engine, change.new);
    if (change.old !== undefined && !sameGroupSetting(normalizeGroupSetting(engine, change.old), current)) {
      throw new ChatError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
    }
    if (!sameGroupSetting(current, wanted)) changes.push([key, accessGroupSetting(engine, key, wanted)]);
  }

  const events: Effect[] = [];
  const update = (data: Record<string, unknown>) => realmEvent(engine, { type: 'user_group', op: 'update', group_id: group.id, data });
  if (rename !== undefined) {
    group.name = rename;
    events.push(update({ name: rename }));
  }
  if (describe !== undefined) {
    group.description = describe;
    events.push(update({ description: describe }));
  }
  if (reactivate) {
    group.deactivated = false;
    events.push(update({ deactivated: false }));
    events.push(addEvent(engine, group, [...group.members].sort(byId), [...group.subgroups].sort(byId), true));
  }
  for (const [key, value] of changes) {
    group.settings[key] = value;
    events.push(update({ [key]: groupSettingForApi(engine, value) }));
  }
  return outcome({}, events);
}

/**
 * access_user_group_for_deactivation: a group still in use (a subgroup of an active group, or
 * named by a channel's, a group's or the realm's settings) cannot be deactivated; the error lists
 * every use.
 */
function deactivationObjections(engine: Engine, group: UserGroup): Record<string, unknown>[] {
  const self = new Set([group.id]);
  const objections: Record<string, unknown>[] = [];
  const supergroups = [...engine.state.userGroups.values()].filter((g) => !g.deactivated && g.subgroups.has(group.id)).map((g) => g.id).sort(byId);
  if (supergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroups });
  for (const stream of [...engine.state.streams.values()].sort((a, b) => a.id - b.id)) {
    if (stream.is_archived) continue;
    const settings = CHANNEL_GROUP_SETTINGS.filter((key) => groupSettingMentions(stream.groups[key], self));
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: stream.id, settings });
  }
  for (const other of [...engine.state.userGroups.values()].sort((a, b) => a.id - b.id)) {
    if (other.deactivated) continue;
    const settings = USER_GROUP_SETTINGS.filter((key) => groupSettingMentions(other.settings[key], self));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realm = engine.state.realm;
  const realmSettings = REALM_GROUP_SETTINGS.filter((key) => groupSettingMentions(realm[key], self));
  if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings });
  return objections;
}

/** POST /user_groups/{id}/deactivate: an update (deactivated) and a remove event to the realm. */
export function deactivateUserGroup(engine: Engine, actor: UserRecord, groupId: number): Outcome<Record<string, never>> {
  const group = accessGroupForUpdate(engine, actor, groupId, 'can_manage_group');
  const objections = deactivationObjections(engine, group);
  if (objections.length > 0) {
    throw new ChatError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', { extra: { objections } });
  }
  group.deactivated = true;
  return outcome({}, [
    realmEvent(engine, { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } }),
    realmEvent(engine, { type: 'user_group', op: 'remove', group_id: group.id }),
  ]);
}
