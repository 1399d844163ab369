/**
 * Account enumeration by timing: an unknown email must cost what a known email with a wrong
 * secret costs. Timing itself is too noisy to test, so these tests count the secret comparisons
 * each path makes, through the dispatcher's injectable comparator.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../simulator/http/auth.ts';
import { createDispatcher } from '../../simulator/http/dispatch.ts';
import { basicAuth, encodeForm, routes } from '../../simulator/index.ts';
import { sim } from './helpers.ts';

/** A dispatcher on the dev realm whose secret comparisons are recorded as [expected length, given]. */
function countingDispatcher() {
  const s = sim();
  const comparisons: [number, string][] = [];
  const handle = createDispatcher(() => s.engine, routes, {
    secretsEqual: (expected, given) => {
      comparisons.push([expected.length, given]);
      return constantTimeEqual(expected, given);
    },
  });
  return { handle, comparisons };
}

const WRONG_KEY = 'A'.repeat(32);

describe('HTTP Basic auth does the same work for unknown and known emails', () => {
  it.each([
    ['an unknown email', 'ghost@zulip.com'],
    ['a known email with a wrong key', 'hamlet@zulip.com'],
  ])('%s: one 32-character comparison, then "Invalid API key"', async (_name, email) => {
    const { handle, comparisons } = countingDispatcher();
    const res = await handle({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: basicAuth(email, WRONG_KEY) } });
    expect([res.status, JSON.parse(res.body)]).toEqual([401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }]);
    expect(comparisons).toEqual([[32, WRONG_KEY]]);
  });
});

describe('HTTP Basic auth compares the key on every request', () => {
  it('a header sent again is compared again (what a header says is remembered, never that it was right)', async () => {
    const { handle, comparisons } = countingDispatcher();
    const header = basicAuth('hamlet@zulip.com', WRONG_KEY);
    for (let i = 0; i < 3; i++) {
      const res = await handle({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: header } });
      expect(res.status).toBe(401);
    }
    expect(comparisons).toEqual([
      [32, WRONG_KEY],
      [32, WRONG_KEY],
      [32, WRONG_KEY],
    ]);
  });
});

describe('POST /fetch_api_key does the same work for unknown and known emails', () => {
  it.each([
    ['an unknown email', 'ghost@zulip.com'],
    ['a known email with a wrong password', 'hamlet@zulip.com'],
    ['a system bot (no login)', 'notification-bot@zulip.com'],
    ['a bot (no password)', 'default-bot@zulip.com'],
  ])('%s: one password comparison, then the same refusal', async (_name, username) => {
    const { handle, comparisons } = countingDispatcher();
    const res = await handle({
      method: 'POST',
      url: '/api/v1/fetch_api_key',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: encodeForm({ username, password: 'not-the-password' }),
    });
    expect([res.status, JSON.parse(res.body)]).toEqual([
      401,
      { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' },
    ]);
    expect(comparisons.map(([, given]) => given)).toEqual(['not-the-password']);
  });
});

describe('POST /jwt/fetch_api_key judges the signature before it reads the email', () => {
  const sign = (email: string, key: string) =>
    new SignJWT({ email }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
  const login = async (token: string) => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/jwt/fetch_api_key', body: { token } });
    return [res.status, res.body.msg];
  };

  it('a badly signed token is refused alike for known and unknown emails', async () => {
    expect(await login(await sign('hamlet@zulip.com', 'not-the-key'))).toEqual([400, 'Bad JSON web token']);
    expect(await login(await sign('ghost@zulip.com', 'not-the-key'))).toEqual([400, 'Bad JSON web token']);
    // Only a token signed with the realm's key gets as far as the account lookup.
    expect(await login(await sign('ghost@zulip.com', 'key1'))).toEqual([401, 'Your username or password is incorrect']);
  });
});
