/**
 * User groups (zerver/views/user_groups.py, zerver/actions/user_groups.py) through the in-process API: each endpoint's
 * answer and state change, its errors in Zulip's order, who may and who may not, and the events
 * with their recipients.
 */
import { describe, expect, it } from 'vitest';
import { userGroupsRegisterState } from '../../simulator/engine/groups/user-groups.ts';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';

const HAMLETCHARACTERS = 17;
const CORE_TEAM = 8;
const G = { nobody: 9, owners: 10, administrators: 11, moderators: 12, fullmembers: 13, members: 14, everyone: 15, internet: 16 };

type Body = Record<string, unknown>;
const encode = (body: Body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

function call(s: Simulator, method: string, path: string, as: number, body: Body = {}) {
  const form = encode(body);
  return s.request({ method, path: `/api/v1${path}`, as, ...(method === 'GET' ? { query: form } : { body: form }) });
}

const create = (s: Simulator, as: number, body: Body) => call(s, 'POST', '/user_groups/create', as, { description: '', members: [], ...body });
const members = (s: Simulator, as: number, id: number, body: Body) => call(s, 'POST', `/user_groups/${id}/members`, as, body);
const patch = (s: Simulator, as: number, id: number, body: Body) => call(s, 'PATCH', `/user_groups/${id}`, as, body);
const deactivate = (s: Simulator, as: number, id: number) => call(s, 'POST', `/user_groups/${id}/deactivate`, as);
const groups = async (s: Simulator, query: Body = {}) => (await call(s, 'GET', '/user_groups', ID.iago, query)).body.user_groups as Body[];
const group = async (s: Simulator, id: number) => (await groups(s, { include_deactivated_groups: true })).find((g) => g.id === id)!;

/** The events users' queues received while `action` ran, each with who got it. */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

/** Every active user but the system bots: who hears about user groups. */
const realmUsers = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id).sort((a, b) => a - b);

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

