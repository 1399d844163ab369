/** The HTTP conventions every route shares (zerver/lib/rest.py, zerver/lib/response.py): envelope, routing, parsing, Basic auth. */
import { describe, expect, it } from 'vitest';
import { basicAuth } from '../../simulator/index.ts';
import { ID, assertValid, devFixture, sim, validateEnvelope } from './helpers.ts';

describe('routing', () => {
  it('answers an unknown /api/v1 path with a JSON 404, credentials or not', async () => {
    const s = sim();
    for (const as of [null, 'hamlet@zulip.com']) {
      const res = await s.request({ method: 'GET', path: '/api/v1/no/such/thing', as });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    }
  });

  it('answers a known path with the wrong method with 405 before authenticating', async () => {
    const res = await sim().request({ method: 'PUT', path: '/api/v1/users/me', as: null });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'DELETE', 'HEAD'] });
  });

  it('lists allowed methods in definition order with HEAD after GET', async () => {
    const res = await sim().request({ method: 'PUT', path: '/api/v1/users/me/subscriptions/4', as: null });
    expect(res.body.allowed_methods).toEqual(['POST', 'PATCH']);
    const login = await sim().request({ method: 'GET', path: '/api/v1/fetch_api_key' });
    expect(login.status).toBe(405);
    expect(login.body.allowed_methods).toEqual(['POST']);
  });

  it('answers OPTIONS with 204 and a sorted Allow header', async () => {
    const res = await sim().request({ method: 'OPTIONS', path: '/api/v1/users/me/subscriptions/4' });
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('PATCH, POST');
    expect(res.body).toBe('');
  });

  it('serves HEAD from the GET handler without a body', async () => {
    const res = await sim().request({ method: 'HEAD', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });

  it('matches paths exactly: a trailing slash is another (unknown) path', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/', as: 'hamlet@zulip.com' });
    expect(res.status).toBe(404);
  });

  it('reads int path segments as base-10 integers, leading zeros included', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/0010', as: 'hamlet@zulip.com' });
    expect(res.body.user.user_id).toBe(ID.hamlet);
  });

  it('does not match an int path parameter with letters', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/streams/abc/email_address', as: 'hamlet@zulip.com' });
    expect(res.status).toBe(404);
  });

  it('honours the legacy `method` form field of a POST and reports it as ignored', async () => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/users/me', as: 'hamlet@zulip.com', body: { method: 'GET' } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe(ID.hamlet);
    expect(res.body.ignored_parameters_unsupported).toEqual(['method']);
  });
});

describe('envelope', () => {
  it('merges endpoint fields at the top level, with a trailing newline on the wire', async () => {
    const s = sim();
    const raw = await s.handle({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key) },
    });
    expect(raw.body.endsWith('}\n')).toBe(true);
    const body = JSON.parse(raw.body);
    expect(body).toMatchObject({ result: 'success', msg: '', user_id: ID.hamlet });
    assertValid(validateEnvelope, body);
  });

  it('lists unsupported parameters, sorted, from body and query; `client` counts as used', async () => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions/properties?zeta=1',
      as: 'hamlet@zulip.com',
      body: { subscription_data: [{ stream_id: 4, property: 'pin_to_top', value: true }], alpha: 'x', client: 'test' },
    });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['alpha', 'zeta'] });
  });

  it('lists a parameter sent in both the body and the query once', async () => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions/properties?beta=1&alpha=2',
      as: 'hamlet@zulip.com',
      body: { subscription_data: [{ stream_id: 4, property: 'pin_to_top', value: true }], beta: 'x' },
    });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['alpha', 'beta'] });
  });

  it('leaves the key out when every parameter was used', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users', as: 'hamlet@zulip.com', query: { client_gravatar: false } });
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
  });
});

