// Rate limiting as Zulip does it, on the simulated clock: off by default; when on, X-RateLimit-*
// headers on every counted answer, 429 RATE_LIMIT_HIT with retry-after past the limit, buckets
// per user, per client address for spectators, per username for password attempts.
import { describe, expect, test } from 'vitest';
import { routes, ZULIP_RATE_LIMITING_RULES, type SimulatorOptions } from '../../simulator/index.ts';
import { startSimulatorServer } from '../../simulator/cli/server.ts';
import { createRateLimiter } from '../../simulator/http/rate-limit.ts';
import { ID, NOW, sim } from './helpers.ts';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';

function limited(rateLimit: SimulatorOptions['rateLimit']) {
  return sim({ rateLimit });
}

describe('off by default', () => {
  test('no X-RateLimit headers and no 429, however many calls', async () => {
    const s = sim();
    for (let i = 0; i < 250; i++) {
      const res = await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET });
      expect(res.status).toBe(200);
      expect(Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('x-ratelimit'))).toEqual([]);
    }
  });
});

describe('per user (api_by_user)', () => {
  test('Zulip\'s default: 200 calls a minute, the headers counting down', async () => {
    const s = limited(true);
    expect(ZULIP_RATE_LIMITING_RULES.api_by_user).toEqual([[60, 200]]);
    const first = await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET });
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({
      'X-RateLimit-Limit': '200',
      'X-RateLimit-Remaining': '199',
      'X-RateLimit-Reset': String(NOW + 60),
    });
    for (let i = 2; i <= 200; i++) {
      const res = await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET });
      expect(res.headers['X-RateLimit-Remaining']).toBe(String(200 - i));
    }
    const over = await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET });
    expect(over.status).toBe(429);
  });

  test('over the limit: Zulip\'s RateLimitedError envelope, Retry-After and the headers', async () => {
    const s = limited({ api_by_user: [[60, 3]] });
    for (let i = 0; i < 3; i++) expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET })).status).toBe(200);
    s.clock.advance(20);
    const res = await s.request({ method: 'POST', path: '/api/v1/messages', as: HAMLET, body: { type: 'stream', to: 'Verona', topic: 't', content: 'x' } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 40 });
    expect(res.headers).toMatchObject({
      'Retry-After': '40.0',
      'X-RateLimit-Limit': '3',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(NOW + 60),
    });
    // The refused send did nothing: the next window's search finds no such message.
    s.clock.advance(41);
    const found = await s.request({
      method: 'GET',
      path: '/api/v1/messages',
      as: HAMLET,
      query: { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'sender', operand: ID.hamlet }] },
    });
    expect(found.status).toBe(200);
    expect(found.body.messages.filter((m: { content: string }) => m.content === '<p>x</p>')).toEqual([]);
  });

  test('the window follows the simulated clock: once it has passed, calls are accepted again', async () => {
    const s = limited({ api_by_user: [[60, 2]] });
    const me = () => s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET });
    expect((await me()).status).toBe(200);
    s.clock.advance(30);
    expect((await me()).status).toBe(200);
    const refused = await me();
    expect(refused.status).toBe(429);
    expect(refused.body['retry-after']).toBe(30);
    s.clock.advance(30);
    // The first call is exactly a window old: Zulip still counts it (boundary >= now).
    expect((await me()).status).toBe(429);
    s.clock.advance(1);
    const again = await me();
    expect(again.status).toBe(200);
    expect(again.headers['X-RateLimit-Remaining']).toBe('0');
    expect(again.headers['X-RateLimit-Reset']).toBe(String(NOW + 61 + 60));
  });

  test('each user has a bucket of their own; errors are counted and carry the headers', async () => {
    const s = limited({ api_by_user: [[60, 1]] });
    const bad = await s.request({ method: 'GET', path: '/api/v1/users/999999', as: HAMLET });
    expect(bad.status).toBe(400);
    expect(bad.headers['X-RateLimit-Remaining']).toBe('0');
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET })).status).toBe(429);
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: IAGO })).status).toBe(200);
  });

  test('a reset starts with empty buckets', async () => {
    const s = limited({ api_by_user: [[60, 1]] });
    await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET });
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET })).status).toBe(429);
    s.reset();
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET })).status).toBe(200);
  });

  test('the event queue counts in a bucket of its own (Zulip\'s event server keeps its own limiter)', async () => {
    const s = limited({ api_by_user: [[60, 2]] });
    const reg = await s.request({ method: 'POST', path: '/api/v1/register', as: HAMLET, body: { event_types: ['message'] } });
    expect(reg.status).toBe(200);
    const poll = () => s.request({ method: 'GET', path: '/api/v1/events', as: HAMLET, query: { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true } });
    expect((await poll()).headers['X-RateLimit-Remaining']).toBe('1');
    expect((await poll()).status).toBe(200);
    expect((await poll()).status).toBe(429);
    // The main bucket has one call left.
    expect((await s.request({ method: 'GET', path: '/api/v1/users/me', as: HAMLET })).status).toBe(200);
  });

  test('requests without credentials to routes that need them are not counted', async () => {
    const s = limited({ api_by_user: [[60, 1]], api_by_ip: [[60, 1]] });
    for (let i = 0; i < 3; i++) {
      const res = await s.request({ method: 'GET', path: '/api/v1/users/me' });
      expect(res.status).toBe(401);
      expect(res.headers['X-RateLimit-Limit']).toBeUndefined();
    }
  });
});

