/**
 * `handle.answer`, what the HTTP server calls: a request that has nothing to wait for is answered
 * at once (no promise, so no microtask hops per request), one that has (a multipart body, a
 * parked long-poll, a fault's latency) with a promise; either way with the bytes `handle()` gives.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth, type Simulator } from '../../simulator/index.ts';
import type { RawRequest } from '../../simulator/http/dispatch.ts';
import { ID, sim } from './helpers.ts';

const as = (s: Simulator, email: string): Record<string, string> => {
  const user = [...s.engine.state.users.values()].find((u) => u.delivery_email === email)!;
  return { authorization: basicAuth(email, user.api_key) };
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

type Case = [name: string, request: (s: Simulator) => RawRequest, waits: boolean];

const form = new FormData();
form.append('username', 'hamlet@zulip.com');
form.append('password', 'hamlet-password');
const encoded = new Request('http://x/', { method: 'POST', body: form });
const MULTIPART = { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type')! };

const cases: Case[] = [
  ['GET /users/me', (s) => ({ method: 'GET', url: '/api/v1/users/me', headers: as(s, 'hamlet@zulip.com') }), false],
  ['HEAD /users/me', (s) => ({ method: 'HEAD', url: '/api/v1/users/me', headers: as(s, 'hamlet@zulip.com') }), false],
  [
    'POST /messages (a form)',
    (s) => ({ method: 'POST', url: '/api/v1/messages', headers: { ...as(s, 'hamlet@zulip.com'), ...FORM }, body: 'type=stream&to=Verona&topic=t&content=hi' }),
    false,
  ],
  ['an ignored query parameter', (s) => ({ method: 'GET', url: '/api/v1/users/me?zeta=1', headers: as(s, 'iago@zulip.com') }), false],
  ['no credentials (401)', () => ({ method: 'GET', url: '/api/v1/users/me', headers: {} }), false],
  ['an unknown path (404)', (s) => ({ method: 'GET', url: '/api/v1/no/such', headers: as(s, 'hamlet@zulip.com') }), false],
  ['a wrong method (405)', () => ({ method: 'PUT', url: '/api/v1/users/me', headers: {} }), false],
  ['OPTIONS', () => ({ method: 'OPTIONS', url: '/api/v1/users/me', headers: {} }), false],
  ['a bad parameter (400)', (s) => ({ method: 'GET', url: '/api/v1/users?client_gravatar=1', headers: as(s, 'hamlet@zulip.com') }), false],
  ['a multipart body', () => ({ method: 'POST', url: '/api/v1/fetch_api_key', headers: { 'content-type': MULTIPART.type }, body: MULTIPART.body }), true],
];

describe('answering at once what needs no waiting', () => {
  it.each(cases)('%s', async (_name, request, waits) => {
    // Two simulators of the same seed, one asked through answer(), the other through handle().
    const now = sim();
    const later = sim();
    const answered = now.handle.answer!(request(now));
    expect(answered instanceof Promise).toBe(waits);
    expect(await answered).toEqual(await later.handle(request(later)));
  });

  it('answers a long-poll that must wait with a promise, and what it waited for', async () => {
    const s = sim();
    const register = await s.request({ method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com', body: { event_types: ['message'] } });
    const { queue_id, last_event_id } = register.body;
    const poll = s.handle.answer!({
      method: 'GET',
      url: `/api/v1/events?queue_id=${queue_id}&last_event_id=${last_event_id}`,
      headers: as(s, 'hamlet@zulip.com'),
    });
    expect(poll).toBeInstanceOf(Promise);
    const sent = await s.request({ method: 'POST', path: '/api/v1/messages', as: 'othello@zulip.com', body: { type: 'direct', to: [ID.hamlet], content: 'hi' } });
    const answer = JSON.parse((await poll).body);
    expect(answer.events.map((e: { message?: { id: number } }) => e.message?.id)).toEqual([sent.body.id]);
  });

  it('answers with a promise while a fault holds the request', async () => {
    const s = sim();
    s.faults.add({ route: 'GET /users/me', latency_ms: 5 });
    const held = s.handle.answer!({ method: 'GET', url: '/api/v1/users/me', headers: as(s, 'hamlet@zulip.com') });
    expect(held).toBeInstanceOf(Promise);
    expect(JSON.parse((await held).body)).toMatchObject({ result: 'success', user_id: ID.hamlet });
  });
});
