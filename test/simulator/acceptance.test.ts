/**
 * Acceptance: what a client that works against this simulator must also find on a real Zulip
 * server. Each row was found by driving the simulator as clients do (curl, the Python client's
 * form encoding, zulip-js) and checked against Zulip's views (zerver/views/streams.py,
 * zerver/lib/users.py, zerver/lib/typed_endpoint*.py): no leniency a real server lacks.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenHttp } from '../../simulator/http/node.ts';
import { basicAuth } from '../../simulator/index.ts';
import { ID, assertValid, devFixture, sim, validateChannel, validateOwnUser, validateUser } from './helpers.ts';

const subscribe = (s: ReturnType<typeof sim>, as: number, body: Record<string, unknown>) =>
  s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as, body });

describe('creation settings are JSON-encoded, as Zulip declares them', () => {
  // add_subscriptions_backend: topics_policy is Json[str | None] with an enum validator,
  // message_retention_days is Json[str] | Json[int]. The Python client sends a str argument
  // bare, so `topics_policy="inherit"` reaches the server as `inherit` and is refused there.
  const refused: [string, Record<string, unknown>, string][] = [
    ['bare topics_policy', { topics_policy: 'inherit' }, 'topics_policy is not valid JSON'],
    ['numeric topics_policy', { topics_policy: 1 }, 'topics_policy is not a string'],
    ['null topics_policy', { topics_policy: null }, 'Invalid topics_policy'],
    ['unknown topics_policy', { topics_policy: '"sometimes"' }, 'Invalid topics_policy'],
    ['bare retention word', { message_retention_days: 'unlimited' }, 'message_retention_days is not valid JSON'],
    ['bare realm_default', { message_retention_days: 'realm_default' }, 'message_retention_days is not valid JSON'],
    ['float retention', { message_retention_days: '5.0' }, 'message_retention_days is not a string'],
    ['boolean retention', { message_retention_days: true }, 'message_retention_days is not a string'],
    ['retention as a JSON string of digits', { message_retention_days: '"30"' }, "Bad value for 'message_retention_days': 30"],
    ['zero retention', { message_retention_days: 0 }, "Bad value for 'message_retention_days': 0"],
  ];
  it.each(refused)('POST /users/me/subscriptions refuses %s', async (_label, extra, msg) => {
    const res = await subscribe(sim(), ID.desdemona, { subscriptions: [{ name: 'fresh' }], ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it.each(refused)('POST /channels/create refuses %s', async (_label, extra, msg) => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/channels/create',
      as: ID.desdemona,
      body: { name: 'fresh', subscribers: [ID.desdemona], ...extra },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  const accepted: [string, Record<string, unknown>, { topics_policy: string; message_retention_days: number | null }][] = [
    ['JSON strings', { topics_policy: '"allow_empty_topic"', message_retention_days: '"unlimited"' }, { topics_policy: 'allow_empty_topic', message_retention_days: -1 }],
    ['a JSON integer', { message_retention_days: 30 }, { topics_policy: 'inherit', message_retention_days: 30 }],
    ['"realm_default"', { message_retention_days: '"realm_default"' }, { topics_policy: 'inherit', message_retention_days: null }],
  ];
  it.each(accepted)('takes %s', async (_label, extra, expected) => {
    const s = sim();
    const res = await subscribe(s, ID.desdemona, { subscriptions: [{ name: 'fresh' }], ...extra });
    expect(res.body).toMatchObject({ result: 'success', subscribed: { [ID.desdemona]: ['fresh'] } });
    const streams = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.desdemona });
    expect(streams.body.streams.find((c: { name: string }) => c.name === 'fresh')).toMatchObject(expected);
  });
});

describe('principals by email match the API email only (bulk_access_users_by_email)', () => {
  const rows: [string, number, unknown[], number, Record<string, unknown>][] = [
    // Every dev-realm address is hidden: the API email is user{id}@zulip.testserver.
    ['a member naming a hidden delivery email', ID.hamlet, ['othello@zulip.com'], 400, { msg: 'No such user' }],
    ['an administrator, who can see it, naming it', ID.iago, ['othello@zulip.com'], 400, { msg: 'No such user' }],
    ['the fake API address', ID.hamlet, ['user12@zulip.testserver'], 200, { subscribed: { '12': ['Rome'] } }],
    ['the API address in other case, padded', ID.hamlet, [' User12@Zulip.Testserver '], 200, { subscribed: { '12': ['Rome'] } }],
    ['a system bot', ID.iago, ['notification-bot@zulip.com'], 400, { msg: 'No such user' }],
  ];
  it.each(rows)('%s', async (_label, as, principals, status, body) => {
    const res = await subscribe(sim(), as, { subscriptions: [{ name: 'Rome' }], principals });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(body);
  });

  it('takes a delivery email when that user shows it to everyone (it is then the API email)', async () => {
    const fixture = devFixture();
    const othello = fixture.users.find((u) => u.id === ID.othello)!;
    othello.email_address_visibility = 1;
    const res = await subscribe(sim({ fixture }), ID.hamlet, { subscriptions: [{ name: 'Rome' }], principals: ['OTHELLO@zulip.com'] });
    expect(res.body).toMatchObject({ result: 'success', subscribed: { '12': ['Rome'] } });
  });

  it('checks that every principal exists before looking at deactivation', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const byId = await subscribe(s, ID.iago, { subscriptions: [{ name: 'Rome' }], principals: [ID.othello, 9999] });
    expect(byId.body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const byEmail = await subscribe(s, ID.iago, {
      subscriptions: [{ name: 'Rome' }],
      principals: ['user12@zulip.testserver', 'nobody@zulip.testserver'],
    });
    expect(byEmail.body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const deactivated = await subscribe(s, ID.iago, { subscriptions: [{ name: 'Rome' }], principals: [ID.othello] });
    expect(deactivated.body).toEqual({ result: 'error', msg: 'User is deactivated', code: 'BAD_REQUEST' });
  });
});

describe('request bodies as Django reads them', () => {
  it('reads a form body that is not UTF-8 as ISO-8859-1, %-escapes still as UTF-8', async () => {
    const s = sim();
    const hamlet = s.engine.state.users.get(ID.hamlet)!;
    // `Caf\xe9` raw (a Latin-1 client) and `Caf%C3%A9` escaped name the same channel.
    const body = Buffer.concat([Buffer.from('subscriptions=[{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"},{"name":"Caf%C3%A9 2"}]')]);
    const res = await s.handle({
      method: 'POST',
      url: '/api/v1/users/me/subscriptions',
      headers: { authorization: basicAuth(hamlet.delivery_email, hamlet.api_key), 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
    });
    expect(JSON.parse(res.body)).toMatchObject({ result: 'success', subscribed: { '10': ['Café', 'Café 2'] } });
  });
});

describe('multipart file parts are no parameters (Django puts them in request.FILES)', () => {
  async function postMultipart(form: FormData) {
    const s = sim();
    const hamlet = s.engine.state.users.get(ID.hamlet)!;
    const encoded = new Request('http://simulator.invalid/', { method: 'POST', body: form });
    return s.handle({
      method: 'POST',
      url: '/api/v1/users/me/subscriptions',
      headers: { authorization: basicAuth(hamlet.delivery_email, hamlet.api_key), 'content-type': encoded.headers.get('content-type')! },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
  }

  it('a required parameter sent as a file is missing', async () => {
    const form = new FormData();
    form.append('subscriptions', new Blob(['[{"name":"Rome"}]']), 'subs.json');
    const res = await postMultipart(form);
    expect(JSON.parse(res.body)).toEqual({
      result: 'error',
      msg: "Missing 'subscriptions' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'subscriptions',
    });
  });

  it('a file part is not reported as an ignored parameter', async () => {
    const form = new FormData();
    form.append('subscriptions', '[{"name":"Rome"}]');
    form.append('attachment', new Blob(['x']), 'x.txt');
    form.append('extra', 'y');
    const body = JSON.parse((await postMultipart(form)).body);
    expect(body).toMatchObject({ result: 'success', subscribed: { '10': ['Rome'] } });
    expect(body.ignored_parameters_unsupported).toEqual(['extra']);
  });
});

describe('Expect: 100-continue', () => {
  /** The first status line the server sends for these request headers (no body sent). */
  async function firstStatusLine(url: string, length: number): Promise<string> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/users/me/subscriptions HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`,
        );
      });
      socket.once('data', (chunk: Buffer) => {
        resolve(chunk.toString('latin1').split('\r\n')[0]!);
        socket.destroy();
      });
      socket.once('error', reject);
    });
  }

  it('invites a body within the limit and refuses a larger one before it is sent', async () => {
    const server = await listenHttp(sim().handle, 0, '127.0.0.1', { maxBodyBytes: 1000 });
    try {
      expect(await firstStatusLine(server.url, 1000)).toBe('HTTP/1.1 100 Continue');
      expect(await firstStatusLine(server.url, 1001)).toBe('HTTP/1.1 413 Payload Too Large');
    } finally {
      await server.close();
    }
  });
});

describe('topics_policy needs can_set_topics_policy_group (UserProfile.can_set_topics_policy)', () => {
  function restricted() {
    const s = sim();
    // As upstream's test does: only owners may; administrators always may.
    s.engine.state.realm.can_set_topics_policy_group = s.engine.state.realm.system_groups['role:owners']!;
    return s;
  }
  const rows: [string, number, string, Record<string, unknown>, number][] = [
    ['a member creating', ID.hamlet, '"disable_empty_topic"', { subscriptions: [{ name: 'fresh' }] }, 400],
    ['a member naming only existing channels', ID.hamlet, '"allow_empty_topic"', { subscriptions: [{ name: 'Denmark' }] }, 400],
    ['a member asking for inherit', ID.hamlet, '"inherit"', { subscriptions: [{ name: 'fresh' }] }, 200],
    ['an administrator outside the group', ID.iago, '"disable_empty_topic"', { subscriptions: [{ name: 'fresh' }] }, 200],
  ];
  it.each(rows)('POST /users/me/subscriptions: %s', async (_label, as, policy, body, status) => {
    const res = await subscribe(restricted(), as, { ...body, topics_policy: policy });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
  });

  it('POST /channels/create: refused for a member, allowed by default', async () => {
    const body = { name: 'fresh', subscribers: [ID.hamlet], topics_policy: '"disable_empty_topic"' };
    const refused = await restricted().request({ method: 'POST', path: '/api/v1/channels/create', as: ID.hamlet, body });
    expect(refused.body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const allowed = await sim().request({ method: 'POST', path: '/api/v1/channels/create', as: ID.hamlet, body });
    expect(allowed.body).toMatchObject({ result: 'success' });
  });
});

describe('paths are %-decoded once, before routing (Django PATH_INFO)', () => {
  const rows: [string, string, number, Record<string, unknown>][] = [
    ['an escaped @ in an email', '/api/v1/users/iago%40zulip.com', 200, { user: { user_id: ID.iago } }],
    ['escaped digits are a user id', '/api/v1/users/%31%30', 200, { user: { user_id: ID.hamlet } }],
    ['an escaped static path', '/api/v1/users/m%65', 200, { user_id: ID.iago }],
    ['a double escape decodes once', '/api/v1/users/iago%2540zulip.com', 400, { msg: 'No such user' }],
    ['a non-UTF-8 escape reaches the route as text', '/api/v1/users/%FF', 400, { msg: 'No such user' }],
    ['a broken escape reaches the route as text', '/api/v1/users/%ZZ', 400, { msg: 'No such user' }],
    ['an escaped slash is a path separator', '/api/v1/users/iago%2Fx', 404, { msg: 'Not Found' }],
  ];
  it.each(rows)('%s', async (_label, path, status, body) => {
    const res = await sim().request({ method: 'GET', path, as: ID.iago });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(body);
  });
});

describe('every user and channel object a client can receive matches the published schemas', () => {
  const viewers = Object.entries(ID).filter(([name]) => name !== 'webhookBot');
  it.each(viewers)('as %s', async (_name, as) => {
    const s = sim();
    const get = async (path: string, query?: Record<string, unknown>) => {
      const res = await s.request({ method: 'GET', path: `/api/v1${path}`, as, ...(query ? { query } : {}) });
      expect(res.status).toBe(200);
      return res.body;
    };
    for (const query of [{}, { client_gravatar: false, include_custom_profile_fields: true }]) {
      const { members } = await get('/users', query);
      expect(members.length).toBeGreaterThan(0);
      for (const member of members) {
        assertValid(validateUser, member);
        assertValid(validateUser, (await get(`/users/${member.user_id}`, query)).user);
        assertValid(validateUser, (await get(`/users/${encodeURIComponent(member.email)}`, query)).user);
      }
    }
    const { result: _r, msg: _m, ...me } = await get('/users/me');
    assertValid(validateOwnUser, me);
    for (const channel of (await get('/streams', { include_all: true, include_default: true, exclude_archived: false })).streams) {
      assertValid(validateChannel, channel);
    }
  });
});

describe('GET /users/{email} (access_user_by_email)', () => {
  const rows: [string, number, string, number, number | string][] = [
    ['an administrator, by a real address, padded', ID.iago, encodeURIComponent(' hamlet@zulip.com '), 200, ID.hamlet],
    ['an administrator, by a real address in other case', ID.iago, 'HAMLET@zulip.com', 200, ID.hamlet],
    ['a member, by a hidden real address', ID.othello, 'hamlet@zulip.com', 400, 'No such user'],
    ['a member, by the fake address', ID.othello, 'user10@zulip.testserver', 200, ID.hamlet],
    ['a member, by a bot address', ID.othello, 'default-bot@zulip.com', 200, ID.defaultBot],
    ['anyone, by a system bot address', ID.iago, 'notification-bot@zulip.com', 400, 'No such user'],
  ];
  it.each(rows)('%s', async (_label, as, email, status, expected) => {
    const res = await sim().request({ method: 'GET', path: `/api/v1/users/${email}`, as });
    expect(res.status).toBe(status);
    if (typeof expected === 'number') expect(res.body.user.user_id).toBe(expected);
    else expect(res.body).toEqual({ result: 'error', msg: expected, code: 'BAD_REQUEST' });
  });
});
