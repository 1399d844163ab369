/** User administration (zerver/views/users.py): POST /users, PATCH /users/{id}, reactivation. */
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { createUser } from '../../simulator/engine/users/admin.ts';
import { ID, NOW, devFixture, sim, watchEvents } from './helpers.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

/** What every active user's event queue got during `action` (a user created meanwhile has no queue). */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const everyoneActive = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id).sort((a, b) => a - b);

/** Zulip's test database holds users 19-23 in its other realms: realm zulip's next user is 24. */
const NEW_ID = 24;

const NEW_USER = { email: 'newbie@zulip.com', password: 'a-long-password', full_name: 'New Bie' };

function create(s: Simulator, body: Record<string, unknown> = NEW_USER, as: number = ID.iago) {
  return s.request({ method: 'POST', path: '/api/v1/users', as, body });
}

function patch(s: Simulator, userId: number, body: Record<string, unknown>, as: number = ID.iago) {
  return s.request({ method: 'PATCH', path: `/api/v1/users/${userId}`, as, body });
}

async function getUser(s: Simulator, userId: number, as: number = ID.iago) {
  const res = await s.request({ method: 'GET', path: `/api/v1/users/${userId}`, as, query: { include_custom_profile_fields: true } });
  expect(res.status).toBe(200);
  return res.body.user as Record<string, any>;
}

