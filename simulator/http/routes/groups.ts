/**
 * User group endpoints (zerver/views/user_groups.py, zerver/actions/user_groups.py). Guests are refused everywhere but deactivation
 * (which has no decorator upstream and answers `Insufficient permission` instead); bots are
 * accepted, as from feature level 496.
 */
import { commit } from '../../engine/core.ts';
import { ChatError } from '../../engine/errors.ts';
import { parseGroupSettingChange, parseGroupSettingValue, type GroupSettingChange } from '../../engine/groups.ts';
import { USER_GROUP_SETTINGS, type GroupSettingValue, type UserGroupSetting } from '../../engine/state.ts';
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
} from '../../engine/user-groups.ts';
import type { ParamSpec, Route, RouteContext } from '../route.ts';

const groupIdInPath: ParamSpec = { name: 'user_group_id', type: 'int', in: 'path', required: true };
const ids = (name: string): ParamSpec => ({ name, type: 'int_array' });
const flag = (name: string): ParamSpec => ({ name, type: 'bool', default: false });

function settingsOf<T>(params: Record<string, unknown>): Partial<Record<UserGroupSetting, T>> {
  const out: Partial<Record<UserGroupSetting, T>> = {};
  for (const key of USER_GROUP_SETTINGS) if (params[key] !== undefined) out[key] = params[key] as T;
  return out;
}

const list = (params: Record<string, unknown>, name: string): number[] => (params[name] as number[] | undefined) ?? [];

function changeMembership({ engine, user, params }: RouteContext, changes: Parameters<typeof updateGroupMembership>[3]) {
  commit(engine, updateGroupMembership(engine, user!, params.user_group_id as number, changes));
  return {};
}

export const groupRoutes: Route[] = [
  {
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
      ...USER_GROUP_SETTINGS.map((name): ParamSpec => ({ name, type: 'json', validate: parseGroupSettingValue })),
      { name: 'description', type: 'string', required: true },
      { name: 'members', type: 'int_array', required: true },
      { name: 'name', type: 'string', required: true },
      ids('subgroups'),
    ],
    handler({ engine, user, params }) {
      return commit(
        engine,
        createUserGroup(engine, user!, {
          name: params.name as string,
          description: params.description as string,
          members: params.members as number[],
          subgroups: list(params, 'subgroups'),
          settings: settingsOf<GroupSettingValue>(params),
        }),
      );
    },
  },
  {
    method: 'GET',
    path: '/user_groups',
    response: 'get-user-groups',
    auth: 'member',
    summary: "the realm's user groups, system groups included",
    params: [flag('include_deactivated_groups')],
    handler({ engine, params }) {
      return { user_groups: listUserGroups(engine, params.include_deactivated_groups as boolean) };
    },
  },
  {
    method: 'PATCH',
    path: '/user_groups/{user_group_id}',
    response: 'empty',
    auth: 'member',
    summary: "change a group's name, description, settings, or reactivate it",
    params: [
      groupIdInPath,
      ...USER_GROUP_SETTINGS.map((name): ParamSpec => ({ name, type: 'json', validate: parseGroupSettingChange })),
      { name: 'deactivated', type: 'bool' },
      { name: 'description', type: 'string' },
      { name: 'name', type: 'string' },
    ],
    handler({ engine, user, params }) {
      commit(
        engine,
        updateUserGroup(engine, user!, params.user_group_id as number, {
          name: params.name as string | undefined,
          description: params.description as string | undefined,
          deactivated: params.deactivated as boolean | undefined,
          settings: settingsOf<GroupSettingChange>(params),
        }),
      );
      return {};
    },
  },
  {
    method: 'POST',
    path: '/user_groups/{user_group_id}/deactivate',
    response: 'empty',
    auth: 'user',
    summary: 'deactivate a user group no setting uses',
    params: [groupIdInPath],
    handler({ engine, user, params }) {
      commit(engine, deactivateUserGroup(engine, user!, params.user_group_id as number));
      return {};
    },
  },
  {
    method: 'POST',
    path: '/user_groups/{user_group_id}/members',
    response: 'empty',
    auth: 'member',
    summary: "change a group's members (and subgroups)",
    params: [groupIdInPath, ids('add'), ids('add_subgroups'), ids('delete'), ids('delete_subgroups')],
    handler(ctx) {
      const changes = {
        add: list(ctx.params, 'add'),
        delete: list(ctx.params, 'delete'),
        add_subgroups: list(ctx.params, 'add_subgroups'),
        delete_subgroups: list(ctx.params, 'delete_subgroups'),
      };
      if (Object.values(changes).every((l) => l.length === 0)) {
        throw ChatError.badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
      }
      return changeMembership(ctx, changes);
    },
  },
  {
    method: 'POST',
    path: '/user_groups/{user_group_id}/subgroups',
    response: 'empty',
    auth: 'member',
    summary: "change a group's subgroups",
    params: [groupIdInPath, ids('add'), ids('delete')],
    handler(ctx) {
      const add = list(ctx.params, 'add');
      const remove = list(ctx.params, 'delete');
      if (add.length === 0 && remove.length === 0) throw ChatError.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      return changeMembership(ctx, { add: [], delete: [], add_subgroups: add, delete_subgroups: remove });
    },
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    response: 'get-user-group-members',
    auth: 'member',
    summary: "a group's members, through its subgroups unless direct_member_only",
    params: [groupIdInPath, flag('direct_member_only')],
    handler({ engine, params }) {
      return { members: groupMembers(engine, params.user_group_id as number, params.direct_member_only as boolean) };
    },
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/members/{user_id}',
    response: 'get-is-user-group-member',
    auth: 'member',
    summary: 'whether a user is in a group',
    params: [groupIdInPath, { name: 'user_id', type: 'int', in: 'path', required: true }, flag('direct_member_only')],
    handler({ engine, params }) {
      const member = isGroupMember(engine, params.user_group_id as number, params.user_id as number, params.direct_member_only as boolean);
      return { is_user_group_member: member };
    },
  },
  {
    method: 'GET',
    path: '/user_groups/{user_group_id}/subgroups',
    response: 'get-user-group-subgroups',
    auth: 'member',
    summary: "a group's subgroups, recursively unless direct_subgroup_only",
    params: [groupIdInPath, flag('direct_subgroup_only')],
    handler({ engine, params }) {
      return { subgroups: groupSubgroups(engine, params.user_group_id as number, params.direct_subgroup_only as boolean) };
    },
  },
];
