/** The role groups every realm has (zerver/lib/user_groups.py:create_system_user_groups_for_realm), and fixture groups. */
import { describe, expect, it } from 'vitest';
import { ROLE } from '../../simulator/engine/state.ts';
import { joinSystemGroups, moveBetweenSystemGroups } from '../../simulator/engine/groups/system-groups.ts';
import { FixtureError } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim } from './helpers.ts';

const byName = (s: ReturnType<typeof sim>, name: string) => [...s.engine.state.userGroups.values()].find((g) => g.name === name)!;
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);

describe('system groups', () => {
  const rows: [string, number, string, string | null][] = [
    ['role:nobody', 9, 'Nobody', null],
    ['role:owners', 10, 'Owners of this organization', null],
    ['role:administrators', 11, 'Administrators of this organization, including owners', 'role:owners'],
    ['role:moderators', 12, 'Moderators of this organization, including administrators', 'role:administrators'],
    ['role:fullmembers', 13, 'Members of this organization, not including new accounts and guests', 'role:moderators'],
    ['role:members', 14, 'Members of this organization, not including guests', 'role:fullmembers'],
    ['role:everyone', 15, 'Everyone in this organization, including guests', 'role:members'],
    ['role:internet', 16, 'Everyone on the Internet', 'role:everyone'],
  ];
  it.each(rows)('%s: id %i, its description, the next stricter group as its one subgroup', (name, id, description, subgroup) => {
    const s = sim();
    const group = byName(s, name);
    expect(group).toMatchObject({ id, description, is_system_group: true, creator_id: null, date_created: null, deactivated: false });
    expect([...group.subgroups]).toEqual(subgroup === null ? [] : [byName(s, subgroup).id]);
    // Nobody may join, leave, manage or mention a role group.
    expect(Object.values(group.settings)).toEqual(Array(6).fill(9));
  });

  it('holds each role directly, bots included and system bots left out', () => {
    const s = sim();
    expect(sorted(byName(s, 'role:owners').members)).toEqual([ID.desdemona]);
    expect(sorted(byName(s, 'role:administrators').members)).toEqual([ID.iago]);
    expect(sorted(byName(s, 'role:moderators').members)).toEqual([ID.shiva]);
    const members = [ID.aaron, ID.zoe, ID.cordelia, ID.hamlet, ID.othello, ID.prospero, ID.defaultBot, ID.webhookBot, ID.outgoingBot];
    expect(sorted(byName(s, 'role:members').members)).toEqual(members);
    // The dev realm has no waiting period: every member is a full member.
    expect(sorted(byName(s, 'role:fullmembers').members)).toEqual(members);
    expect(sorted(byName(s, 'role:everyone').members)).toEqual([ID.polonius]);
    expect(byName(s, 'role:nobody').members.size + byName(s, 'role:internet').members.size).toBe(0);
  });

  it('keeps members who joined within the waiting period out of role:fullmembers', () => {
    const fixture = devFixture();
    fixture.realm.waiting_period_threshold = 1;
    // An hour before the simulator's clock; the others joined over a day before it.
    fixture.users.find((u) => u.email === 'hamlet@zulip.com')!.date_joined = NOW - 3600;
    const s = sim({ fixture });
    expect(byName(s, 'role:members').members.has(ID.hamlet)).toBe(true);
    expect(byName(s, 'role:fullmembers').members.has(ID.hamlet)).toBe(false);
    expect(byName(s, 'role:fullmembers').members.has(ID.othello)).toBe(true);
  });

  it('a role change moves the user between groups, with events to every active user', () => {
    const s = sim();
    const hamlet = s.engine.state.users.get(ID.hamlet)!;
    hamlet.role = ROLE.moderator;
    const events = moveBetweenSystemGroups(s.engine, hamlet, ROLE.member, NOW);
    expect(byName(s, 'role:members').members.has(ID.hamlet)).toBe(false);
    expect(byName(s, 'role:fullmembers').members.has(ID.hamlet)).toBe(false);
    expect(byName(s, 'role:moderators').members.has(ID.hamlet)).toBe(true);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'user_group', op: 'remove_members', group_id: 14, user_ids: [ID.hamlet] },
      { type: 'user_group', op: 'add_members', group_id: 12, user_ids: [ID.hamlet] },
      { type: 'user_group', op: 'remove_members', group_id: 13, user_ids: [ID.hamlet] },
    ]);
    const everyone = [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id);
    for (const e of events) expect(e.users).toEqual(everyone);
  });

  it('a new member joins role:members and role:fullmembers', () => {
    const s = sim();
    const user = { ...s.engine.state.users.get(ID.hamlet)!, id: 99, date_joined: NOW };
    s.engine.state.users.set(99, user);
    const events = joinSystemGroups(s.engine, user, NOW);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'user_group', op: 'add_members', group_id: 14, user_ids: [99] },
      { type: 'user_group', op: 'add_members', group_id: 13, user_ids: [99] },
    ]);
    expect(byName(s, 'role:members').members.has(99)).toBe(true);
  });

  it('deactivating a user leaves memberships alone (listings filter by activity)', async () => {
    const s = sim();
    const res = await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect(res.status).toBe(200);
    expect(byName(s, 'role:members').members.has(ID.othello)).toBe(true);
  });
});

