/** The default fixture mirrors the Zulip test-suite realm (zilencer/management/commands/populate_db.py). */
import { describe, expect, it } from 'vitest';
import { ID, sim } from './helpers.ts';

describe('dev realm fixture', () => {
  const users: [number, string, string, number, string][] = [
    [6, 'aaron', 'AARON@zulip.com', 400, 'US/Pacific'],
    [7, 'Zoe', 'ZOE@zulip.com', 400, 'US/Eastern'],
    [8, "Cordelia, Lear's daughter", 'cordelia@zulip.com', 400, 'UTC'],
    [9, 'Desdemona', 'desdemona@zulip.com', 100, 'Canada/Newfoundland'],
    [10, 'King Hamlet', 'hamlet@zulip.com', 400, ''],
    [11, 'Iago', 'iago@zulip.com', 200, 'US/Eastern'],
    [12, 'Othello, the Moor of Venice', 'othello@zulip.com', 400, 'US/Pacific'],
    [13, 'Polonius', 'polonius@zulip.com', 600, 'Asia/Shanghai'],
    [14, 'Prospero from The Tempest', 'prospero@zulip.com', 400, ''],
    [15, 'शिव', 'shiva@zulip.com', 300, 'Asia/Kolkata'],
  ];
  it.each(users)('user %i is %s <%s>, role %i, time zone "%s"', async (id, name, email, role, timezone) => {
    const res = await sim().request({ method: 'GET', path: `/api/v1/users/${id}`, as: ID.iago });
    expect(res.body.user).toMatchObject({ full_name: name, delivery_email: email, email: `user${id}@zulip.testserver`, role, timezone });
  });

  it('has the three realm bots with their owners and types', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users', as: ID.iago, query: { user_ids: [16, 17, 18] } });
    expect(res.body.members.map((u: Record<string, unknown>) => [u.user_id, u.email, u.bot_type, u.bot_owner_id])).toEqual([
      [16, 'default-bot@zulip.com', 1, ID.desdemona],
      [17, 'webhook-bot@zulip.com', 2, ID.zoe],
      [18, 'outgoing-webhook@zulip.com', 3, ID.aaron],
    ]);
  });

  const subscriptions: [number, string[]][] = [
    [ID.aaron, ['Verona']],
    [ID.cordelia, ['Verona']],
    [ID.polonius, ['Verona']],
    [ID.hamlet, ['Denmark', 'Verona', 'Zulip', 'core team', 'sandbox']],
    [ID.iago, ['Denmark', 'Scotland', 'Verona', 'Zulip', 'core team', 'sandbox']],
    [ID.othello, ['Denmark', 'Scotland', 'Verona']],
    [ID.shiva, ['Denmark', 'Scotland', 'Verona']],
    [ID.prospero, ['Denmark', 'Scotland', 'Venice', 'Verona']],
    [ID.zoe, ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona']],
    [ID.desdemona, ['Denmark', 'Venice', 'Verona', 'Zulip', 'core team', 'sandbox']],
  ];
  it.each(subscriptions)('user %i is subscribed to %j', async (id, channels) => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me/subscriptions', as: id });
    expect(res.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(channels);
  });

  it("has the custom profile fields with Hamlet's values, and the green_tick emoji", async () => {
    const s = sim();
    const res = await s.request({ method: 'GET', path: '/api/v1/users/me', as: ID.hamlet });
    expect(Object.fromEntries(Object.entries(res.body.profile_data).map(([k, v]) => [k, (v as { value: string }).value]))).toEqual({
      '1': '+0-11-23-456-7890',
      '2': 'I am:\n* The prince of Denmark\n* Nephew to the usurping Claudius',
      '3': 'Dark chocolate',
      '4': '0',
      '5': '1900-01-01',
      '6': 'https://blog.zulig.org',
      '7': '[11]',
      '8': 'zulipbot',
      '9': 'he/him',
    });
    expect(s.engine.state.realm.custom_profile_fields.map((f) => f.name)).toEqual([
      'Phone number',
      'Biography',
      'Favorite food',
      'Favorite editor',
      'Birthday',
      'Favorite website',
      'Mentor',
      'GitHub username',
      'Pronouns',
      // Not in Zulip's dev realm: the simulator's example of a field users may not edit.
      'Employee ID',
    ]);
    expect([...s.engine.state.realm.emoji.values()].map((e) => e.name)).toEqual(['green_tick']);
  });
});
