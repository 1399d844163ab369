/** User endpoints (zerver/views/users.py, zerver/lib/users.py) through the in-process API. */
import { describe, expect, it } from 'vitest';
import { ID, NOW, assertValid, devFixture, sim, validateOwnUser, validateUser, watchEvents } from './helpers.ts';

const HAMLET_GRAVATAR = 'https://secure.gravatar.com/avatar/6d8cad0fd00256e7b40691d27ddfd466?d=identicon&version=1';

describe('GET /users', () => {
  it('lists every realm user (bots and deactivated included, system bots excluded) in id order', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users', as: 'hamlet@zulip.com' });
    expect(res.status).toBe(200);
    const ids = res.body.members.map((m: { user_id: number }) => m.user_id);
    expect(ids).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    for (const member of res.body.members) assertValid(validateUser, member);
  });

  it('shows fake API emails to everyone and real ones only to admins (dev realm: visibility admins)', async () => {
    const s = sim();
    const asMember = await s.request({ method: 'GET', path: '/api/v1/users/10', as: 'othello@zulip.com' });
    expect(asMember.body.user).toMatchObject({ email: 'user10@zulip.testserver', delivery_email: null });
    const asAdmin = await s.request({ method: 'GET', path: '/api/v1/users/10', as: 'iago@zulip.com' });
    expect(asAdmin.body.user).toMatchObject({ email: 'user10@zulip.testserver', delivery_email: 'hamlet@zulip.com' });
    const bot = await s.request({ method: 'GET', path: '/api/v1/users/16', as: 'othello@zulip.com' });
    expect(bot.body.user).toMatchObject({
      email: 'default-bot@zulip.com',
      delivery_email: 'default-bot@zulip.com',
      is_bot: true,
      bot_type: 1,
      bot_owner_id: ID.desdemona,
    });
  });

  it('gives null avatar_url only where client_gravatar applies (visibility everyone: bots here)', async () => {
    const s = sim();
    const res = await s.request({ method: 'GET', path: '/api/v1/users', as: 'hamlet@zulip.com' });
    const byId = new Map(res.body.members.map((m: { user_id: number }) => [m.user_id, m]));
    expect(byId.get(ID.hamlet)).toMatchObject({ avatar_url: HAMLET_GRAVATAR });
    expect(byId.get(ID.defaultBot)).toMatchObject({ avatar_url: null });
    const noClient = await s.request({ method: 'GET', path: '/api/v1/users', as: 'hamlet@zulip.com', query: { client_gravatar: false } });
    const bot = noClient.body.members.find((m: { user_id: number }) => m.user_id === ID.defaultBot);
    expect(bot.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
  });

  it('has the User fields with their meaning', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/9', as: 'hamlet@zulip.com' });
    expect(res.body.user).toEqual({
      user_id: 9,
      email: 'user9@zulip.testserver',
      delivery_email: null,
      full_name: 'Desdemona',
      date_joined: '2023-11-14T22:13+00:00',
      is_active: true,
      is_owner: true,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      role: 100,
      timezone: 'Canada/Newfoundland',
      avatar_version: 1,
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//),
      is_imported_stub: false,
    });
  });

  it('includes custom profile fields on request, rendering Markdown-capable ones', async () => {
    const res = await sim().request({
      method: 'GET',
      path: '/api/v1/users/10',
      as: 'iago@zulip.com',
      query: { include_custom_profile_fields: true },
    });
    const data = res.body.user.profile_data;
    expect(data['4']).toEqual({ value: '0' });
    expect(data['7']).toEqual({ value: '[11]' });
    expect(data['2'].value).toBe('I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius');
    expect(data['2'].rendered_value).toContain('<li>The prince of Denmark</li>');
    assertValid(validateUser, res.body.user);
  });

  it('filters by user_ids and refuses unknown ids', async () => {
    const s = sim();
    const res = await s.request({ method: 'GET', path: '/api/v1/users', as: 'hamlet@zulip.com', query: { user_ids: [11, 6] } });
    expect(res.body.members.map((m: { user_id: number }) => m.user_id)).toEqual([6, 11]);
    const bad = await s.request({ method: 'GET', path: '/api/v1/users', as: 'hamlet@zulip.com', query: { user_ids: [6, 999] } });
    expect(bad.body).toEqual({ result: 'error', msg: 'Invalid user ID: 999', code: 'BAD_REQUEST' });
  });

  it('answers spectators only where the organization allows it', async () => {
    const closed = await sim().request({ method: 'GET', path: '/api/v1/users' });
    expect(closed.status).toBe(401);
    expect(closed.body.code).toBe('UNAUTHORIZED');
    const fixture = devFixture();
    fixture.realm.allow_unauthenticated_user_list = true;
    const open = await sim({ fixture }).request({ method: 'GET', path: '/api/v1/users' });
    expect(open.status).toBe(200);
    const hamlet = open.body.members.find((m: { user_id: number }) => m.user_id === ID.hamlet);
    expect(hamlet).toMatchObject({ delivery_email: null, date_joined: '2023-11-14' });
  });
});

