/**
 * POST /users/me/api_key/regenerate (regenerate-api-key; zerver/views/user_settings.py,
 * do_regenerate_api_key) and PATCH /users/{email} (update-user-by-email; zerver/views/users.py
 * update_user_by_email_api), as Zulip answers them.
 */
import { describe, expect, it } from 'vitest';
import { ID, sim, watchEvents } from './helpers.ts';

describe('POST /users/me/api_key/regenerate', () => {
  it('gives a new key; the old one no longer authenticates, the new one does', async () => {
    const s = sim();
    const hamlet = s.engine.state.users.get(ID.hamlet)!;
    const old = hamlet.api_key;
    const res = await s.request({ method: 'POST', path: '/api/v1/users/me/api_key/regenerate', as: ID.hamlet });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(res.body.api_key).not.toBe(old);
    const withOld = await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: hamlet.delivery_email, password: old } });
    expect(withOld.status).toBe(401);
    expect(withOld.body).toMatchObject({ result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
    const withNew = await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: hamlet.delivery_email, password: res.body.api_key as string } });
    expect(withNew.status).toBe(200);
  });

  it("lets a bot renew its own key, and tells the bot's owner", async () => {
    const s = sim();
    const bot = s.engine.state.users.get(ID.defaultBot)!;
    const watch = watchEvents(s);
    const res = await s.request({ method: 'POST', path: '/api/v1/users/me/api_key/regenerate', as: ID.defaultBot });
    expect(res.status).toBe(200);
    const [told] = watch.take();
    expect(told!.event).toEqual({ type: 'realm_bot', op: 'update', bot: { user_id: ID.defaultBot, api_key: res.body.api_key } });
    expect(told!.users).toContain(bot.bot_owner_id!);
  });
});

describe('PATCH /users/{email}', () => {
  it('changes the user found by email, as PATCH /users/{user_id} does', async () => {
    const s = sim();
    const res = await s.request({ method: 'PATCH', path: '/api/v1/users/hamlet@zulip.com', as: ID.iago, body: { full_name: 'Prince Hamlet' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(s.engine.state.users.get(ID.hamlet)!.full_name).toBe('Prince Hamlet');
  });

  it('takes the user{id}@ dummy address too', async () => {
    const s = sim();
    const res = await s.request({ method: 'PATCH', path: `/api/v1/users/user${ID.hamlet}@${s.engine.state.realm.host}`, as: ID.iago, body: { role: '300' } });
    expect(res.status).toBe(200);
    expect(s.engine.state.users.get(ID.hamlet)!.role).toBe(300);
  });

  it('answers No such user for an unknown address, and keeps non-admins out', async () => {
    const s = sim();
    expect((await s.request({ method: 'PATCH', path: '/api/v1/users/nobody@zulip.com', as: ID.iago, body: { full_name: 'X' } })).body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    // Iago's real address is hidden from Hamlet (administrators only), so he names Iago by the dummy.
    expect((await s.request({ method: 'PATCH', path: '/api/v1/users/iago@zulip.com', as: ID.hamlet, body: { full_name: 'X' } })).body).toMatchObject({ msg: 'No such user' });
    const member = await s.request({ method: 'PATCH', path: `/api/v1/users/user${ID.iago}@${s.engine.state.realm.host}`, as: ID.hamlet, body: { full_name: 'X' } });
    expect(member.status).toBe(400);
    expect(member.body).toMatchObject({ result: 'error', msg: 'Insufficient permission' });
  });

  it('leaves PATCH /users/me what Zulip has it: not allowed', async () => {
    const res = await sim().request({ method: 'PATCH', path: '/api/v1/users/me', as: ID.iago, body: { full_name: 'X' } });
    expect(res.status).toBe(405);
  });
});
