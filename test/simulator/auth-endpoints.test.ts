/** Login endpoints (zerver/views/auth.py, zerver/views/development/dev_login.py). */
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ID, assertValid, devFixture, sim, validateUser } from './helpers.ts';

const DOCS_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlbWFpbCI6ImhhbWxldEB6dWxpcC5jb20ifQ.EsHxSVt54zPR-ywgPH54TB1FYmrGKsfq7hsQEhp_9w0';

const sign = (claims: Record<string, unknown>, key = 'key1') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));

describe('POST /fetch_api_key', () => {
  it('returns the key, the real email and the user id', async () => {
    const s = sim();
    const res = await s.request({ method: 'POST', path: '/api/v1/fetch_api_key', body: { username: 'Hamlet@zulip.com', password: 'hamlet-password' } });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      api_key: s.engine.state.users.get(ID.hamlet)!.api_key,
      email: 'hamlet@zulip.com',
      user_id: ID.hamlet,
    });
  });

  const rows: [string, Record<string, string>, number, string, string][] = [
    ['missing username', { password: 'x' }, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument"],
    ['missing password', { username: 'hamlet@zulip.com' }, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument"],
    ['not an email', { username: 'hamlet', password: 'x' }, 400, 'BAD_REQUEST', 'Enter a valid email address.'],
    ['wrong password', { username: 'hamlet@zulip.com', password: 'nope' }, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'],
    ['unknown user', { username: 'ghost@zulip.com', password: 'x' }, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'],
    ['API email is not a login', { username: 'user10@zulip.testserver', password: 'hamlet-password' }, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'],
    ['a bot has no password', { username: 'default-bot@zulip.com', password: '' }, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'],
  ];
  it.each(rows)('%s', async (_name, body, status, code, msg) => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/fetch_api_key', body });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ result: 'error', msg, code, ...(code === 'REQUEST_VARIABLE_MISSING' ? { var_name: msg.split("'")[1] } : {}) });
  });

  it('reports a deactivated realm, and disabled password login', async () => {
    const dead = devFixture();
    dead.realm.deactivated = true;
    const a = await sim({ fixture: dead }).request({ method: 'POST', path: '/api/v1/fetch_api_key', body: { username: 'hamlet@zulip.com', password: 'hamlet-password' } });
    expect([a.status, a.body]).toEqual([401, { result: 'error', msg: 'This organization has been deactivated', code: 'REALM_DEACTIVATED' }]);
    const off = devFixture();
    off.realm.password_auth_enabled = false;
    const b = await sim({ fixture: off }).request({ method: 'POST', path: '/api/v1/fetch_api_key', body: { username: 'hamlet@zulip.com', password: 'hamlet-password' } });
    expect([b.status, b.body.code, b.body.msg]).toEqual([401, 'PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization']);
  });

  it('lets the returned key authenticate', async () => {
    const s = sim();
    const login = await s.request({ method: 'POST', path: '/api/v1/fetch_api_key', body: { username: 'iago@zulip.com', password: 'iago-password' } });
    const me = await s.request({ method: 'GET', path: '/api/v1/users/me', as: { username: login.body.email, password: login.body.api_key } });
    expect(me.body.user_id).toBe(ID.iago);
  });
});

describe('POST /jwt/fetch_api_key', () => {
  it("accepts the API docs' example token (HS256, key1)", async () => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/jwt/fetch_api_key', body: { token: DOCS_TOKEN } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['api_key', 'email', 'msg', 'result']);
    expect(res.body.email).toBe('hamlet@zulip.com');
  });

  it('adds the User (no profile_data) with include_profile', async () => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/jwt/fetch_api_key', body: { token: await sign({ email: 'iago@zulip.com' }), include_profile: true } });
    expect(res.body.user).toMatchObject({ user_id: ID.iago, delivery_email: 'iago@zulip.com' });
    expect(res.body.user).not.toHaveProperty('profile_data');
    assertValid(validateUser, res.body.user);
  });

  it('refuses bad tokens in the order Zulip checks them', async () => {
    const s = sim();
    const unsigned = new UnsecuredJWT({ email: 'hamlet@zulip.com' }).encode();
    const rows: [string | undefined, number, string, string][] = [
      [undefined, 400, 'BAD_REQUEST', 'No JSON web token passed in request'],
      ['', 400, 'BAD_REQUEST', 'No JSON web token passed in request'],
      ['garbage', 400, 'BAD_REQUEST', 'Bad JSON web token'],
      [unsigned, 400, 'BAD_REQUEST', 'Bad JSON web token'],
      [await sign({ email: 'hamlet@zulip.com' }, 'wrong-key'), 400, 'BAD_REQUEST', 'Bad JSON web token'],
      [await sign({ name: 'hamlet' }), 400, 'BAD_REQUEST', 'No email specified in JSON web token claims'],
      [await sign({ email: 'ghost@zulip.com' }), 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect'],
    ];
    for (const [token, status, code, msg] of rows) {
      const res = await s.request({ method: 'POST', path: '/api/v1/jwt/fetch_api_key', body: token === undefined ? {} : { token } });
      expect([token, res.status, res.body]).toEqual([token, status, { result: 'error', msg, code }]);
    }
  });

  it('refuses when the realm has no JWT key, and deactivated users', async () => {
    const fixture = devFixture();
    fixture.realm.jwt_key = null;
    const off = await sim({ fixture }).request({ method: 'POST', path: '/api/v1/jwt/fetch_api_key', body: { token: DOCS_TOKEN } });
    expect(off.body).toEqual({ result: 'error', msg: 'JWT authentication is not enabled for this organization', code: 'BAD_REQUEST' });
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.hamlet}`, as: ID.iago });
    const dead = await s.request({ method: 'POST', path: '/api/v1/jwt/fetch_api_key', body: { token: DOCS_TOKEN } });
    expect([dead.status, dead.body.code]).toEqual([401, 'USER_DEACTIVATED']);
  });
});

describe('development helpers', () => {
  it('dev_fetch_api_key returns any user key without a password', async () => {
    const s = sim();
    const res = await s.request({ method: 'POST', path: '/api/v1/dev_fetch_api_key', body: { username: 'polonius@zulip.com' } });
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: s.engine.state.users.get(ID.polonius)!.api_key, email: 'polonius@zulip.com', user_id: ID.polonius });
    const ghost = await s.request({ method: 'POST', path: '/api/v1/dev_fetch_api_key', body: { username: 'ghost@zulip.com' } });
    expect([ghost.status, ghost.body.code]).toEqual([401, 'AUTHENTICATION_FAILED']);
    const bad = await s.request({ method: 'POST', path: '/api/v1/dev_fetch_api_key', body: { username: 'ghost' } });
    expect(bad.body.msg).toBe('Enter a valid email address.');
  });

  it('dev_list_users splits active humans by admin rights, ordered by API email, on any method', async () => {
    const s = sim();
    for (const method of ['GET', 'POST']) {
      const res = await s.request({ method, path: '/api/v1/dev_list_users' });
      expect(res.body.direct_admins).toEqual([
        { email: 'iago@zulip.com', realm_url: 'http://zulip.testserver' },
        { email: 'desdemona@zulip.com', realm_url: 'http://zulip.testserver' },
      ]);
      expect(res.body.direct_users.map((u: { email: string }) => u.email)).toEqual([
        'hamlet@zulip.com',
        'othello@zulip.com',
        'polonius@zulip.com',
        'prospero@zulip.com',
        'shiva@zulip.com',
        'AARON@zulip.com',
        'ZOE@zulip.com',
        'cordelia@zulip.com',
      ]);
    }
  });
});
