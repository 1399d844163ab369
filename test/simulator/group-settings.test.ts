/**
 * GroupSetting values (zerver/lib/user_groups.py): the shape parser and the validation every setting
 * shares, as properties over arbitrary input, and the system groups each setting refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUserInGroupSetting } from '../../simulator/engine/core.ts';
import { ChatError } from '../../simulator/engine/errors.ts';
import {
  SETTING_RULES,
  accessGroupSetting,
  parseGroupSettingChange,
  parseGroupSettingValue,
  sameGroupSetting,
} from '../../simulator/engine/groups/groups.ts';
import type { GroupSettingValue } from '../../simulator/engine/state.ts';
import { sim } from './helpers.ts';

/** Every message the shape parser may answer with, for a setting named `x`. */
const SHAPE_ERRORS = [
  /^x is not an integer$/,
  /^Argument ".*" at x is unexpected$/s,
  /^x\["direct_members"\] is not a list$/,
  /^x\["direct_subgroups"\] is not a list$/,
];

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('parseGroupSettingValue', () => {
  it('keeps integers and well-formed anonymous groups as they are', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.record({ direct_members: fc.array(fc.integer()), direct_subgroups: fc.array(fc.integer()) }),
          fc.record({ direct_members: fc.array(fc.integer()) }).map((v) => ({ ...v, direct_subgroups: [] })),
        ),
        (value) => {
          expect(parseGroupSettingValue(JSON.parse(JSON.stringify(value)), 'x')).toEqual(value);
        },
      ),
      { numRuns: 300, seed: 41 },
    );
  });

  it('answers anything else with a BAD_REQUEST from its templates, never another exception', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const error = thrown(() => parseGroupSettingValue(value, 'x'));
        if (error === undefined) return;
        expect(error).toBeInstanceOf(ChatError);
        expect((error as ChatError).code).toBe('BAD_REQUEST');
        expect(SHAPE_ERRORS.some((re) => re.test((error as ChatError).msg))).toBe(true);
      }),
      { numRuns: 500, seed: 42 },
    );
  });

  it("names the nested value in PATCH's {new, old} change requests", () => {
    expect(parseGroupSettingChange({ new: 12, old: { direct_members: [1], direct_subgroups: [] } }, 'can_manage_group')).toEqual({
      new: 12,
      old: { direct_members: [1], direct_subgroups: [] },
    });
    const cases: [unknown, string][] = [
      [12, 'can_manage_group is not a dict'],
      [{}, 'can_manage_group["new"] is missing'],
      [{ new: 'x' }, 'can_manage_group["new"] is not an integer'],
      [{ new: 1, old: [] }, 'can_manage_group["old"] is not an integer'],
      [{ new: 1, older: 2 }, 'Argument "older" at can_manage_group is unexpected'],
    ];
    for (const [value, msg] of cases) expect((thrown(() => parseGroupSettingChange(value, 'can_manage_group')) as ChatError).msg).toBe(msg);
  });
});