describe('POST /user_groups/create', () => {
  it('creates the group with the creator managing it and tells every active user', async () => {
    const s = sim();
    let res: Awaited<ReturnType<typeof create>> | undefined;
    const events = await eventsOf(s, async () => {
      res = await create(s, ID.hamlet, { name: 'support', description: 'Help desk', members: [ID.othello, ID.iago, ID.othello], subgroups: [HAMLETCHARACTERS, G.moderators] });
    });
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ result: 'success', msg: '', group_id: 18 });
    const created = {
      id: 18,
      name: 'support',
      creator_id: ID.hamlet,
      date_created: NOW,
      description: 'Help desk',
      members: [ID.iago, ID.othello],
      direct_subgroup_ids: [G.moderators, HAMLETCHARACTERS],
      is_system_group: false,
      can_add_members_group: { direct_members: [ID.hamlet], direct_subgroups: [] },
      can_join_group: G.nobody,
      can_leave_group: G.everyone,
      can_manage_group: { direct_members: [ID.hamlet], direct_subgroups: [] },
      can_mention_group: G.everyone,
      can_remove_members_group: G.nobody,
      deactivated: false,
    };
    expect(await group(s, 18)).toEqual(created);
    // The add event never carries subgroups: they follow in their own event.
    expect(events).toEqual([
      { event: { type: 'user_group', op: 'add', group: { ...created, direct_subgroup_ids: [] } }, users: realmUsers(s) },
      { event: { type: 'user_group', op: 'add_subgroups', group_id: 18, direct_subgroup_ids: [G.moderators, HAMLETCHARACTERS] }, users: realmUsers(s) },
    ]);
  });

  it('takes every group setting, named or anonymous, normalised', async () => {
    const s = sim();
    const res = await create(s, ID.hamlet, {
      name: 'x',
      can_add_members_group: G.moderators,
      can_join_group: { direct_members: [ID.othello, ID.iago], direct_subgroups: [] },
      can_leave_group: { direct_members: [], direct_subgroups: [HAMLETCHARACTERS] },
      can_manage_group: { direct_members: [], direct_subgroups: [] },
      can_mention_group: G.everyone,
      can_remove_members_group: { direct_members: [ID.cordelia], direct_subgroups: [G.administrators] },
    });
    expect(res.status).toBe(200);
    expect(await group(s, 18)).toMatchObject({
      can_add_members_group: G.moderators,
      can_join_group: { direct_members: [ID.iago, ID.othello], direct_subgroups: [] },
      can_leave_group: HAMLETCHARACTERS,
      can_manage_group: G.nobody,
      can_mention_group: G.everyone,
      can_remove_members_group: { direct_members: [ID.cordelia], direct_subgroups: [G.administrators] },
    });
  });

  const bad: [string, Body, string][] = [
    ['an unknown member', { name: 'x', members: [ID.othello, 999, 998] }, 'Invalid user ID: 999'],
    ['a system bot', { name: 'x', members: [4] }, 'Invalid user ID: 4'],
    ['a blank name', { name: '   ' }, "User group name can't be empty!"],
    ['101 code points', { name: '😀'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
    ['an @ name', { name: '@team' }, "User group name cannot start with '@'."],
    ['a role: name', { name: 'role:team' }, "User group name cannot start with 'role:'."],
    ['a user: name', { name: 'user:team' }, "User group name cannot start with 'user:'."],
    ['a stream: name', { name: 'stream:team' }, "User group name cannot start with 'stream:'."],
    ['a channel: name', { name: 'channel:team' }, "User group name cannot start with 'channel:'."],
    ['a taken name', { name: 'hamletcharacters' }, "User group 'hamletcharacters' already exists."],
    ['role:internet', { name: 'x', can_leave_group: G.internet }, "'can_leave_group' setting cannot be set to 'role:internet' group."],
    ['role:everyone managing', { name: 'x', can_manage_group: G.everyone }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
    ['role:everyone adding', { name: 'x', can_add_members_group: G.everyone }, "'can_add_members_group' setting cannot be set to 'role:everyone' group."],
    ['role:everyone joining', { name: 'x', can_join_group: G.everyone }, "'can_join_group' setting cannot be set to 'role:everyone' group."],
    ['role:everyone removing', { name: 'x', can_remove_members_group: G.everyone }, "'can_remove_members_group' setting cannot be set to 'role:everyone' group."],
    ['role:owners mentioning (the spec)', { name: 'x', can_mention_group: G.owners }, "'can_mention_group' setting cannot be set to 'role:owners' group."],
    ['an unknown setting group', { name: 'x', can_mention_group: 999 }, 'Invalid user group'],
    ['an unknown setting member', { name: 'x', can_mention_group: { direct_members: [999], direct_subgroups: [] } }, 'Invalid user ID: 999'],
    ['a malformed setting', { name: 'x', can_mention_group: 'true' }, 'can_mention_group is not an integer'],
    ['an unknown subgroup', { name: 'x', subgroups: [G.members, 999] }, 'Invalid user group ID: 999'],
    // Checked in add_user_group's order: members, name, settings, uniqueness, subgroups.
    ['a bad member before a bad name', { name: '', members: [999] }, 'Invalid user ID: 999'],
    ['a bad name before a bad setting', { name: '@x', can_manage_group: G.everyone }, "User group name cannot start with '@'."],
    ['a bad setting before a taken name', { name: 'hamletcharacters', can_manage_group: G.everyone }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
    ['a taken name before a bad subgroup', { name: 'hamletcharacters', subgroups: [999] }, "User group 'hamletcharacters' already exists."],
  ];
  it.each(bad)('refuses %s, creating nothing', async (_label, body, msg) => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await create(s, ID.hamlet, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(msg));
    });
    expect(events).toEqual([]);
    expect(await groups(s)).toHaveLength(9);
  });

  it('accepts a 100-code-point name and another letter case of a taken one, stored untrimmed', async () => {
    const s = sim();
    expect((await create(s, ID.hamlet, { name: '😀'.repeat(100) })).status).toBe(200);
    expect((await create(s, ID.hamlet, { name: ' HamletCharacters ' })).status).toBe(200);
    expect((await group(s, 19)).name).toBe(' HamletCharacters ');
  });

  it('refuses deactivated users and deactivated subgroups', async () => {
    const s = sim();
    await call(s, 'DELETE', `/users/${ID.othello}`, ID.iago);
    expect((await create(s, ID.hamlet, { name: 'x', members: [ID.othello] })).body).toEqual(error(`Invalid user ID: ${ID.othello}`));
    expect((await deactivate(s, ID.cordelia, HAMLETCHARACTERS)).status).toBe(200);
    expect((await create(s, ID.hamlet, { name: 'x', subgroups: [HAMLETCHARACTERS] })).body).toEqual(error('User group is deactivated.'));
  });

  it('reports the first missing argument in parse order (description first)', async () => {
    const res = await call(sim(), 'POST', '/user_groups/create', ID.hamlet, {});
    expect(res.body).toEqual({ ...error("Missing 'description' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'description' });
  });

  it("follows the realm's can_create_groups, checked before any parameter; bots may create", async () => {
    const s = sim();
    s.engine.state.realm.can_create_groups = G.administrators;
    expect((await call(s, 'POST', '/user_groups/create', ID.hamlet, { members: 'garbage' })).body).toEqual(error('Insufficient permission'));
    expect((await create(s, ID.iago, { name: 'admins-only' })).status).toBe(200);
    expect((await create(sim(), ID.defaultBot, { name: 'bots' })).status).toBe(200);
    expect((await create(sim(), ID.polonius, { name: 'guests' })).body).toEqual(error('Not allowed for guest users'));
  });
});

describe('GET /user_groups', () => {
  it('lists every group by id with direct, active members; deactivated groups on request', async () => {
    const s = sim();
    await call(s, 'DELETE', `/users/${ID.hamlet}`, ID.iago);
    const listed = await groups(s);
    expect(listed.map((g) => g.id)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(listed[5]).toMatchObject({ name: 'role:members', members: [6, 7, 8, 12, 14, 16, 17, 18], direct_subgroup_ids: [G.fullmembers] });
    expect(listed[8]).toMatchObject({ name: 'hamletcharacters', members: [ID.cordelia] });
    await deactivate(s, ID.cordelia, HAMLETCHARACTERS);
    expect((await groups(s)).map((g) => g.id)).not.toContain(HAMLETCHARACTERS);
    expect(await group(s, HAMLETCHARACTERS)).toMatchObject({ deactivated: true });
  });

  it('gives /register the same objects', async () => {
    const s = sim();
    expect(userGroupsRegisterState(s.engine, { includeDeactivatedGroups: false }).realm_user_groups).toEqual(await groups(s));
  });
});

describe('POST /user_groups/{id}/members', () => {
  it("adds and removes members; the realm hears it, Notification Bot tells the others", async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      expect((await members(s, ID.cordelia, HAMLETCHARACTERS, { add: [ID.othello, ID.cordelia], delete: [ID.hamlet] })).status).toBe(400);
      const res = await members(s, ID.cordelia, HAMLETCHARACTERS, { add: [ID.othello, ID.defaultBot], delete: [ID.hamlet] });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    });
    expect((await group(s, HAMLETCHARACTERS)).members).toEqual([ID.cordelia, ID.othello, ID.defaultBot]);
    const realm = realmUsers(s);
    expect(events.filter((e) => e.event.type === 'user_group')).toEqual([
      { event: { type: 'user_group', op: 'add_members', group_id: HAMLETCHARACTERS, user_ids: [ID.othello, ID.defaultBot] }, users: realm },
      { event: { type: 'user_group', op: 'remove_members', group_id: HAMLETCHARACTERS, user_ids: [ID.hamlet] }, users: realm },
    ]);
    // Bots get no notice; the actor would not either.
    const notices = events.filter((e) => e.event.type === 'message').map((e) => (e.event.message as Body).content);
    expect(new Set(notices)).toEqual(
      new Set([
        `<p><span class="user-mention silent" data-user-id="${ID.cordelia}">Cordelia, Lear's daughter</span> added you to the group <span class="user-group-mention silent" data-user-group-id="17">hamletcharacters</span>.</p>`,
        `<p><span class="user-mention silent" data-user-id="${ID.cordelia}">Cordelia, Lear's daughter</span> removed you from the group <span class="user-group-mention silent" data-user-group-id="17">hamletcharacters</span>.</p>`,
      ]),
    );
  });

  const bad: [string, number, Body, string][] = [
    ['an existing member', ID.cordelia, { add: [ID.hamlet] }, `User ${ID.hamlet} is already a member of this group`],
    ['a non-member', ID.cordelia, { delete: [ID.othello] }, `There is no member '${ID.othello}' in this user group`],
    ['an unknown user', ID.cordelia, { add: [999] }, 'Invalid user ID: 999'],
    ['someone without permission', ID.hamlet, { add: [ID.othello] }, 'Insufficient permission'],
    ['an administrator (only owners manage every group)', ID.iago, { add: [ID.othello] }, 'Insufficient permission'],
    ['a user joining without can_join_group', ID.othello, { add: [ID.othello] }, 'Insufficient permission'],
    ['nothing to do', ID.cordelia, {}, 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'],
    ['an unknown group', ID.cordelia, { add: [ID.othello] }, 'Invalid user group'],
    ['a later failing step, undoing the earlier ones', ID.cordelia, { add: [ID.othello], delete: [ID.iago] }, `There is no member '${ID.iago}' in this user group`],
  ];
  it.each(bad)('refuses %s', async (label, as, body, msg) => {
    const s = sim();
    const id = label === 'an unknown group' ? 999 : HAMLETCHARACTERS;
    const events = await eventsOf(s, async () => {
      const res = await members(s, as, id, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(msg));
    });
    expect(events).toEqual([]);
    expect((await group(s, HAMLETCHARACTERS)).members).toEqual([ID.cordelia, ID.hamlet]);
  });

  it('never touches system groups, not even for owners', async () => {
    expect((await members(sim(), ID.desdemona, G.members, { add: [ID.polonius] })).body).toEqual(error('Insufficient permission'));
  });

  it('lets owners manage any group (can_manage_all_groups)', async () => {
    expect((await members(sim(), ID.desdemona, HAMLETCHARACTERS, { add: [ID.othello] })).status).toBe(200);
  });

  it('lets users join and leave by themselves under can_join_group / can_leave_group, without a notice', async () => {
    const s = sim();
    await patch(s, ID.cordelia, HAMLETCHARACTERS, { can_join_group: { new: G.members } });
    const events = await eventsOf(s, async () => {
      expect((await members(s, ID.othello, HAMLETCHARACTERS, { add: [ID.othello] })).status).toBe(200);
      expect((await members(s, ID.othello, HAMLETCHARACTERS, { add: [ID.iago] })).body).toEqual(error('Insufficient permission'));
      expect((await members(s, ID.hamlet, HAMLETCHARACTERS, { delete: [ID.hamlet] })).status).toBe(200);
    });
    expect(events.map((e) => e.event.op)).toEqual(['add_members', 'remove_members']);
    // can_leave_group refuses nobody by default (role:everyone) but a group may lock its members in.
    await patch(s, ID.cordelia, HAMLETCHARACTERS, { can_leave_group: { new: G.nobody } });
    expect((await members(s, ID.othello, HAMLETCHARACTERS, { delete: [ID.othello] })).body).toEqual(error('Insufficient permission'));
  });

  it('a member added to a group that can see a private channel gets the channel, and loses it again', async () => {
    const s = sim();
    s.engine.state.streams.get(CORE_TEAM)!.groups.can_subscribe_group = HAMLETCHARACTERS;
    const added = await eventsOf(s, () => members(s, ID.cordelia, HAMLETCHARACTERS, { add: [ID.othello] }));
    const create = added.find((e) => e.event.type === 'stream')!;
    expect(create.event).toMatchObject({ type: 'stream', op: 'create', streams: [{ stream_id: CORE_TEAM, name: 'core team' }] });
    expect(create.users).toEqual([ID.othello]);
    expect(added.find((e) => e.event.type === 'subscription')).toEqual({
      event: { type: 'subscription', op: 'peer_add', stream_ids: [CORE_TEAM], user_ids: [ID.desdemona, ID.hamlet, ID.iago] },
      users: [ID.othello],
    });
    const removed = await eventsOf(s, () => members(s, ID.cordelia, HAMLETCHARACTERS, { delete: [ID.othello, ID.cordelia] }));
    // Hamlet stays subscribed; Othello and Cordelia lose sight of the channel.
    expect(removed.find((e) => e.event.type === 'stream')).toEqual({
      event: { type: 'stream', op: 'delete', streams: [{ stream_id: CORE_TEAM }], stream_ids: [CORE_TEAM] },
      users: [ID.cordelia, ID.othello],
    });
  });
});

describe('subgroups', () => {
  async function withSupport(s: Simulator) {
    expect((await create(s, ID.cordelia, { name: 'support', subgroups: [HAMLETCHARACTERS] })).status).toBe(200);
    return 18;
  }

  it('adds and removes subgroups through /subgroups and /members', async () => {
    const s = sim();
    const support = await withSupport(s);
    const events = await eventsOf(s, async () => {
      expect((await call(s, 'POST', `/user_groups/${support}/subgroups`, ID.cordelia, { add: [G.moderators], delete: [HAMLETCHARACTERS] })).status).toBe(200);
      expect((await members(s, ID.cordelia, support, { add_subgroups: [G.owners] })).status).toBe(200);
    });
    expect((await group(s, support)).direct_subgroup_ids).toEqual([G.owners, G.moderators]);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: support, direct_subgroup_ids: [G.moderators] },
      { type: 'user_group', op: 'remove_subgroups', group_id: support, direct_subgroup_ids: [HAMLETCHARACTERS] },
      { type: 'user_group', op: 'add_subgroups', group_id: support, direct_subgroup_ids: [G.owners] },
    ]);
  });

  it('refuses cycles, repeats, strangers and unknown groups', async () => {
    const s = sim();
    const support = await withSupport(s);
    const sub = (as: number, id: number, body: Body) => call(s, 'POST', `/user_groups/${id}/subgroups`, as, body);
    expect((await sub(ID.cordelia, HAMLETCHARACTERS, { add: [support] })).body).toEqual(error(`User group ${HAMLETCHARACTERS} is already a subgroup of one of the passed subgroups.`));
    expect((await sub(ID.cordelia, support, { add: [support] })).body).toEqual(error(`User group ${support} is already a subgroup of one of the passed subgroups.`));
    expect((await sub(ID.cordelia, support, { add: [HAMLETCHARACTERS] })).body).toEqual(error(`User group ${HAMLETCHARACTERS} is already a subgroup of this group.`));
    expect((await sub(ID.cordelia, support, { delete: [G.owners] })).body).toEqual(error(`User group ${G.owners} is not a subgroup of this group.`));
    expect((await sub(ID.cordelia, support, { add: [G.owners, 999] })).body).toEqual(error('Invalid user group ID: 999'));
    expect((await sub(ID.hamlet, support, { add: [G.owners] })).body).toEqual(error('Insufficient permission'));
    expect((await sub(ID.cordelia, support, {})).body).toEqual(error('Nothing to do. Specify at least one of "add" or "delete".'));
    expect((await group(s, support)).direct_subgroup_ids).toEqual([HAMLETCHARACTERS]);
  });
});