describe('GET /users/me and /users/{id}', () => {
  it('puts your own fields at the top level with your real email and profile data', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
    expect(res.body).toMatchObject({
      result: 'success',
      user_id: ID.hamlet,
      delivery_email: 'hamlet@zulip.com',
      avatar_url: HAMLET_GRAVATAR,
    });
    expect(typeof res.body.max_message_id).toBe('number');
    expect(res.body.profile_data['9']).toEqual({ value: 'he/him' });
    expect(res.body.profile_data['3']).toEqual({ value: 'Dark chocolate', rendered_value: '<p>Dark chocolate</p>' });
    const { result: _r, msg: _m, ...user } = res.body;
    assertValid(validateOwnUser, user);
  });

  it.each([
    ['/api/v1/users/999', 'No such user'],
    ['/api/v1/users/1', 'No such user'],
    ['/api/v1/users/nobody@zulip.com', 'No such user'],
  ])('%s → %s', async (path, msg) => {
    const res = await sim().request({ method: 'GET', path, as: 'hamlet@zulip.com' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('looks users up by fake address, or by real address when visible', async () => {
    const s = sim();
    const fake = await s.request({ method: 'GET', path: '/api/v1/users/user11@zulip.testserver', as: 'hamlet@zulip.com' });
    expect(fake.body.user.user_id).toBe(ID.iago);
    const hidden = await s.request({ method: 'GET', path: '/api/v1/users/iago@zulip.com', as: 'hamlet@zulip.com' });
    expect(hidden.body.msg).toBe('No such user');
    const visible = await s.request({ method: 'GET', path: '/api/v1/users/hamlet@zulip.com', as: 'iago@zulip.com' });
    expect(visible.body.user.user_id).toBe(ID.hamlet);
  });
});

describe('DELETE /users/me', () => {
  it('deactivates yourself (and your bots)', async () => {
    const s = sim();
    const res = await s.request({ method: 'DELETE', path: '/api/v1/users/me', as: ID.zoe });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.users.get(ID.zoe)!.is_active).toBe(false);
    expect(s.engine.state.users.get(ID.webhookBot)!.is_active).toBe(false);
  });

  it('refuses the only owner with a coded error', async () => {
    const res = await sim().request({ method: 'DELETE', path: '/api/v1/users/me', as: ID.desdemona });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      msg: 'Cannot deactivate the only organization owner.',
      code: 'CANNOT_DEACTIVATE_LAST_USER',
      is_last_owner: true,
      entity: 'organization owner',
    });
  });
});

