/**
 * validate_workplace_users_group (zerver/lib/workplace_users.py): who counts as a workplace user
 * decides the organization's bill, so the realm's workplace_users_group must be a group whose
 * membership only administrators can change. Pure: reads the realm's groups, changes nothing.
 */
import type { Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import type { GroupSettingValue, UserGroupSetting } from '../state.ts';

/**
 * The user-group settings that let someone change a group's members (every one but
 * can_mention_group): adding, joining, leaving, removing, and managing, which grants them all.
 */
const MEMBERSHIP_MANAGEMENT_SETTINGS: readonly UserGroupSetting[] = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_remove_members_group',
];

/** The groups validate_workplace_users_group checks: each named group below the value, itself included. */
function recursiveSubgroups(engine: Engine, roots: readonly number[]): number[] {
  const seen = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    const group = engine.state.userGroups.get(id);
    // get_recursive_subgroups_for_groups starts from the realm's named groups: an unknown id adds
    // nothing (the setting's own access check refuses it).
    if (!group) continue;
    seen.add(id);
    for (const sub of group.subgroups) queue.push(sub);
  }
  return [...seen];
}

/**
 * check_group_membership_management_permissions_with_admins_only (zerver/lib/user_groups.py):
 * the realm's can_manage_all_groups, and each group's membership settings, are role:nobody,
 * role:owners or role:administrators (by id: an anonymous group never passes, whoever it names).
 */
function membershipManagedByAdminsOnly(engine: Engine, groupIds: readonly number[]): boolean {
  const system = engine.state.realm.system_groups;
  const adminsOnly = new Set([system['role:nobody'], system['role:owners'], system['role:administrators']]);
  const passes = (value: GroupSettingValue) => typeof value === 'number' && adminsOnly.has(value);
  if (!passes(engine.state.realm.can_manage_all_groups)) return false;
  return groupIds.every((id) => {
    const group = engine.state.userGroups.get(id)!;
    return MEMBERSHIP_MANAGEMENT_SETTINGS.every((setting) => passes(group.settings[setting]));
  });
}

/**
 * A system group passes at once (its members change only with roles, which only administrators
 * set); so does an anonymous group whose direct subgroups are all system groups (its direct
 * members change only through this setting). Otherwise the named group, or the anonymous
 * group's non-system subgroups, and everything below them must pass.
 */
export function validateWorkplaceUsersGroup(engine: Engine, value: GroupSettingValue): void {
  const groups = engine.state.userGroups;
  let roots: number[];
  if (typeof value === 'number') {
    const group = groups.get(value);
    if (!group) throw ChatError.badRequest('Invalid user group');
    if (group.deactivated) throw ChatError.badRequest('User group is deactivated.');
    if (group.is_system_group) return;
    roots = [value];
  } else {
    roots = value.direct_subgroups.filter((id) => {
      const group = groups.get(id);
      return group !== undefined && !group.is_system_group;
    });
    if (roots.length === 0) return;
  }
  if (!membershipManagedByAdminsOnly(engine, recursiveSubgroups(engine, roots))) {
    throw ChatError.badRequest("'workplace_users_group' must be a group whose membership can only be managed by organization administrators.");
  }
}