describe('reading membership', () => {
  it('answers members and subgroups, recursively unless asked for direct ones', async () => {
    const s = sim();
    const get = async (path: string, query: Body = {}) => (await call(s, 'GET', path, ID.hamlet, query)).body;
    expect(await get(`/user_groups/${G.administrators}/members`)).toEqual({ result: 'success', msg: '', members: [ID.desdemona, ID.iago] });
    expect(await get(`/user_groups/${G.administrators}/members`, { direct_member_only: true })).toMatchObject({ members: [ID.iago] });
    expect(await get(`/user_groups/${G.members}/subgroups`)).toMatchObject({ subgroups: [G.owners, G.administrators, G.moderators, G.fullmembers] });
    expect(await get(`/user_groups/${G.members}/subgroups`, { direct_subgroup_only: true })).toMatchObject({ subgroups: [G.fullmembers] });
    expect(await get(`/user_groups/${G.moderators}/members/${ID.desdemona}`)).toEqual({ result: 'success', msg: '', is_user_group_member: true });
    expect(await get(`/user_groups/${G.moderators}/members/${ID.desdemona}`, { direct_member_only: true })).toMatchObject({ is_user_group_member: false });
    expect(await get(`/user_groups/${G.moderators}/members/${ID.defaultBot}`)).toEqual(error('No such user'));
    expect(await get(`/user_groups/${G.moderators}/members/999`)).toEqual(error('No such user'));
    expect(await get('/user_groups/999/members')).toEqual(error('Invalid user group'));
    await deactivate(s, ID.cordelia, HAMLETCHARACTERS);
    expect(await get(`/user_groups/${HAMLETCHARACTERS}/members`)).toEqual(error('User group is deactivated.'));
  });
});

