/**
 * User group endpoints (zerver/views/user_groups.py, zerver/actions/user_groups.py). Guests are refused everywhere but deactivation
 * (which has no decorator upstream and answers `Insufficient permission` instead); bots are
 * accepted, as from feature level 496.
 */
import { ChatError } from '../../engine/errors.ts';
import { parseGroupSettingChange, parseGroupSettingValue, type GroupSettingChange } from '../../engine/groups/groups.ts';
import { USER_GROUP_SETTINGS, type GroupSettingValue, type UserGroupSetting, type UserRecord } from '../../engine/state.ts';
import {
  canCreateGroups,
  createUserGroup,
  deactivateUserGroup,
  groupMembers,
  groupSubgroups,
  isGroupMember,
  listUserGroups,
  updateGroupMembership,
  updateUserGroup,
} from '../../engine/groups/user-groups.ts';
import { withValue } from '../../engine/events/effects.ts';
import { boolParam } from '../checks.ts';
import { defineRoute } from '../define-route.ts';
import type { Route } from '../route.ts';
import type { Engine } from '../../engine/core.ts';

const groupIdInPath = { name: 'user_group_id', type: 'int', in: 'path', required: true } as const;
const ids = <N extends string>(name: N) => ({ name, type: 'int_array' }) as const;
const flag = <N extends string>(name: N) => boolParam(name, false);

function settingsOf<T>(params: { readonly [K in UserGroupSetting]: T | undefined }): Partial<Record<UserGroupSetting, T>> {
  const out: Partial<Record<UserGroupSetting, T>> = {};
  for (const key of USER_GROUP_SETTINGS) {
    const value = params[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function changeMembership(engine: Engine, user: UserRecord, groupId: number, changes: Parameters<typeof updateGroupMembership>[3]) {
  return withValue(updateGroupMembership(engine, user, groupId, changes), {});
}

export const groupRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/user_groups/create',
    response: 'create-user-group',
    auth: 'member',
    guard(engine, user) {
      if (!canCreateGroups(engine, user)) throw ChatError.insufficientPermission();
    },
    summary: 'create a user group',
    // add_user_group's signature order, which decides the error reported first.
    params: [
      ...USER_GROUP_SETTINGS.map((name) => ({ name, type: 'json', validate: parseGroupSettingValue }) as const),
      { name: 'description', type: 'string', required: true },
      { name: 'members', type: 'int_array', required: true },
      { name: 'name', type: 'string', required: true },
      ids('subgroups'),
    ],
    handler({ engine, user, params }) {
      return createUserGroup(engine, user, {
        name: params.name,
        description: params.description,
        members: params.members,
        subgroups: params.subgroups ?? [],
        settings: settingsOf<GroupSettingValue>(params),
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_groups',
    response: 'get-user-groups',
    auth: 'member',
    summary: "the realm's user groups, system groups included",
    params: [flag('include_deactivated_groups')],
    handler({ engine, params }) {
      return { user_groups: listUserGroups(engine, params.include_deactivated_groups) };
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/user_groups/{user_group_id}',
    response: 'empty',
    auth: 'member',
    summary: "change a group's name, description, settings, or reactivate it",
    params: [
      groupIdInPath,
      ...USER_GROUP_SETTINGS.map((name) => ({ name, type: 'json', validate: parseGroupSettingChange }) as const),
      { name: 'deactivated', type: 'bool' },
      { name: 'description', type: 'string' },
      { name: 'name', type: 'string' },
    ],
    handler({ engine, user, params }) {
      return withValue(updateUserGroup(engine, user, params.user_group_id, {
        name: params.name,
        description: params.description,
        deactivated: params.deactivated,
        settings: settingsOf<GroupSettingChange>(params),
      }), {});
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/user_groups/{user_group_id}/deactivate',
    response: 'empty',
    auth: 'user',
    summary: 'deactivate a user group no setting uses',
    params: [groupIdInPath],
    handler({ engine, user, params }) {
      return withValue(deactivateUserGroup(engine, user, params.user_group_id), {});
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/user_groups/{user_group_id}/members',
    response: 'empty',
    auth: 'member',
    summary: "change a group's members (and subgroups)",
    params: [groupIdInPath, ids('add'), ids('add_subgroups'), ids('delete'), ids('delete_subgroups')],
    handler({ engine, user, params }) {
      const changes = {
        add: params.add ?? [],
        delete: params.delete ?? [],
        add_subgroups: params.add_subgroups ?? [],
        delete_subgroups: params.delete_subgroups ?? [],
      };
      if (Object.values(changes).every((l) => l.length === 0)) {
        throw ChatError.badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
      }
      return changeMembership(engine, user, params.user_group_id, changes);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/user_groups/{user_group_id}/subgroups',
    response: 'empty',
    auth: 'member',
    summary: "change a group's subgroups",
    params: [groupIdInPath, ids('add'), ids('delete')],
    handler({ engine, user, params }) {
      const add = params.add ?? [];
      const remove = params.delete ?? [];
      if (add.length === 0 && remove.length === 0) throw ChatError.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      return changeMembership(engine, user, params.user_group_id, { add: [], delete: [], add_subgroups: add, delete_subgroups: remove });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    response: 'get-user-group-members',
    auth: 'member',
    summary: "a group's members, through its subgroups unless direct_member_only",
    params: [groupIdInPath, flag('direct_member_only')],
    handler({ engine, params }) {
      return { members: groupMembers(engine, params.user_group_id, params.direct_member_only) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members/{user_id}',
    response: 'get-is-user-group-member',
    auth: 'member',
    summary: 'whether a user is in a group',
    params: [groupIdInPath, { name: 'user_id', type: 'int', in: 'path', required: true }, flag('direct_member_only')],
    handler({ engine, params }) {
      const member = isGroupMember(engine, params.user_group_id, params.user_id, params.direct_member_only);
      return { is_user_group_member: member };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user_groups/{user_group_id}/subgroups',
    response: 'get-user-group-subgroups',
    auth: 'member',
    summary: "a group's subgroups, recursively unless direct_subgroup_only",
    params: [groupIdInPath, flag('direct_subgroup_only')],
    handler({ engine, params }) {
      return { subgroups: groupSubgroups(engine, params.user_group_id, params.direct_subgroup_only) };
    },
  }),
];