describe('POST /users', () => {
  it('creates a member with the realm defaults, who can log in, subscribed to the default channels', async () => {
    const s = sim();
    const res = await create(s);
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '', user_id: NEW_ID }]);
    expect(await getUser(s, NEW_ID)).toMatchObject({
      user_id: NEW_ID,
      email: `user${NEW_ID}@zulip.testserver`,
      delivery_email: 'newbie@zulip.com',
      full_name: 'New Bie',
      role: 400,
      is_active: true,
      is_bot: false,
      timezone: '',
      date_joined: new Date(NOW * 1000).toISOString().slice(0, 16) + '+00:00',
      profile_data: {},
    });
    expect((await getUser(s, NEW_ID, ID.hamlet)).delivery_email).toBeNull();
    const login = await s.request({ method: 'POST', path: '/api/v1/fetch_api_key', as: null, body: { username: 'newbie@zulip.com', password: 'a-long-password' } });
    expect(login.body).toMatchObject({ result: 'success', user_id: NEW_ID, email: 'newbie@zulip.com' });
    const subs = await s.request({ method: 'GET', path: '/api/v1/users/me/subscriptions', as: NEW_ID });
    expect(subs.body.subscriptions.map((x: { name: string }) => x.name)).toEqual(['Verona']);
  });

  it('tells everyone (the real address only to who may see it), adds the system groups, subscribes', async () => {
    const s = sim();
    // The engine's own answer, since the new user has no event queue to watch yet.
    const events = createUser(s.engine, s.engine.state.users.get(ID.iago)!, { email: NEW_USER.email, password: NEW_USER.password, fullName: NEW_USER.full_name }).events.map(
      (e) => ({ event: e.event as Record<string, any>, users: e.users }),
    );
    const others = everyoneActive(s).filter((id) => id !== NEW_ID);
    const admins: number[] = [ID.desdemona, ID.iago];
    const adds = events.filter((e) => e.event.type === 'realm_user');
    expect(adds.map((e) => [e.event.op, e.event.person.delivery_email, e.users])).toEqual([
      ['add', 'newbie@zulip.com', [...admins, NEW_ID]],
      ['add', null, everyoneActive(s).filter((id) => !admins.includes(id) && id !== NEW_ID)],
    ]);
    expect(adds[0]!.event.person).toMatchObject({ user_id: NEW_ID, is_active: true, full_name: 'New Bie', role: 400, profile_data: {}, avatar_url: expect.stringContaining('gravatar') });
    const groups = s.engine.state.realm.system_groups;
    expect(events.filter((e) => e.event.type === 'user_group').map((e) => [e.event.op, e.event.group_id, e.event.user_ids, e.users])).toEqual([
      ['add_members', groups['role:members'], [NEW_ID], everyoneActive(s)],
      ['add_members', groups['role:fullmembers'], [NEW_ID], everyoneActive(s)],
    ]);
    const subscription = events.filter((e) => e.event.type === 'subscription');
    expect(subscription.map((e) => [e.event.op, e.users])).toEqual([
      ['add', [NEW_ID]],
      ['peer_add', others],
    ]);
    expect(subscription[0]!.event.subscriptions.map((x: { name: string }) => x.name)).toEqual(['Verona']);
  });

  it('needs an administrator holding can_create_users', async () => {
    const s = sim();
    expect((await create(s, NEW_USER, ID.hamlet)).body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await create(s, NEW_USER, ID.desdemona)).body).toEqual(error('User not authorized to create users'));
    const fixture = devFixture();
    fixture.users.find((u) => u.email === 'hamlet@zulip.com')!.can_create_users = true;
    // The flag alone is not enough.
    expect((await create(sim({ fixture }), NEW_USER, ID.hamlet)).body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('reports missing arguments in order: email, password, full_name', async () => {
    const s = sim();
    expect((await create(s, {})).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'email' argument" });
    expect((await create(s, { email: 'a@zulip.com' })).body).toMatchObject({ msg: "Missing 'password' argument" });
    expect((await create(s, { email: 'a@zulip.com', password: 'secret12' })).body).toMatchObject({ msg: "Missing 'full_name' argument" });
  });

  it.each([
    ['x'.repeat(101), 'Name too long!'],
    ['   ', 'Name must not be empty!'],
    ['Star *name*', 'Invalid characters in name!'],
    ['At @name', 'Invalid characters in name!'],
    ['Quote "name"', 'Invalid characters in name!'],
    ['Tab\there', 'Invalid characters in name!'],
    ['Hamlet|12', 'Invalid format!'],
  ])('refuses the full name %j: %s', async (fullName, msg) => {
    const s = sim();
    expect((await create(s, { ...NEW_USER, full_name: fullName })).body).toEqual(error(msg));
  });

  it('trims the name, and accepts 100 code points of any script', async () => {
    const s = sim();
    expect((await create(s, { ...NEW_USER, full_name: '  Ünïcode  ' })).status).toBe(200);
    expect((await getUser(s, NEW_ID)).full_name).toBe('Ünïcode');
    expect((await create(s, { ...NEW_USER, email: 'long@zulip.com', full_name: 'शि'.repeat(50) })).status).toBe(200);
  });

  it('refuses a name already taken when the organization requires unique names (case-insensitively)', async () => {
    const fixture = devFixture();
    fixture.realm.require_unique_names = true;
    const s = sim({ fixture });
    expect((await create(s, { ...NEW_USER, full_name: 'king HAMLET' })).body).toEqual(error('Unique names required in this organization.'));
    expect((await create(sim(), { ...NEW_USER, full_name: 'King Hamlet' })).status).toBe(200);
  });

  it('refuses a malformed address, a system bot\'s, one in use (in any case), and an empty password, in that order', async () => {
    const s = sim();
    expect((await create(s, { ...NEW_USER, email: 'not-an-email' })).body).toEqual(error('Bad name or username'));
    expect((await create(s, { ...NEW_USER, email: 'a@b' })).body).toEqual(error('Bad name or username'));
    expect((await create(s, { ...NEW_USER, email: 'emailgateway@zulip.com', password: '' })).body).toEqual(error('emailgateway@zulip.com is reserved for system bots'));
    expect((await create(s, { ...NEW_USER, email: 'HAMLET@zulip.com', password: '' })).body).toEqual(error("Email 'HAMLET@zulip.com' already in use"));
    // Bots' addresses count too.
    expect((await create(s, { ...NEW_USER, email: 'default-bot@zulip.com' })).body).toEqual(error("Email 'default-bot@zulip.com' already in use"));
    // check_password_strength refuses the empty password even with no minimum.
    expect((await create(s, { ...NEW_USER, password: '' })).body).toEqual(error('The password is too weak.'));
  });

  it.each(['emailgateway@zulip.com', 'Notification-Bot@zulip.com', 'welcome-bot@zulip.com'])(
    "refuses %s, a system bot's address, which keeps naming the bot (get_existing_user_errors)",
    async (email) => {
      const s = sim();
      const before = s.engine.state.users.size;
      expect((await create(s, { ...NEW_USER, email })).body).toEqual(error(`${email} is reserved for system bots`));
      expect(s.engine.state.users.size).toBe(before);
      const bot = [...s.engine.state.users.values()].find((u) => u.is_system_bot && u.delivery_email.toLowerCase() === email.toLowerCase())!;
      // A direct message to the address still reaches the bot.
      const sent = await s.request({ method: 'POST', path: '/api/v1/messages', as: ID.hamlet, body: { type: 'direct', to: JSON.stringify([email]), content: 'hi' } });
      const read = await s.request({ method: 'GET', path: `/api/v1/messages/${sent.body.id}`, as: ID.hamlet });
      expect((read.body.message.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b)).toEqual([ID.hamlet, bot.id].sort((a, b) => a - b));
    },
  );

  it("follows Zulip's development server on passwords by default: any non-empty one (PASSWORD_MIN_LENGTH = PASSWORD_MIN_GUESSES = 0)", async () => {
    const s = sim();
    // python_examples.py's create_user sends this one.
    expect((await create(s, { ...NEW_USER, password: 'temp' })).body).toEqual({ result: 'success', msg: '', user_id: NEW_ID });
    expect((await create(s, { ...NEW_USER, email: 'x@zulip.com', password: 'a' })).status).toBe(200);
    const register = await s.request({ method: 'POST', path: '/api/v1/register', as: ID.iago, body: { fetch_event_types: '["realm"]' } });
    expect([register.body.password_min_length, register.body.password_min_guesses]).toEqual([0, 0]);
  });

  it.each([
    // [password, why]: production's settings, 6 code points and 10000 zxcvbn guesses.
    ['temp', 'too short'],
    ['abcdef', 'long enough, but a sequence zxcvbn guesses at once'],
    ['password1', 'a common password'],
    ['qwerty123', 'a keyboard pattern'],
  ])('with production\'s rules in the fixture, refuses %j (%s)', async (password) => {
    const fixture = devFixture();
    Object.assign(fixture.realm, { password_min_length: 6, password_min_guesses: 10_000 });
    const s = sim({ fixture });
    expect((await create(s, { ...NEW_USER, password })).body).toEqual(error('The password is too weak.'));
  });

  it("with production's rules in the fixture, takes a password zxcvbn rates hard enough, and /register reports the rules", async () => {
    const fixture = devFixture();
    Object.assign(fixture.realm, { password_min_length: 6, password_min_guesses: 10_000 });
    const s = sim({ fixture });
    expect((await create(s, { ...NEW_USER, password: 'a-long-password' })).status).toBe(200);
    // Six code points, not six UTF-16 units: five astral characters are too short.
    expect((await create(s, { ...NEW_USER, email: 'astral@zulip.com', password: '\u{1F600}\u{1F601}\u{1F602}\u{1F603}\u{1F604}' })).body).toEqual(error('The password is too weak.'));
    const register = await s.request({ method: 'POST', path: '/api/v1/register', as: ID.iago, body: { fetch_event_types: '["realm"]' } });
    expect([register.body.password_min_length, register.body.password_min_guesses]).toEqual([6, 10_000]);
  });

  it('continues the user ids where the fixture says (id_sequences.user), above the fixture\'s own ids', async () => {
    const fixture = devFixture();
    fixture.id_sequences = { user: 100 };
    expect((await create(sim({ fixture }))).body.user_id).toBe(101);
    const none = devFixture();
    delete none.id_sequences;
    const maxId = Math.max(...none.users.map((u) => u.id));
    expect((await create(sim({ fixture: none }))).body.user_id).toBe(maxId + 1);
    const below = devFixture();
    below.id_sequences = { user: 3 };
    expect((await create(sim({ fixture: below }))).body.user_id).toBe(maxId + 1);
  });

  it("reports old clients' short_name as ignored", async () => {
    const s = sim();
    const res = await create(s, { ...NEW_USER, short_name: 'newbie' });
    expect(res.body).toEqual({ result: 'success', msg: '', user_id: NEW_ID, ignored_parameters_unsupported: ['short_name'] });
  });

  it('creates nothing and sends nothing when refused', async () => {
    const s = sim();
    const before = s.engine.state.users.size;
    expect(await eventsOf(s, () => create(s, { ...NEW_USER, password: '' }))).toEqual([]);
    expect(s.engine.state.users.size).toBe(before);
  });
});

describe('PATCH /users/{user_id}', () => {
  it('renames a user: realm_user update to everyone', async () => {
    const s = sim();
    let res: Awaited<ReturnType<typeof patch>> | undefined;
    const events = await eventsOf(s, async () => {
      res = await patch(s, ID.hamlet, { full_name: '  Prince Hamlet ' });
    });
    expect([res!.status, res!.body]).toEqual([200, { result: 'success', msg: '' }]);
    expect(events).toEqual([{ event: { type: 'realm_user', op: 'update', person: { user_id: ID.hamlet, full_name: 'Prince Hamlet' } }, users: everyoneActive(s) }]);
    expect((await getUser(s, ID.hamlet)).full_name).toBe('Prince Hamlet');
  });

  it('ignores an empty name and the current one, even when invalid otherwise', async () => {
    const s = sim();
    expect(await eventsOf(s, () => patch(s, ID.hamlet, { full_name: '   ' }))).toEqual([]);
    expect(await eventsOf(s, () => patch(s, ID.hamlet, { full_name: 'King Hamlet' }))).toEqual([]);
    expect((await patch(s, ID.hamlet, { full_name: 'Bad `name`' })).body).toEqual(error('Invalid characters in name!'));
  });

  it('changes a role: realm_user update, system groups, and the channels the new role sees', async () => {
    const s = sim();
    const groups = s.engine.state.realm.system_groups;
    const events = await eventsOf(s, () => patch(s, ID.othello, { role: 200 }));
    expect(events.map((e) => [e.event.type, e.event.op])).toEqual([
      ['realm_user', 'update'],
      ['user_group', 'remove_members'],
      ['user_group', 'add_members'],
      ['user_group', 'remove_members'],
      ['stream', 'create'],
      ['subscription', 'peer_add'],
    ]);
    expect(events[0]).toEqual({ event: { type: 'realm_user', op: 'update', person: { user_id: ID.othello, role: 200 } }, users: everyoneActive(s) });
    expect(events.slice(1, 4).map((e) => [e.event.group_id, e.event.user_ids])).toEqual([
      [groups['role:members'], [ID.othello]],
      [groups['role:administrators'], [ID.othello]],
      [groups['role:fullmembers'], [ID.othello]],
    ]);
    expect(events[4]!.event.streams.map((x: { name: string }) => x.name)).toEqual(['core team']);
    expect(events[4]!.users).toEqual([ID.othello]);
    expect(events[5]!.event).toEqual({ type: 'subscription', op: 'peer_add', stream_ids: [8], user_ids: [ID.desdemona, ID.hamlet, ID.iago] });
    expect((await getUser(s, ID.othello)).role).toBe(200);
    // Back to member: the private channel disappears again.
    const back = await eventsOf(s, () => patch(s, ID.othello, { role: 400 }));
    expect(back.at(-1)).toEqual({ event: { type: 'stream', op: 'delete', streams: [{ stream_id: 8 }], stream_ids: [8] }, users: [ID.othello] });
  });

  it('lets only owners grant or remove the owner role, and keeps the last owner', async () => {
    const s = sim();
    expect((await patch(s, ID.hamlet, { role: 100 })).body).toEqual(error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await patch(s, ID.desdemona, { role: 400 })).body).toEqual(error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await patch(s, ID.desdemona, { role: 400 }, ID.desdemona)).body).toEqual(
      error('The owner permission cannot be removed from the only organization owner.'),
    );
    expect((await patch(s, ID.hamlet, { role: 100 }, ID.desdemona)).status).toBe(200);
    expect((await patch(s, ID.desdemona, { role: 200 }, ID.desdemona)).status).toBe(200);
    expect((await getUser(s, ID.desdemona)).role).toBe(200);
    // The same role is no change: no permission needed beyond administering the user.
    expect(await eventsOf(s, () => patch(s, ID.hamlet, { role: 100 }, ID.iago))).toEqual([]);
  });

  it('checks the target first: unknown, then whether the actor administers it', async () => {
    const s = sim();
    expect((await patch(s, 999, { role: 100 }, ID.hamlet)).body).toEqual(error('No such user'));
    expect((await patch(s, 2, { full_name: 'x y' })).body).toEqual(error('No such user'));
    expect((await patch(s, ID.othello, { full_name: 'Othello' }, ID.hamlet)).body).toEqual(error('Insufficient permission'));
    expect((await patch(s, ID.othello, { full_name: 'Othello' }, ID.shiva)).body).toEqual(error('Insufficient permission'));
  });

  it("lets a bot's owner rename it (with realm_bot to the owner and administrators), but not change its role", async () => {
    const s = sim();
    const events = await eventsOf(s, () => patch(s, ID.webhookBot, { full_name: 'Hook' }, ID.zoe));
    expect(events).toEqual([
      { event: { type: 'realm_user', op: 'update', person: { user_id: ID.webhookBot, full_name: 'Hook' } }, users: everyoneActive(s) },
      { event: { type: 'realm_bot', op: 'update', bot: { user_id: ID.webhookBot, full_name: 'Hook' } }, users: [ID.zoe, ID.desdemona, ID.iago] },
    ]);
    expect((await patch(s, ID.webhookBot, { role: 300 }, ID.zoe)).body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('edits deactivated users too', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect((await patch(s, ID.othello, { full_name: 'Gone Moor' })).status).toBe(200);
    expect((await getUser(s, ID.othello)).full_name).toBe('Gone Moor');
  });

  it('refuses a role outside Zulip’s five', async () => {
    const s = sim();
    expect((await patch(s, ID.hamlet, { role: 500 })).body).toEqual(error('Invalid role'));
    expect((await patch(s, ID.hamlet, { role: 'admin' })).body).toEqual(error('role is not valid JSON'));
  });

  it("sets another user's profile data, fields users may not edit included; empty values remove", async () => {
    const s = sim();
    const events = await eventsOf(s, () => patch(s, ID.hamlet, { profile_data: [{ id: 10, value: 'E-1001' }, { id: 1, value: '' }] }));
    expect(events.map((e) => [e.event.person, e.users])).toEqual([
      [{ user_id: ID.hamlet, custom_profile_field: { id: 10, value: 'E-1001', rendered_value: '<p>E-1001</p>' } }, everyoneActive(s)],
      [{ user_id: ID.hamlet, custom_profile_field: { id: 1, value: null } }, everyoneActive(s)],
    ]);
    expect((await getUser(s, ID.hamlet)).profile_data['10']).toEqual({ value: 'E-1001', rendered_value: '<p>E-1001</p>' });
    expect((await getUser(s, ID.hamlet)).profile_data['1']).toBeUndefined();
    expect((await patch(s, ID.hamlet, { profile_data: [{ id: 99, value: 'x' }] })).body).toEqual(error('Field id 99 not found.'));
    expect((await patch(s, ID.hamlet, { profile_data: [{ id: 10 }] })).body).toEqual(error('profile_data[0]["value"] is missing'));
  });

  it('changes nothing when a later check fails', async () => {
    const s = sim();
    const res = await patch(s, ID.hamlet, { role: 300, full_name: 'Bad>name' });
    expect(res.body).toEqual(error('Invalid characters in name!'));
    expect((await getUser(s, ID.hamlet)).role).toBe(400);
  });
});

describe('POST /users/{user_id}/reactivate', () => {
  const reactivate = (s: Simulator, userId: number, as: number = ID.iago) =>
    s.request({ method: 'POST', path: `/api/v1/users/${userId}/reactivate`, as });

  it('reactivates: everyone learns it, subscribers see the user again, and the account works', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    let res: Awaited<ReturnType<typeof reactivate>> | undefined;
    const events = await eventsOf(s, async () => {
      res = await reactivate(s, ID.othello);
    });
    expect([res!.status, res!.body]).toEqual([200, { result: 'success', msg: '' }]);
    // Everyone active hears it (Othello too, but he had no queue open while deactivated).
    const watchers = everyoneActive(s).filter((id) => id !== ID.othello);
    expect(events[0]).toEqual({ event: { type: 'realm_user', op: 'update', person: { user_id: ID.othello, is_active: true } }, users: watchers });
    expect(events.slice(1).map((e) => [e.event.type, e.event.op, e.event.stream_ids ?? e.event.group_id, e.event.user_ids])).toEqual([
      ['subscription', 'peer_add', [3], [ID.othello]],
      ['subscription', 'peer_add', [4], [ID.othello]],
      ['subscription', 'peer_add', [6], [ID.othello]],
      // Back in the member lists of his groups (role:members, role:fullmembers), which clients
      // and /register leave deactivated users out of.
      ...[...s.engine.state.userGroups.values()]
        .filter((g) => g.members.has(ID.othello))
        .map((g) => ['user_group', 'add_members', g.id, [ID.othello]]),
    ]);
    expect(events.filter((e) => e.event.type === 'user_group')).toHaveLength(2);
    expect((await getUser(s, ID.othello)).is_active).toBe(true);
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: ID.othello })).status).toBe(200);
  });

  it('answers unknown users first, then refuses non-administrators', async () => {
    const s = sim();
    expect((await reactivate(s, 999, ID.hamlet)).body).toEqual(error('No such user'));
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect((await reactivate(s, ID.othello, ID.hamlet)).body).toEqual(error('Insufficient permission'));
  });

  it("passes a bot whose owner is gone to whoever reactivates it, with the owner-change events", async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.zoe}`, as: ID.iago });
    expect(s.engine.state.users.get(ID.webhookBot)!.is_active).toBe(false);
    const events = await eventsOf(s, () => reactivate(s, ID.webhookBot, ID.iago));
    expect(events.filter((e) => e.event.type === 'realm_bot').map((e) => [e.event.op, e.event.bot, e.users])).toEqual([
      ['update', { user_id: ID.webhookBot, is_active: true }, [ID.desdemona, ID.iago]],
      ['update', { user_id: ID.webhookBot, owner_id: ID.iago }, [ID.desdemona, ID.iago]],
    ]);
    expect(events.find((e) => e.event.person?.bot_owner_id !== undefined)!.event.person).toEqual({ user_id: ID.webhookBot, bot_owner_id: ID.iago });
    expect((await getUser(s, ID.webhookBot)).bot_owner_id).toBe(ID.iago);
  });

  it('refuses a bot whose name an active account now has, and a bot its reactivator may not create', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/bots/${ID.defaultBot}`, as: ID.desdemona });
    await patch(s, ID.hamlet, { full_name: 'Zulip Default Bot' });
    expect((await reactivate(s, ID.defaultBot)).body).toEqual(
      error('There is already an active bot named "Zulip Default Bot" in this organization. To reactivate this bot, you must rename or deactivate the other one first.'),
    );
    const fixture = devFixture();
    fixture.realm.can_create_bots_group = 'role:administrators';
    fixture.realm.can_create_write_only_bots_group = 'role:administrators';
    const t = sim({ fixture });
    await t.request({ method: 'DELETE', path: `/api/v1/bots/${ID.outgoingBot}`, as: ID.aaron });
    expect((await reactivate(t, ID.outgoingBot, ID.aaron)).body).toEqual(error('Insufficient permission'));
    expect((await reactivate(t, ID.outgoingBot, ID.iago)).status).toBe(200);
  });
});