describe('PATCH /user_groups/{id}', () => {
  it('renames, describes and changes settings, one update event each, to the realm', async () => {
    const s = sim();
    const events = await eventsOf(s, async () => {
      const res = await patch(s, ID.cordelia, HAMLETCHARACTERS, {
        name: 'players',
        description: 'The cast',
        can_mention_group: { new: G.members, old: G.everyone },
        can_join_group: { new: G.nobody },
        can_manage_group: { new: { direct_members: [ID.hamlet, ID.cordelia], direct_subgroups: [] } },
      });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    });
    const update = (data: Body) => ({ event: { type: 'user_group', op: 'update', group_id: HAMLETCHARACTERS, data }, users: realmUsers(s) });
    // can_join_group was already role:nobody: no change, no event.
    expect(events).toEqual([
      update({ name: 'players' }),
      update({ description: 'The cast' }),
      update({ can_manage_group: { direct_members: [ID.cordelia, ID.hamlet], direct_subgroups: [] } }),
      update({ can_mention_group: G.members }),
    ]);
    expect(await group(s, HAMLETCHARACTERS)).toMatchObject({ name: 'players', description: 'The cast', can_mention_group: G.members });
  });

  const bad: [string, number, Body, string, string?][] = [
    ['no change at all', ID.cordelia, {}, 'No new data supplied'],
    ['someone who may not manage it', ID.hamlet, { description: 'x' }, 'Insufficient permission'],
    ['a system group', ID.desdemona, { description: 'x' }, 'Insufficient permission'],
    ['a taken name', ID.cordelia, { name: 'role:members' }, "User group name cannot start with 'role:'."],
    ['a stale old value', ID.cordelia, { can_mention_group: { new: G.members, old: G.nobody } }, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'],
    ['role:everyone managing', ID.cordelia, { can_manage_group: { new: G.everyone } }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
    ['a malformed change', ID.cordelia, { can_manage_group: G.members }, 'can_manage_group is not a dict'],
    ['a good name with a bad setting (nothing changes)', ID.cordelia, { name: 'new', can_mention_group: { new: G.owners } }, "'can_mention_group' setting cannot be set to 'role:owners' group."],
  ];
  it.each(bad)('refuses %s', async (label, as, body, msg, code) => {
    const s = sim();
    const id = label === 'a system group' ? G.members : HAMLETCHARACTERS;
    const events = await eventsOf(s, async () => {
      expect((await patch(s, as, id, body)).body).toEqual(error(msg, code));
    });
    expect(events).toEqual([]);
    expect((await group(s, HAMLETCHARACTERS)).name).toBe('hamletcharacters');
  });

  it('refuses a name another group has', async () => {
    const s = sim();
    await create(s, ID.cordelia, { name: 'other' });
    expect((await patch(s, ID.cordelia, HAMLETCHARACTERS, { name: 'other' })).body).toEqual(error("User group 'other' already exists."));
    expect((await patch(s, ID.cordelia, HAMLETCHARACTERS, { name: 'hamletcharacters' })).body).toEqual({ result: 'success', msg: '' });
  });

  it('reactivates with deactivated=false: update (for clients that keep deactivated groups), add (for the others); true does nothing', async () => {
    const s = sim();
    await deactivate(s, ID.cordelia, HAMLETCHARACTERS);
    expect(await eventsOf(s, () => patch(s, ID.cordelia, HAMLETCHARACTERS, { deactivated: true }))).toEqual([]);
    const modern = watchEvents(s, { include_deactivated_groups: true });
    const legacy = watchEvents(s);
    await patch(s, ID.cordelia, HAMLETCHARACTERS, { deactivated: false });
    const added = { type: 'user_group', op: 'add', group: await group(s, HAMLETCHARACTERS) };
    expect(modern.take().map((e) => e.event)).toEqual([{ type: 'user_group', op: 'update', group_id: HAMLETCHARACTERS, data: { deactivated: false } }]);
    expect(legacy.take().map((e) => e.event)).toEqual([added]);
    expect(await group(s, HAMLETCHARACTERS)).toMatchObject({ deactivated: false });
  });
});

describe('POST /user_groups/{id}/deactivate', () => {
  it('deactivates an unused group: update and remove events to the realm', async () => {
    const s = sim();
    // Clients that can hide deactivated groups themselves get the update; the others a remove.
    const modern = watchEvents(s, { include_deactivated_groups: true });
    const legacy = watchEvents(s);
    expect((await deactivate(s, ID.cordelia, HAMLETCHARACTERS)).body).toEqual({ result: 'success', msg: '' });
    expect(modern.take()).toEqual([
      { event: { type: 'user_group', op: 'update', group_id: HAMLETCHARACTERS, data: { deactivated: true } }, users: realmUsers(s) },
    ]);
    expect(legacy.take()).toEqual([{ event: { type: 'user_group', op: 'remove', group_id: HAMLETCHARACTERS }, users: realmUsers(s) }]);
    expect((await deactivate(s, ID.cordelia, HAMLETCHARACTERS)).body).toEqual(error('User group is deactivated.'));
    // A deactivated group still takes members (upstream allows it).
    expect((await members(s, ID.cordelia, HAMLETCHARACTERS, { add: [ID.othello] })).status).toBe(200);
  });

  it('refuses a group in use, listing every use', async () => {
    const s = sim();
    await create(s, ID.cordelia, { name: 'support', subgroups: [HAMLETCHARACTERS], can_mention_group: { direct_members: [ID.iago], direct_subgroups: [HAMLETCHARACTERS] } });
    s.engine.state.streams.get(CORE_TEAM)!.groups.can_subscribe_group = HAMLETCHARACTERS;
    const res = await deactivate(s, ID.cordelia, HAMLETCHARACTERS);
    expect(res.body).toEqual({
      ...error('Cannot deactivate user group in use.', 'CANNOT_DEACTIVATE_GROUP_IN_USE'),
      objections: [
        { type: 'subgroup', supergroup_ids: [18] },
        { type: 'channel', channel_id: CORE_TEAM, settings: ['can_subscribe_group'] },
        { type: 'user_group', group_id: 18, settings: ['can_mention_group'] },
      ],
    });
  });

  it('is for whoever may manage the group: not guests, not other members, not system groups', async () => {
    const s = sim();
    expect((await deactivate(s, ID.polonius, HAMLETCHARACTERS)).body).toEqual(error('Insufficient permission'));
    expect((await deactivate(s, ID.hamlet, HAMLETCHARACTERS)).body).toEqual(error('Insufficient permission'));
    expect((await deactivate(s, ID.desdemona, G.members)).body).toEqual(error('Insufficient permission'));
    expect((await deactivate(s, ID.desdemona, HAMLETCHARACTERS)).status).toBe(200);
  });
});
