/** Group-setting resolution against the realm's user groups (system groups included). */
import type { Engine } from './engine.ts';
import type { GroupSettingValue } from './state.ts';

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

/** API form: a group id, or the anonymous group with sorted, active-only direct members. */
export function groupSettingForApi(engine: Engine, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  return {
    direct_members: value.direct_members.filter((id) => engine.state.users.get(id)?.is_active).sort((a, b) => a - b),
    direct_subgroups: [...value.direct_subgroups].sort((a, b) => a - b),
  };
}
