// GET /users/{user_id}/channels (zulip.yaml get-user-channels, feature level 440; bots since 458):
// the target's subscriptions, limited to the channels the caller has metadata access to.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, sim } from './helpers.ts';

const S = { zulip: 1, sandbox: 2, verona: 3, denmark: 4, rome: 5, scotland: 6, venice: 7, coreTeam: 8 };
const ok = { result: 'success', msg: '' };
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

const channelsOf = (s: Simulator, userId: number, as: number) => s.request({ method: 'GET', path: `/api/v1/users/${userId}/channels`, as });

describe('GET /users/{user_id}/channels', () => {
  it("lists a user's channels, ascending; a private channel only to those who can see it", async () => {
    const s = sim();
    expect((await channelsOf(s, ID.hamlet, ID.hamlet)).body).toEqual({ ...ok, subscribed_channel_ids: [S.zulip, S.sandbox, S.verona, S.denmark, S.coreTeam] });
    // Othello is not in "core team"; an administrator sees every channel's subscribers.
    expect((await channelsOf(s, ID.hamlet, ID.othello)).body).toEqual({ ...ok, subscribed_channel_ids: [S.zulip, S.sandbox, S.verona, S.denmark] });
    expect((await channelsOf(s, ID.hamlet, ID.iago)).body).toEqual({ ...ok, subscribed_channel_ids: [S.zulip, S.sandbox, S.verona, S.denmark, S.coreTeam] });
  });

  it('shows a guest only the channels the guest can see', async () => {
    const s = sim();
    const mine = (await channelsOf(s, ID.polonius, ID.polonius)).body.subscribed_channel_ids as number[];
    const seen = (await channelsOf(s, ID.hamlet, ID.polonius)).body.subscribed_channel_ids as number[];
    const all = (await channelsOf(s, ID.hamlet, ID.iago)).body.subscribed_channel_ids as number[];
    expect(seen.length).toBeLessThan(all.length);
    for (const id of seen) expect(all).toContain(id);
    // A public channel the guest is not in stays hidden.
    const res = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.polonius, body: { subscriptions: JSON.stringify(['Verona']) } });
    expect(res.status).toBe(200);
    expect((await channelsOf(s, ID.hamlet, ID.polonius)).body.subscribed_channel_ids).not.toContain(S.verona);
    expect(mine).toContain(S.verona);
  });

  it('follows subscribing and unsubscribing, and answers for bots', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: JSON.stringify(['Denmark']) } });
    await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: JSON.stringify([{ name: 'Rome' }]) } });
    expect((await channelsOf(s, ID.hamlet, ID.othello)).body.subscribed_channel_ids).toEqual([S.zulip, S.sandbox, S.verona, S.rome]);
    const bot = await channelsOf(s, ID.defaultBot, ID.othello);
    expect(bot.status).toBe(200);
    expect(Array.isArray(bot.body.subscribed_channel_ids)).toBe(true);
  });

  it.each([
    ['an unknown user', 999, 'No such user'],
    ['a system bot', 4, 'No such user'],
  ])('refuses %s', async (_what, userId, msg) => {
    const res = await channelsOf(sim(), userId, ID.othello);
    expect([res.status, res.body]).toEqual([400, error(msg)]);
  });

  it('refuses a deactivated user', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect((await channelsOf(s, ID.othello, ID.hamlet)).body).toEqual(error('User is deactivated'));
  });
});