describe('parameter decoding (zerver/lib/typed_endpoint.py)', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['missing required', {}, 'REQUEST_VARIABLE_MISSING', "Missing 'subscription_data' argument"],
    ['not JSON', { subscription_data: '[oops' }, 'BAD_REQUEST', 'subscription_data is not valid JSON'],
    ['not a list', { subscription_data: { a: 1 } }, 'BAD_REQUEST', 'subscription_data is not a list'],
    [
      'nested wrong type',
      { subscription_data: [{ stream_id: 'x', property: 'color', value: '#fff' }] },
      'BAD_REQUEST',
      'subscription_data[0]["stream_id"] is not an integer',
    ],
    // Unknown keys of an item are ignored (a plain pydantic BaseModel upstream): see
    // reference-conformance.test.ts.
  ];
  it.each(cases)('%s', async (_name, body, code, msg) => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/users/me/subscriptions/properties', as: 'hamlet@zulip.com', body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code, msg });
    if (code === 'REQUEST_VARIABLE_MISSING') expect(res.body.var_name).toBe('subscription_data');
  });

  const boolCases: [string, string][] = [
    ['True', 'client_gravatar is not valid JSON'],
    ['1', 'client_gravatar is not a boolean'],
    ['"true"', 'client_gravatar is not a boolean'],
  ];
  it.each(boolCases)('booleans must be JSON literals: %s', async (raw, msg) => {
    const res = await sim().request({ method: 'GET', path: `/api/v1/users?client_gravatar=${encodeURIComponent(raw)}`, as: 'hamlet@zulip.com' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('integers must be JSON integers: "5.0" is not one', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/streams/4/email_address?sender_id=5.0', as: 'hamlet@zulip.com' });
    expect(res.body).toEqual({ result: 'error', msg: 'sender_id is not an integer', code: 'BAD_REQUEST' });
  });

  it('never reads a JSON request body: its parameters look missing', async () => {
    const s = sim();
    const raw = await s.handle({
      method: 'POST',
      url: '/api/v1/fetch_api_key',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'hamlet@zulip.com', password: 'hamlet-password' }),
    });
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.body)).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'username' argument" });
  });

  it('reads multipart/form-data bodies (what zulip-js sends)', async () => {
    const form = new FormData();
    form.append('username', 'hamlet@zulip.com');
    form.append('password', 'hamlet-password');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const body = Buffer.from(await request.arrayBuffer());
    const s = sim();
    const raw = await s.handle({
      method: 'POST',
      url: '/api/v1/fetch_api_key',
      headers: { 'content-type': request.headers.get('content-type')! },
      body,
    });
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.body)).toMatchObject({ email: 'hamlet@zulip.com', user_id: ID.hamlet });
  });

  it('reads DELETE bodies when form-encoded', async () => {
    const res = await sim().request({
      method: 'DELETE',
      path: '/api/v1/users/12',
      as: 'iago@zulip.com',
      body: { actions: { bogus: true } },
    });
    expect(res.body).toEqual({ result: 'error', msg: 'Argument "bogus" at actions is unexpected', code: 'BAD_REQUEST' });
  });
});

describe('HTTP Basic authentication (zerver/decorator.py, zerver/lib/rest.py)', () => {
  const header = (text: string) => ({ authorization: text });
  const b64 = (text: string) => Buffer.from(text).toString('base64');

  it('accepts the delivery email or the API email, case-insensitively', async () => {
    const s = sim();
    const key = s.engine.state.users.get(ID.hamlet)!.api_key;
    for (const username of ['hamlet@zulip.com', 'HAMLET@Zulip.com', 'user10@zulip.testserver']) {
      const res = await s.request({ method: 'GET', path: '/api/v1/users/me', headers: header(basicAuth(username, key)) });
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(ID.hamlet);
    }
  });

  it('answers each malformed or wrong credential as Zulip does', async () => {
    const s = sim();
    const key = s.engine.state.users.get(ID.hamlet)!.api_key;
    const othelloKey = s.engine.state.users.get(ID.othello)!.api_key;
    const rows: [string, number, string, string][] = [
      ['Basic', 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
      [`Bearer ${b64(`hamlet@zulip.com:${key}`)}`, 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.'],
      [`Basic ${b64('no-colon-here')}`, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
      [`Basic ${b64(`a:b:${key}`)}`, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
      ['Basic !!!notbase64', 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
      [basicAuth('hamlet@zulip.com', 'short'), 401, 'UNAUTHORIZED', 'Malformed API key'],
      [basicAuth('hamlet@zulip.com', 'A'.repeat(32)), 401, 'UNAUTHORIZED', 'Invalid API key'],
      [basicAuth('hamlet@zulip.com', othelloKey), 401, 'UNAUTHORIZED', 'Invalid API key'],
    ];
    for (const [value, status, code, msg] of rows) {
      const res = await s.request({ method: 'GET', path: '/api/v1/users/me', headers: header(value) });
      expect([value, res.status, res.body]).toEqual([value, status, { result: 'error', code, msg }]);
      if (status === 401) expect(res.headers['WWW-Authenticate']).toBe('Basic realm="zulip"');
    }
  });

  it('refuses a request without credentials with the spec message', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: 'error',
      msg: 'Not logged in: API authentication or user session required',
      code: 'UNAUTHORIZED',
    });
  });

  it('redirects a browser (Accept: text/html) without credentials to the login page', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me', headers: { accept: 'text/html' } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/login\//);
  });

  it('refuses every key of a deactivated organization', async () => {
    const fixture = devFixture();
    fixture.realm.deactivated = true;
    const res = await sim({ fixture }).request({ method: 'GET', path: '/api/v1/users/me', as: 'hamlet@zulip.com' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: 'error', msg: 'This organization has been deactivated', code: 'UNAUTHORIZED' });
  });

  it('refuses incoming-webhook bots on normal endpoints', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me', as: ID.webhookBot });
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('This API is not available to incoming webhook bots.');
  });

  it('refuses system bots, which belong to another realm', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me', as: 4 });
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Account is not associated with this subdomain');
  });
});
