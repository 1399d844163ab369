// PATCH /realm's workplace_users_group (feature level 477): besides the limits every realm group
// setting has (no role:everyone, role:nobody or role:internet), Zulip's
// validate_workplace_users_group (zerver/lib/workplace_users.py) takes a user-made group only if
// administrators alone can change its members, and those of every group below it
// (check_group_membership_management_permissions_with_admins_only, zerver/lib/user_groups.py).
import { describe, expect, test } from 'vitest';
import { realmSettingsState } from '../../simulator/engine/realm/settings.ts';
import type { Simulator } from '../../simulator/index.ts';
import { error, patch, post } from './messages/helpers.ts';
import { sim, watchEvents } from './helpers.ts';

const IAGO = 'iago@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';
const REFUSED = "'workplace_users_group' must be a group whose membership can only be managed by organization administrators.";

const json = (v: unknown) => JSON.stringify(v);
const role = (s: Simulator, name: string) => s.engine.state.realm.system_groups[name]!;
const hamletCharacters = (s: Simulator) => [...s.engine.state.userGroups.values()].find((g) => g.name === 'hamletcharacters')!.id;

function setWorkplace(s: Simulator, value: unknown, as = IAGO) {
  return patch(s, as, '/realm', { workplace_users_group: json({ new: value }) });
}

/** A group whose five membership settings are the ones given (administrators only by default). */
async function createGroup(s: Simulator, name: string, settings: Record<string, unknown> = {}, subgroups: number[] = []): Promise<number> {
  const admins = role(s, 'role:administrators');
  const all = {
    can_add_members_group: admins,
    can_join_group: role(s, 'role:nobody'),
    can_leave_group: role(s, 'role:owners'),
    can_manage_group: admins,
    can_remove_members_group: admins,
    ...settings,
  };
  const res = await post(s, DESDEMONA, '/user_groups/create', {
    name,
    description: name,
    members: json([11]),
    subgroups: json(subgroups),
    ...Object.fromEntries(Object.entries(all).map(([k, v]) => [k, json(v)])),
  });
  expect(res.status).toBe(200);
  return res.body.group_id as number;
}

async function expectRefused(s: Simulator, value: unknown, message = REFUSED) {
  const before = structuredClone(realmSettingsState(s.engine));
  const watch = watchEvents(s);
  const res = await setWorkplace(s, value);
  expect(res.status).toBe(400);
  expect(res.body).toEqual(error('BAD_REQUEST', message));
  expect(realmSettingsState(s.engine)).toEqual(before);
  expect(watch.take()).toEqual([]);
}

describe('PATCH /realm workplace_users_group: system groups', () => {
  test.each(['role:administrators', 'role:moderators', 'role:fullmembers', 'role:owners'])(
    '%s is taken: its members change only with roles',
    async (name) => {
      const s = sim();
      const res = await setWorkplace(s, role(s, name));
      expect(res.body).toEqual({ result: 'success', msg: '', workplace_users_group: role(s, name) });
      expect(s.engine.state.realm.workplace_users_group).toBe(role(s, name));
    },
  );

  test.each(['role:everyone', 'role:nobody', 'role:internet'])('%s is refused, as for the other realm settings', async (name) => {
    const s = sim();
    await expectRefused(s, role(s, name), `'workplace_users_group' setting cannot be set to '${name}' group.`);
  });

  test('an unknown or deactivated group is refused', async () => {
    const s = sim();
    await expectRefused(s, 9999, 'Invalid user group');
    const id = await createGroup(s, 'gone');
    expect((await post(s, DESDEMONA, `/user_groups/${id}/deactivate`, {})).status).toBe(200);
    await expectRefused(s, id, 'User group is deactivated.');
  });
});

describe('PATCH /realm workplace_users_group: user-made groups', () => {
  test('the dev realm’s hamletcharacters is refused: its creator manages it and anyone may leave', async () => {
    const s = sim();
    await expectRefused(s, hamletCharacters(s));
  });

  test('a group only administrators can change is taken, with the realm event', async () => {
    const s = sim();
    const id = await createGroup(s, 'staff');
    const watch = watchEvents(s);
    const res = await setWorkplace(s, id);
    expect(res.body).toEqual({ result: 'success', msg: '', workplace_users_group: id });
    expect(watch.take().map((e) => e.event)).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { workplace_users_group: id } }]);
  });

  test.each([
    ['can_add_members_group', 'role:moderators'],
    ['can_join_group', 'role:members'],
    ['can_leave_group', 'role:everyone'],
    ['can_manage_group', 'role:moderators'],
    ['can_remove_members_group', 'role:fullmembers'],
  ])('a group whose %s is %s is refused', async (setting, value) => {
    const s = sim();
    const id = await createGroup(s, 'staff', { [setting]: role(s, value) });
    await expectRefused(s, id);
  });

  test('an anonymous group in a membership setting is refused, even of administrators only', async () => {
    const s = sim();
    const id = await createGroup(s, 'staff', { can_manage_group: { direct_members: [8], direct_subgroups: [role(s, 'role:administrators')] } });
    await expectRefused(s, id);
  });

  test('can_mention_group does not count: anyone may mention the group', async () => {
    const s = sim();
    const id = await createGroup(s, 'staff', { can_mention_group: role(s, 'role:everyone') });
    expect((await setWorkplace(s, id)).status).toBe(200);
  });

  test('every group below counts: a subgroup others may join is refused', async () => {
    const s = sim();
    const open = await createGroup(s, 'open', { can_join_group: role(s, 'role:members') });
    const top = await createGroup(s, 'top', {}, [open]);
    await expectRefused(s, top);
    const closed = await createGroup(s, 'closed');
    const top2 = await createGroup(s, 'top2', {}, [closed, role(s, 'role:moderators')]);
    expect((await setWorkplace(s, top2)).body.workplace_users_group).toBe(top2);
  });

  test('the realm’s can_manage_all_groups must be administrators-only too', async () => {
    const s = sim();
    const id = await createGroup(s, 'staff');
    const widen = await patch(s, DESDEMONA, '/realm', { can_manage_all_groups: json({ new: role(s, 'role:moderators') }) });
    expect(widen.status).toBe(200);
    await expectRefused(s, id);
    // A system group stays acceptable: only roles change its members.
    expect((await setWorkplace(s, role(s, 'role:administrators'))).status).toBe(200);
  });
});

describe('PATCH /realm workplace_users_group: anonymous groups', () => {
  test('users and system subgroups are taken: the members change only through this setting', async () => {
    const s = sim();
    const value = { direct_members: [10, 8], direct_subgroups: [role(s, 'role:moderators')] };
    const res = await setWorkplace(s, value);
    expect(res.body.workplace_users_group).toEqual({ direct_members: [8, 10], direct_subgroups: [role(s, 'role:moderators')] });
  });

  test('a user-made subgroup must pass as a named group would', async () => {
    const s = sim();
    await expectRefused(s, { direct_members: [8], direct_subgroups: [hamletCharacters(s), role(s, 'role:moderators')] });
    const staff = await createGroup(s, 'staff');
    const res = await setWorkplace(s, { direct_members: [8], direct_subgroups: [staff] });
    expect(res.body.workplace_users_group).toEqual({ direct_members: [8], direct_subgroups: [staff] });
  });
});