describe('DELETE /users/{user_id}', () => {
  const rows: [string, number, number, number, string, string][] = [
    // Zulip looks the target up for administration before any role check (access_user_by_id).
    ['a member', ID.hamlet, ID.othello, 400, 'BAD_REQUEST', 'Insufficient permission'],
    ['a moderator', ID.shiva, ID.othello, 400, 'BAD_REQUEST', 'Insufficient permission'],
    ['a guest', ID.polonius, ID.othello, 400, 'BAD_REQUEST', 'Insufficient permission'],
    ['an unknown id', ID.iago, 999, 400, 'BAD_REQUEST', 'No such user'],
    ['an unknown id, by a member', ID.hamlet, 999, 400, 'BAD_REQUEST', 'No such user'],
    ['a system bot', ID.iago, 4, 400, 'BAD_REQUEST', 'No such user'],
    ['a bot', ID.iago, ID.defaultBot, 400, 'BAD_REQUEST', 'No such user'],
    ["a bot, by its owner (bots go through DELETE /bots/{id})", ID.desdemona, ID.defaultBot, 400, 'BAD_REQUEST', 'No such user'],
    ['an owner, by an admin', ID.iago, ID.desdemona, 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'],
    ['the only owner', ID.desdemona, ID.desdemona, 400, 'BAD_REQUEST', 'Cannot deactivate the only organization owner'],
  ];
  it.each(rows)('refuses %s', async (_name, actor, target, status, code, msg) => {
    const s = sim();
    const res = await s.request({ method: 'DELETE', path: `/api/v1/users/${target}`, as: actor });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ result: 'error', msg, code });
    expect(s.engine.state.users.get(target)?.is_active ?? false).toBe(target === 999 ? false : true);
  });

  it('tells a member that a deactivated user is deactivated before refusing them', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const res = await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.hamlet });
    expect(res.body).toEqual({ result: 'error', msg: 'User is deactivated', code: 'BAD_REQUEST' });
  });

  it('refuses an already deactivated user', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const again = await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect(again.body).toEqual({ result: 'error', msg: 'User is deactivated', code: 'BAD_REQUEST' });
  });

  it("deactivates the user's bots first, then the user, with events to active users", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.zoe}`, as: ID.iago });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.users.get(ID.webhookBot)!.is_active).toBe(false);
    expect(s.engine.state.users.get(ID.zoe)!.is_active).toBe(false);
    const events = watch.take().filter((e) => e.event.type !== 'subscription');
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: ID.webhookBot, is_active: false } },
      { type: 'realm_bot', op: 'update', bot: { user_id: ID.webhookBot, is_active: false } },
      { type: 'realm_user', op: 'update', person: { user_id: ID.zoe, is_active: false } },
    ]);
    expect(events[2]!.users).not.toContain(ID.zoe);
    expect(events[2]!.users).toContain(ID.hamlet);
    // The bot's owner (still active when the bot goes first) and the administrators.
    expect(events[1]!.users).toEqual([ID.zoe, ID.desdemona, ID.iago]);
    const listed = await s.request({ method: 'GET', path: '/api/v1/users/7', as: ID.hamlet });
    expect(listed.body.user.is_active).toBe(false);
    const subs = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.iago, query: { include_all: true } });
    const verona = subs.body.streams.find((c: { name: string }) => c.name === 'Verona');
    expect(verona.subscriber_count).toBe(9);
  });

  it('applies delete_profile and records the notification email', async () => {
    const s = sim();
    const res = await s.request({
      method: 'DELETE',
      path: `/api/v1/users/${ID.hamlet}`,
      as: ID.iago,
      body: { actions: { delete_profile: true }, deactivation_notification_comment: '  Thanks!  ' },
    });
    expect(res.status).toBe(200);
    const user = await s.request({ method: 'GET', path: `/api/v1/users/${ID.hamlet}`, as: ID.iago, query: { include_custom_profile_fields: true } });
    expect(user.body.user).toMatchObject({ full_name: `Deleted User ${ID.hamlet}`, avatar_version: 2, profile_data: {}, is_active: false });
    expect(s.engine.state.outbox).toEqual([
      {
        to: 'hamlet@zulip.com',
        template: 'zerver/emails/deactivate',
        context: { realm_name: 'Zulip Dev', deactivation_notification_comment: 'Thanks!', acting_user_id: ID.iago },
        timestamp: NOW,
      },
    ]);
  });

  it('sends no email without a comment parameter, and the user can no longer log in', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect(s.engine.state.outbox).toEqual([]);
    const login = await s.request({ method: 'POST', path: '/api/v1/fetch_api_key', body: { username: 'othello@zulip.com', password: 'othello-password' } });
    expect(login.status).toBe(401);
    expect(login.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
  });

  it('lets an owner deactivate another owner when one remains', async () => {
    const fixture = devFixture();
    fixture.users.find((u) => u.email === 'iago@zulip.com')!.role = 'owner';
    const s = sim({ fixture });
    const res = await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.iago}`, as: ID.desdemona });
    expect(res.status).toBe(200);
  });

  it('rejects an over-long comment', async () => {
    const res = await sim().request({
      method: 'DELETE',
      path: `/api/v1/users/${ID.othello}`,
      as: ID.iago,
      body: { deactivation_notification_comment: 'x'.repeat(2001) },
    });
    expect(res.body).toEqual({
      result: 'error',
      msg: 'deactivation_notification_comment is too long (limit: 2000 characters)',
      code: 'BAD_REQUEST',
    });
  });
});