describe('accessGroupSetting on anonymous groups', () => {
  const s = sim();
  const engine = s.engine;
  const userIds = [...engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
  const groupIds = [...engine.state.userGroups.keys()].filter((id) => engine.state.userGroups.get(id)!.name !== 'role:internet');
  const anonymous = fc.record({
    direct_members: fc.array(fc.constantFrom(...userIds), { maxLength: 6 }),
    direct_subgroups: fc.array(fc.constantFrom(...groupIds), { maxLength: 3 }),
  });

  it('stores sorted, unique ids; is idempotent; grants exactly what was asked', () => {
    fc.assert(
      fc.property(anonymous, (value) => {
        const stored = accessGroupSetting(engine, 'can_remove_subscribers_group', value);
        if (typeof stored !== 'number') {
          for (const list of [stored.direct_members, stored.direct_subgroups]) {
            expect(list).toEqual([...new Set(list)].sort((a, b) => a - b));
          }
        }
        expect(accessGroupSetting(engine, 'can_remove_subscribers_group', stored)).toEqual(stored);
        expect(sameGroupSetting(stored, value) || typeof stored === 'number').toBe(true);
        for (const userId of userIds) {
          expect(isUserInGroupSetting(engine, userId, stored)).toBe(isUserInGroupSetting(engine, userId, value));
        }
      }),
      { numRuns: 200, seed: 43 },
    );
  });

  it('names the first unknown member in list order, then the first unknown subgroup', () => {
    fc.assert(
      fc.property(anonymous, fc.integer({ min: 1000, max: 2000 }), fc.integer({ min: 1000, max: 2000 }), (value, badUser, badGroup) => {
        const members = [...value.direct_members, badUser, badUser - 500];
        const withUser: GroupSettingValue = { direct_members: members, direct_subgroups: [...value.direct_subgroups, badGroup] };
        expect((thrown(() => accessGroupSetting(engine, 'can_leave_group', withUser)) as ChatError).msg).toBe(`Invalid user ID: ${badUser}`);
        const withGroup: GroupSettingValue = { direct_members: [userIds[0]!], direct_subgroups: [...value.direct_subgroups, badGroup] };
        expect((thrown(() => accessGroupSetting(engine, 'can_leave_group', withGroup)) as ChatError).msg).toBe(`Invalid user group ID: ${badGroup}`);
      }),
      { numRuns: 100, seed: 44 },
    );
  });

  it('normalises: no members and one subgroup is that group, nothing at all is role:nobody', () => {
    expect(accessGroupSetting(engine, 'can_leave_group', { direct_members: [], direct_subgroups: [17] })).toBe(17);
    expect(accessGroupSetting(engine, 'can_leave_group', { direct_members: [], direct_subgroups: [] })).toBe(9);
  });
});

describe('system groups each setting refuses', () => {
  // zerver/lib/user_groups.py and Stream.stream_permission_group_settings; the project's
  // specification adds role:owners for can_mention_group.
  const REFUSED: Record<string, string[]> = {
    can_add_subscribers_group: ['role:internet', 'role:everyone'],
    can_administer_channel_group: ['role:internet', 'role:everyone'],
    can_subscribe_group: ['role:internet', 'role:everyone'],
    can_add_members_group: ['role:internet', 'role:everyone'],
    can_join_group: ['role:internet', 'role:everyone'],
    can_manage_group: ['role:internet', 'role:everyone'],
    can_remove_members_group: ['role:internet', 'role:everyone'],
    can_mention_group: ['role:internet', 'role:owners'],
    can_leave_group: ['role:internet'],
    can_create_groups: ['role:internet', 'role:everyone'],
    can_manage_all_groups: ['role:internet', 'role:everyone'],
    create_multiuse_invite_group: ['role:internet', 'role:everyone'],
    can_invite_users_group: ['role:internet', 'role:everyone'],
  };
  const s = sim();
  const systemGroups = Object.entries(s.engine.state.realm.system_groups);
  const rows = Object.keys(SETTING_RULES).flatMap((setting) => systemGroups.map(([name, id]) => [setting, name, id] as const));

  it.each(rows)('%s = %s', (setting, name, id) => {
    const refused = REFUSED[setting] ?? ['role:internet'];
    const error = thrown(() => accessGroupSetting(s.engine, setting, id));
    if (refused.includes(name)) expect((error as ChatError).msg).toBe(`'${setting}' setting cannot be set to '${name}' group.`);
    else expect(error).toBeUndefined();
  });

  it('refuses unknown and deactivated groups by id', () => {
    const engine = sim().engine;
    expect((thrown(() => accessGroupSetting(engine, 'can_join_group', 999)) as ChatError).msg).toBe('Invalid user group');
    engine.state.userGroups.get(17)!.deactivated = true;
    expect((thrown(() => accessGroupSetting(engine, 'can_join_group', 17)) as ChatError).msg).toBe('User group is deactivated.');
    const anonymous = { direct_members: [10], direct_subgroups: [17] };
    expect((thrown(() => accessGroupSetting(engine, 'can_join_group', anonymous)) as ChatError).msg).toBe('User group is deactivated.');
  });
});