describe('per client address (api_by_ip) and per username (authenticate_by_username)', () => {
  test('spectators count per address (X-Real-IP, else the socket\'s peer)', async () => {
    const s = limited({ api_by_ip: [[60, 2]] });
    const spectator = (ip: string) => s.request({ method: 'GET', path: '/api/v1/users', headers: { 'x-real-ip': ip } });
    const first = await spectator('203.0.113.5');
    expect(first.headers).toMatchObject({ 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '1' });
    await spectator('203.0.113.5');
    const over = await spectator('203.0.113.5');
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMIT_HIT');
    expect((await spectator('203.0.113.6')).status).not.toBe(429);
  });

  test('over HTTP (the server `npm run simulator -- --rate-limit` starts), the socket\'s peer is the address', async () => {
    const server = await startSimulatorServer({ port: 0, print: false, rateLimit: { api_by_ip: [[60, 1]] } });
    try {
      const first = await fetch(`${server.url}/users`);
      expect(first.headers.get('x-ratelimit-limit')).toBe('1');
      const second = await fetch(`${server.url}/users`);
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({ code: 'RATE_LIMIT_HIT' });
      // Another address (as Zulip's nginx would say it) has its own bucket.
      expect((await fetch(`${server.url}/users`, { headers: { 'X-Real-IP': '198.51.100.7' } })).status).not.toBe(429);
    } finally {
      await server.close();
    }
  });

  test('password attempts: 5 per 30 minutes per username, a success clears the record', async () => {
    const s = limited(true);
    expect(ZULIP_RATE_LIMITING_RULES.authenticate_by_username).toEqual([[1800, 5]]);
    const login = (username: string, password: string) =>
      s.request({ method: 'POST', path: '/api/v1/fetch_api_key', body: { username, password } });
    for (let i = 0; i < 4; i++) expect((await login(HAMLET, 'wrong')).status).toBe(401);
    const ok = await login(HAMLET, 'hamlet-password');
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject({ 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0' });
    // Cleared by the success: five more wrong ones are allowed, the sixth is refused.
    for (let i = 0; i < 5; i++) expect((await login(HAMLET, 'wrong')).status).toBe(401);
    const refused = await login(HAMLET, 'hamlet-password');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMIT_HIT', 'retry-after': 1800 });
    // Another username is not affected; after the window the right password works again.
    expect((await login(IAGO, 'iago-password')).status).toBe(200);
    s.clock.advance(1801);
    expect((await login(HAMLET, 'hamlet-password')).status).toBe(200);
  });
});

describe('the route table', () => {
  test('only routes that read no credentials, or declare otherwise, are left out of api_by_user', () => {
    const declared = routes.filter((r) => r.rateLimit !== undefined).map((r) => `${r.method} ${r.path} ${r.rateLimit}`);
    expect(declared.sort()).toEqual(['DELETE /events events', 'GET /events events', 'POST /fetch_api_key password']);
  });

  test('a wrong configuration is refused when the simulator is created', () => {
    expect(() => sim({ rateLimit: { api_by_usr: [[60, 1]] } as never })).toThrow(/unknown domain "api_by_usr"/);
    expect(() => sim({ rateLimit: { api_by_user: [[60, 0]] } })).toThrow(/positive whole numbers/);
  });

  test('several rules: the shortest window that is full decides', () => {
    const limiter = createRateLimiter({ api_by_user: [[10, 2], [100, 3]] });
    const key = { domain: 'api_by_user' as const, entity: '1' };
    expect(limiter.check(key, 0)).toMatchObject({ limited: false, limit: 3, remaining: 2 });
    expect(limiter.check(key, 1).limited).toBe(false);
    expect(limiter.check(key, 2)).toMatchObject({ limited: true, secondsToFreedom: 8 });
    expect(limiter.check(key, 12).limited).toBe(false);
    expect(limiter.check(key, 50)).toMatchObject({ limited: true, secondsToFreedom: 50 });
  });
});