describe('DELETE /bots/{bot_id}', () => {
  it("lets the bot's owner deactivate it, with the events Zulip sends", async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({ method: 'DELETE', path: `/api/v1/bots/${ID.defaultBot}`, as: ID.desdemona });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.users.get(ID.defaultBot)!.is_active).toBe(false);
    expect(s.engine.state.users.get(ID.desdemona)!.is_active).toBe(true);
    const events = watch.take().filter((e) => e.event.type !== 'subscription');
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: ID.defaultBot, is_active: false } },
      { type: 'realm_bot', op: 'update', bot: { user_id: ID.defaultBot, is_active: false } },
    ]);
    expect(events[0]!.users).toContain(ID.hamlet);
    expect(events[1]!.users).toEqual([ID.desdemona, ID.iago]);
  });

  it('lets an administrator deactivate any bot', async () => {
    const s = sim();
    const res = await s.request({ method: 'DELETE', path: `/api/v1/bots/${ID.outgoingBot}`, as: ID.iago });
    expect(res.status).toBe(200);
    expect(s.engine.state.users.get(ID.outgoingBot)!.is_active).toBe(false);
  });

  const rows: [string, number, number, string][] = [
    ["someone else's bot, by a member", ID.hamlet, ID.defaultBot, 'Insufficient permission'],
    ["someone else's bot, by a moderator", ID.shiva, ID.defaultBot, 'Insufficient permission'],
    ['a human', ID.iago, ID.hamlet, 'No such bot'],
    ['an unknown id', ID.desdemona, 999, 'No such bot'],
    ['a system bot', ID.iago, 4, 'No such bot'],
  ];
  it.each(rows)('refuses %s', async (_name, actor, target, msg) => {
    const s = sim();
    const res = await s.request({ method: 'DELETE', path: `/api/v1/bots/${target}`, as: actor });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    if (s.engine.state.users.has(target)) expect(s.engine.state.users.get(target)!.is_active).toBe(true);
  });

  it('answers success without events for a bot that is already deactivated', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/bots/${ID.defaultBot}`, as: ID.desdemona });
    const watch = watchEvents(s);
    const again = await s.request({ method: 'DELETE', path: `/api/v1/bots/${ID.defaultBot}`, as: ID.desdemona });
    expect(again.body).toEqual({ result: 'success', msg: '' });
    expect(watch.take()).toEqual([]);
  });
});