describe('fixture user groups', () => {
  it("loads the dev realm's hamletcharacters as populate_db makes it", () => {
    const s = sim();
    const group = byName(s, 'hamletcharacters');
    expect(group).toMatchObject({
      id: 17,
      description: 'Characters of Hamlet',
      is_system_group: false,
      creator_id: ID.cordelia,
      date_created: 1_700_000_000,
      deactivated: false,
      settings: {
        can_add_members_group: { direct_members: [ID.cordelia], direct_subgroups: [] },
        can_join_group: 9,
        can_leave_group: 15,
        can_manage_group: { direct_members: [ID.cordelia], direct_subgroups: [] },
        can_mention_group: 15,
        can_remove_members_group: 9,
      },
    });
    expect(sorted(group.members)).toEqual([ID.cordelia, ID.hamlet]);
  });

  it('takes settings by group name or as an anonymous group', () => {
    const fixture = devFixture();
    fixture.user_groups!.push({
      name: 'leads',
      subgroups: ['hamletcharacters', 'role:moderators'],
      can_mention_group: 'role:administrators',
      can_manage_group: { direct_members: ['iago@zulip.com'], direct_subgroups: ['hamletcharacters'] },
    });
    const s = sim({ fixture });
    const leads = byName(s, 'leads');
    expect(leads.id).toBe(18);
    expect(sorted(leads.subgroups)).toEqual([12, 17]);
    // No creator: the settings that default to the creator fall back to role:nobody.
    expect(leads.settings).toMatchObject({
      can_add_members_group: 9,
      can_mention_group: 11,
      can_manage_group: { direct_members: [ID.iago], direct_subgroups: [17] },
    });
  });

  const problems: [string, (f: ReturnType<typeof devFixture>) => void, string][] = [
    ['a system group name', (f) => f.user_groups!.push({ name: 'role:members' }), '/user_groups/1/name: duplicate group name role:members'],
    ['a reserved prefix', (f) => f.user_groups!.push({ name: '@team' }), '/user_groups/1/name: group names may not start with'],
    ['a taken id', (f) => f.user_groups!.push({ name: 'x', id: 12 }), '/user_groups/1/id: group id 12 is taken'],
    ['an unknown member', (f) => f.user_groups!.push({ name: 'x', members: ['ghost@zulip.com'] }), '/user_groups/1/members/0: no user with email ghost@zulip.com'],
    ['a later subgroup', (f) => f.user_groups!.unshift({ name: 'x', subgroups: ['hamletcharacters'] }), '/user_groups/0/subgroups/0: no system group or earlier group named hamletcharacters'],
    ['an unknown setting group', (f) => f.user_groups!.push({ name: 'x', can_join_group: { direct_subgroups: ['ghosts'] } }), '/user_groups/1/can_join_group/direct_subgroups/0'],
  ];
  it.each(problems)('refuses %s', (_label, mutate, expected) => {
    const fixture = devFixture();
    mutate(fixture);
    expect(() => sim({ fixture })).toThrow(FixtureError);
    expect(() => sim({ fixture })).toThrow(expected);
  });
});
