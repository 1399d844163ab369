/**
 * Behaviours the Zulip-code audit settled (zerver/lib/rest.py, zerver/decorator.py,
 * zerver/lib/response.py, zerver/lib/users.py, zerver/views/streams.py, zerver/lib/user_groups.py,
 * Stream.stream_permission_group_settings): each row is what a real server answers, checked
 * through the public seam (`request` / the raw dispatcher) with status, body and headers.
 */
import { describe, expect, it } from 'vitest';
import { basicAuth } from '../../simulator/index.ts';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** One raw request through the dispatcher: the exact bytes and headers a socket would carry. */
async function raw(s: ReturnType<typeof sim>, method: string, url: string, headers: Record<string, string> = {}, body?: string) {
  return s.handle({ method, url, headers, body });
}

describe('Basic auth failure answers, each row as Zulip sends it', () => {
  const s = sim();
  const hamlet = s.engine.state.users.get(ID.hamlet)!;
  const key = hamlet.api_key;
  const unpadded = b64(`hamlet@zulip.com:${key}`).replace(/=+$/, '');
  // Python's b64decode needs the padding; this credential only decodes without it in Node.
  const needsPadding = b64(`hamlet@zulip.com:${key}x`).replace(/=+$/, '');
  const rows: [string, string | undefined, number, string, string][] = [
    ['no header', undefined, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required'],
    ['empty header', '', 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
    ['scheme only', 'Basic', 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
    ['three parts', `Basic ${b64(`hamlet@zulip.com:${key}`)} extra`, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
    ['other scheme', `Token ${b64(`hamlet@zulip.com:${key}`)}`, 400, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.'],
    ['missing padding', `Basic ${needsPadding}`, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
    ['not UTF-8', `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x41]).toString('base64')}`, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
    ['two colons', `Basic ${b64(`hamlet@zulip.com:${key}:x`)}`, 401, 'UNAUTHORIZED', 'Invalid authorization header for basic auth'],
    ['malformed key', basicAuth('hamlet@zulip.com', 'not-32-alnum'), 401, 'UNAUTHORIZED', 'Malformed API key'],
    ['unknown email', basicAuth('nobody@zulip.com', key), 401, 'UNAUTHORIZED', 'Invalid API key'],
    ['wrong key', basicAuth('hamlet@zulip.com', 'Z'.repeat(32)), 401, 'UNAUTHORIZED', 'Invalid API key'],
    ["another user's key", basicAuth('iago@zulip.com', key), 401, 'UNAUTHORIZED', 'Invalid API key'],
  ];
  it.each(rows)('%s', async (_label, header, status, code, msg) => {
    const res = await raw(s, 'GET', '/api/v1/users/me', header === undefined ? {} : { authorization: header });
    expect(res.status).toBe(status);
    expect(res.body).toBe(`${JSON.stringify({ result: 'error', msg, code })}\n`);
    expect(res.headers['content-type']).toBe('application/json');
    if (status === 401) expect(res.headers['WWW-Authenticate']).toBe('Basic realm="zulip"');
    else expect(res.headers['WWW-Authenticate']).toBeUndefined();
  });

  it('accepts unpadded base64 only where Python does (length already a multiple of 4 is fine)', async () => {
    // `hamlet@zulip.com:<32>` is 49 bytes: its base64 needs padding, so stripping it fails…
    expect(unpadded.length % 4).not.toBe(0);
    expect((await raw(s, 'GET', '/api/v1/users/me', { authorization: `Basic ${unpadded}` })).status).toBe(401);
    // …while characters outside the alphabet are skipped, as b64decode does without validate=True.
    const res = await raw(s, 'GET', '/api/v1/users/me', { authorization: `Basic ${b64(`hamlet@zulip.com:${key}`).replace(/(.{8})/g, '$1\u00a7')}` });
    expect(res.status).toBe(200);
  });

  const accounts: [string, (f: ReturnType<typeof devFixture>) => void, number, number, string | null][] = [
    ['human', () => {}, ID.hamlet, 200, null],
    ['generic bot', () => {}, ID.defaultBot, 200, null],
    ['outgoing-webhook bot', () => {}, ID.outgoingBot, 200, null],
    ['incoming-webhook bot', () => {}, ID.webhookBot, 401, 'This API is not available to incoming webhook bots.'],
    ['system bot (other realm)', () => {}, 4, 401, 'Account is not associated with this subdomain'],
    ['deactivated realm (checked before the user)', (f) => (f.realm.deactivated = true), ID.hamlet, 401, 'This organization has been deactivated'],
  ];
  it.each(accounts)('%s', async (_label, change, as, status, msg) => {
    const fixture = devFixture();
    change(fixture);
    const res = await sim({ fixture }).request({ method: 'GET', path: '/api/v1/users/me', as });
    expect(res.status).toBe(status);
    if (msg) expect(res.body).toEqual({ result: 'error', msg, code: 'UNAUTHORIZED' });
  });

  it('a bot deactivated with its owner answers Account is deactivated, like its owner', async () => {
    const t = sim();
    expect((await t.request({ method: 'DELETE', path: `/api/v1/users/${ID.aaron}`, as: ID.iago })).status).toBe(200);
    for (const as of [ID.aaron, ID.outgoingBot]) {
      const res = await t.request({ method: 'GET', path: '/api/v1/users/me', as });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
    }
  });
});

describe('methods and unknown paths', () => {
  it('answers 405 with Django\'s HttpResponseNotAllowed headers and Zulip\'s JSON body, no newline', async () => {
    const res = await raw(sim(), 'PATCH', '/api/v1/streams');
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body).toBe('{"result":"error","msg":"Method Not Allowed","allowed_methods":["GET","HEAD"]}');
  });

  it('compares the legacy method override as sent: lower case matches no handler', async () => {
    const s = sim();
    const auth = { authorization: basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key) };
    const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
    const lower = await raw(s, 'POST', '/api/v1/users/me/subscriptions', form, 'method=delete&subscriptions=%5B%22Denmark%22%5D');
    expect(lower.status).toBe(405);
    expect(JSON.parse(lower.body).allowed_methods).toEqual(['GET', 'POST', 'PATCH', 'DELETE', 'HEAD']);
    const upper = await raw(s, 'POST', '/api/v1/users/me/subscriptions', form, 'method=DELETE&subscriptions=%5B%22Denmark%22%5D');
    expect(upper.status).toBe(200);
    expect(JSON.parse(upper.body)).toEqual({
      result: 'success',
      msg: '',
      removed: ['Denmark'],
      not_removed: [],
      ignored_parameters_unsupported: ['method'],
    });
  });

  it('resolves unknown paths before authentication (Django\'s URL resolver runs before rest_dispatch)', async () => {
    const s = sim();
    for (const [method, headers] of [
      ['GET', {}],
      ['POST', {}],
      ['OPTIONS', {}],
      ['GET', { authorization: 'Basic garbage' }],
    ] as const) {
      const res = await raw(s, method, '/api/v1/users/me/nothing-here', headers);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    }
  });
});

describe('parameter parsing wording (typed_endpoint ERROR_TEMPLATES)', () => {
  const rows: [string, string, Record<string, unknown>, string, Record<string, unknown>][] = [
    ['missing argument', '/api/v1/users/me/subscriptions/properties', {}, "Missing 'subscription_data' argument", { code: 'REQUEST_VARIABLE_MISSING', var_name: 'subscription_data' }],
    ['not valid JSON', '/api/v1/users/me/subscriptions/properties', { subscription_data: '[{' }, 'subscription_data is not valid JSON', { code: 'BAD_REQUEST' }],
    ['not a list', '/api/v1/users/me/subscriptions/properties', { subscription_data: '{}' }, 'subscription_data is not a list', { code: 'BAD_REQUEST' }],
    ['item not a dict', '/api/v1/users/me/subscriptions/properties', { subscription_data: '[1]' }, 'subscription_data[0] is not a dict', { code: 'BAD_REQUEST' }],
    ['not a boolean', '/api/v1/users/me/subscriptions', { subscriptions: '[{"name":"Verona"}]', announce: 'True' }, 'announce is not valid JSON', { code: 'BAD_REQUEST' }],
    ['JSON but not a boolean', '/api/v1/users/me/subscriptions', { subscriptions: '[{"name":"Verona"}]', announce: '1' }, 'announce is not a boolean', { code: 'BAD_REQUEST' }],
    ['not an integer (list item)', '/api/v1/users/me/subscriptions', { subscriptions: '[{"name":"Verona"}]', principals: '[10, 1.5]' }, 'principals[1] is not an integer', { code: 'BAD_REQUEST' }],
  ];
  it.each(rows)('%s', async (_label, path, body, msg, extra) => {
    const res = await sim().request({ method: 'POST', path, as: ID.hamlet, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, ...extra });
  });

  it('a repeated parameter counts by its last value, and the form body wins over the query string', async () => {
    const s = sim();
    const auth = { authorization: basicAuth('hamlet@zulip.com', s.engine.state.users.get(ID.hamlet)!.api_key) };
    const repeated = await raw(s, 'GET', '/api/v1/streams?include_public=true&include_subscribed=false&include_public=false', auth);
    expect(JSON.parse(repeated.body)).toEqual({ result: 'success', msg: '', streams: [] });
    const both = await raw(
      s,
      'POST',
      '/api/v1/users/me/subscriptions/properties?subscription_data=%5B%5D',
      { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      `subscription_data=${encodeURIComponent('[{"stream_id":3,"property":"bogus","value":true}]')}`,
    );
    expect(JSON.parse(both.body)).toEqual({ result: 'error', msg: 'Unknown subscription property: bogus', code: 'BAD_REQUEST' });
  });

  it('ignores unknown keys of subscription items (plain pydantic BaseModels upstream)', async () => {
    const s = sim();
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions/properties',
      as: ID.hamlet,
      body: { subscription_data: '[{"stream_id":3,"property":"color","value":"#ffffff","extra":1}]' },
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const sub = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: '[{"name":"Verona","pin":true}]' } });
    expect(sub.body).toMatchObject({ result: 'success', already_subscribed: { [String(ID.hamlet)]: ['Verona'] } });
  });

  it('reports a bad property of a later item before looking up an earlier item\'s channel', async () => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions/properties',
      as: ID.hamlet,
      body: { subscription_data: [{ stream_id: 999, property: 'pin_to_top', value: true }, { stream_id: 3, property: 'mute', value: true }] },
    });
    expect(res.body).toEqual({ result: 'error', msg: 'Unknown subscription property: mute', code: 'BAD_REQUEST' });
  });

  it('single-property form: value is Json[bool] | str, so a JSON-quoted color keeps its quotes', async () => {
    const s = sim();
    const verona = [...s.engine.state.streams.values()].find((c) => c.name === 'Verona')!.id;
    const quoted = await s.request({ method: 'POST', path: `/api/v1/users/me/subscriptions/${verona}`, as: ID.hamlet, body: { property: 'color', value: '"#abcdef"' } });
    expect(quoted.status).toBe(400);
    const bare = await s.request({ method: 'POST', path: `/api/v1/users/me/subscriptions/${verona}`, as: ID.hamlet, body: { property: 'color', value: '#abcdef' } });
    expect(bare.body).toEqual({ result: 'success', msg: '' });
    const flag = await s.request({ method: 'POST', path: `/api/v1/users/me/subscriptions/${verona}`, as: ID.hamlet, body: { property: 'pin_to_top', value: 'true' } });
    expect(flag.body).toEqual({ result: 'success', msg: '' });
  });

  it('an administrator outside a private channel gets Invalid channel ID (content access), not Not subscribed', async () => {
    const s = sim();
    const made = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.desdemona, body: { subscriptions: [{ name: 'vault' }], invite_only: true } });
    expect(made.status).toBe(200);
    const vault = [...s.engine.state.streams.values()].find((c) => c.name === 'vault')!;
    const change = { subscription_data: [{ stream_id: vault.id, property: 'pin_to_top', value: true }] };
    const admin = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions/properties', as: ID.iago, body: change });
    expect(admin.body).toEqual({ result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    const denmark = [...s.engine.state.streams.values()].find((c) => c.name === 'Denmark')!;
    const outsider = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions/properties',
      as: ID.cordelia,
      body: { subscription_data: [{ stream_id: denmark.id, property: 'pin_to_top', value: true }] },
    });
    expect(outsider.body).toEqual({ result: 'error', msg: `Not subscribed to channel ID ${denmark.id}`, code: 'BAD_REQUEST' });
  });
});

describe('delivery_email per viewer (can_access_delivery_email; spectators see none)', () => {
  // Hamlet's visibility is "admins" (the dev realm's default); bots are visible to everyone logged in.
  const rows: [string, number | null, number, string | null][] = [
    ['owner sees an admins-only address', ID.desdemona, ID.hamlet, 'hamlet@zulip.com'],
    ['administrator sees it', ID.iago, ID.hamlet, 'hamlet@zulip.com'],
    ['moderator does not', ID.shiva, ID.hamlet, null],
    ['member does not', ID.othello, ID.hamlet, null],
    ['guest does not', ID.polonius, ID.hamlet, null],
    ['oneself always', ID.hamlet, ID.hamlet, 'hamlet@zulip.com'],
    ['a bot is visible to a guest', ID.polonius, ID.defaultBot, 'default-bot@zulip.com'],
    ['spectator sees no human address', null, ID.hamlet, null],
    ['spectator sees no bot address either', null, ID.defaultBot, null],
  ];
  it.each(rows)('%s', async (_label, viewer, target, expected) => {
    const fixture = devFixture();
    fixture.realm.allow_unauthenticated_user_list = true;
    const res = await sim({ fixture }).request({ method: 'GET', path: '/api/v1/users', as: viewer });
    expect(res.status).toBe(200);
    const user = res.body.members.find((m: { user_id: number }) => m.user_id === target);
    expect(user.delivery_email).toBe(expected);
    // The API email never changes with the viewer: fake for humans, real for bots.
    expect(user.email).toBe(target === ID.hamlet ? 'user10@zulip.testserver' : 'default-bot@zulip.com');
  });
});

describe('channel group settings (Stream.stream_permission_group_settings)', () => {
  async function create(s: ReturnType<typeof sim>, as: number, body: Record<string, unknown>) {
    return s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as, body: { subscriptions: [{ name: 'fresh' }], ...body } });
  }

  it('a new channel is administered by its creator alone; admins still administer it', async () => {
    const s = sim();
    expect((await create(s, ID.hamlet, { invite_only: true })).status).toBe(200);
    const stream = [...s.engine.state.streams.values()].find((c) => c.name === 'fresh')!;
    const info = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.hamlet });
    const fresh = info.body.streams.find((c: { name: string }) => c.name === 'fresh');
    const g = s.engine.state.realm.system_groups;
    expect(fresh).toMatchObject({
      creator_id: ID.hamlet,
      can_administer_channel_group: { direct_members: [ID.hamlet], direct_subgroups: [] },
      can_delete_any_message_group: g['role:nobody'],
      can_delete_own_message_group: g['role:nobody'],
    });
    // Adding subscribers needs content access first: Iago (an administrator, not subscribed)
    // cannot read the private channel, so it is "unable to access" for him…
    const admin = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.iago, body: { subscriptions: [{ name: 'fresh' }], principals: [ID.othello] } });
    expect(admin.body).toEqual({ result: 'error', msg: 'Unable to access channel (fresh).', code: 'BAD_REQUEST' });
    // …while Hamlet, subscribed, may (the realm's can_add_subscribers_group is role:members).
    const creator = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: [{ name: 'fresh' }], principals: [ID.othello] } });
    expect(creator.body).toMatchObject({ result: 'success', subscribed: { [String(ID.othello)]: ['fresh'] } });
    expect(stream.id).toBeGreaterThan(0);
  });

  it('get_stream_id needs content access, like access_stream_by_name', async () => {
    const s = sim();
    await create(s, ID.hamlet, { invite_only: true });
    const admin = await s.request({ method: 'GET', path: '/api/v1/get_stream_id', as: ID.iago, query: { stream: 'fresh' } });
    expect(admin.body).toEqual({ result: 'error', msg: "Invalid channel name 'fresh'", code: 'BAD_REQUEST' });
    const member = await s.request({ method: 'GET', path: '/api/v1/get_stream_id', as: ID.hamlet, query: { stream: 'FRESH' } });
    expect(member.body).toMatchObject({ result: 'success' });
  });

  it('the creator keeps metadata access to a private channel they did not join', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const made = await create(s, ID.hamlet, { invite_only: true, principals: [ID.cordelia] });
    expect(made.body.subscribed).toEqual({ [String(ID.cordelia)]: ['fresh'] });
    const listed = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.hamlet, query: { include_all: true } });
    expect(listed.body.streams.map((c: { name: string }) => c.name)).toContain('fresh');
    const hidden = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.othello, query: { include_all: true } });
    expect(hidden.body.streams.map((c: { name: string }) => c.name)).not.toContain('fresh');
    // stream/create went to everyone with metadata access: the admins and the creator, then the
    // new subscriber separately.
    const creates = watch.take().filter((e) => e.event.type === 'stream' && e.event.op === 'create');
    expect(creates.map((e) => e.users).sort((a, b) => a[0]! - b[0]!)).toEqual([[ID.cordelia], [ID.desdemona, ID.hamlet, ID.iago]]);
  });

  const groupRows: [string, string, unknown, string][] = [
    ['unknown named group', 'can_add_subscribers_group', 999, 'Invalid user group'],
    ['role:internet', 'can_remove_subscribers_group', 'internet', "'can_remove_subscribers_group' setting cannot be set to 'role:internet' group."],
    ['role:everyone where refused', 'can_add_subscribers_group', 'everyone', "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group."],
    ['role:everyone for administering', 'can_administer_channel_group', 'everyone', "'can_administer_channel_group' setting cannot be set to 'role:everyone' group."],
    ['role:everyone for subscribing', 'can_subscribe_group', 'everyone', "'can_subscribe_group' setting cannot be set to 'role:everyone' group."],
    ['unknown member', 'can_remove_subscribers_group', { direct_members: [999], direct_subgroups: [] }, 'Invalid user ID: 999'],
    ['unknown subgroup', 'can_remove_subscribers_group', { direct_members: [ID.hamlet], direct_subgroups: [999] }, 'Invalid user group ID: 999'],
    // parse_group_setting_value: one subgroup and no members is that group, checked as a named one.
    ['a lone unknown subgroup', 'can_remove_subscribers_group', { direct_members: [], direct_subgroups: [999] }, 'Invalid user group'],
    ['a lone role:internet subgroup', 'can_remove_subscribers_group', { direct_members: [], direct_subgroups: ['internet'] }, "'can_remove_subscribers_group' setting cannot be set to 'role:internet' group."],
  ];
  it.each(groupRows)('%s', async (_label, setting, value, msg) => {
    const s = sim();
    const g = s.engine.state.realm.system_groups;
    const named = (v: unknown): unknown => (v === 'internet' ? g['role:internet'] : v === 'everyone' ? g['role:everyone'] : v);
    const resolved =
      typeof value === 'object' && value !== null
        ? { ...value, direct_subgroups: (value as { direct_subgroups: unknown[] }).direct_subgroups.map(named) }
        : named(value);
    const res = await create(s, ID.iago, { [setting]: resolved });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('role:everyone stays allowed where the setting permits it', async () => {
    const s = sim();
    const res = await create(s, ID.iago, { can_remove_subscribers_group: s.engine.state.realm.system_groups['role:everyone'] });
    expect(res.status).toBe(200);
  });

  it('group settings are only looked at for channels being created; retention always is', async () => {
    const s = sim();
    const existing = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.cordelia,
      body: { subscriptions: [{ name: 'Denmark' }], can_add_subscribers_group: 999 },
    });
    expect(existing.body).toMatchObject({ result: 'success', subscribed: { [String(ID.cordelia)]: ['Denmark'] } });
    const retention = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.cordelia,
      body: { subscriptions: [{ name: 'Denmark' }], message_retention_days: '"forever"' },
    });
    expect(retention.body).toEqual({ result: 'error', msg: "Bad value for 'message_retention_days': forever", code: 'BAD_REQUEST' });
  });

  const creationRows: [string, number, Record<string, unknown>, string][] = [
    ['protected history needs can_create_topic_group = role:everyone', ID.hamlet, { invite_only: true, can_create_topic_group: 'nobody' }, "'can_create_topic_group' setting must be 'role:everyone' for private channels with protected history."],
    ['a member may not widen can_delete_own_message_group', ID.hamlet, { can_delete_own_message_group: 'everyone' }, 'Insufficient permission'],
    ['a member may not widen can_delete_any_message_group', ID.hamlet, { can_delete_any_message_group: 'members' }, 'Insufficient permission'],
  ];
  it.each(creationRows)('%s', async (_label, as, body, msg) => {
    const s = sim();
    const g = s.engine.state.realm.system_groups;
    const resolved = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? g[`role:${v}`] : v]));
    const res = await create(s, as, resolved);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('a moderator may set the deletion settings; role:nobody is always allowed', async () => {
    const s = sim();
    const g = s.engine.state.realm.system_groups;
    expect((await create(s, ID.shiva, { can_delete_own_message_group: g['role:everyone'] })).status).toBe(200);
    const t = sim();
    expect((await create(t, ID.hamlet, { can_delete_own_message_group: g['role:nobody'] })).status).toBe(200);
  });

  it('an invalid group is reported before a missing creation permission', async () => {
    const fixture = devFixture();
    const s = sim({ fixture });
    s.engine.state.realm.can_create_public_channel_group = s.engine.state.realm.system_groups['role:administrators']!;
    const res = await create(s, ID.hamlet, { can_remove_subscribers_group: 999 });
    expect(res.body).toEqual({ result: 'error', msg: 'Invalid user group', code: 'BAD_REQUEST' });
    const plain = await create(s, ID.hamlet, {});
    expect(plain.body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
  });
});

describe('check_channel_creation_permissions order', () => {
  const rows: [string, (f: ReturnType<typeof devFixture>) => void, number, Record<string, unknown>, string, string][] = [
    ['web-public disabled is reported before the owner requirement', (f) => (f.realm.enable_spectator_access = false), ID.hamlet, { is_web_public: true }, 'BAD_REQUEST', 'Web-public channels are not enabled.'],
    ['web-public enabled, not an owner', () => {}, ID.iago, { is_web_public: true }, 'BAD_REQUEST', 'Insufficient permission'],
    ['default channel by a moderator', () => {}, ID.shiva, { is_default_stream: true }, 'BAD_REQUEST', 'Insufficient permission'],
    ['retention by an administrator', () => {}, ID.iago, { message_retention_days: '"unlimited"' }, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'],
  ];
  it.each(rows)('%s', async (_label, change, as, body, code, msg) => {
    const fixture = devFixture();
    change(fixture);
    const res = await sim({ fixture }).request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as, body: { subscriptions: [{ name: 'brand-new' }], ...body } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code });
  });

  it('an owner may create a web-public default channel', async () => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.desdemona,
      body: { subscriptions: [{ name: 'brand-new' }], is_web_public: true, is_default_stream: true },
    });
    expect(res.body).toMatchObject({ result: 'success', subscribed: { [String(ID.desdemona)]: ['brand-new'] } });
  });
});

describe('Notification Bot posts on channel creation', () => {
  function lastMessages(watch: ReturnType<typeof watchEvents>, n: number) {
    const all = watch.take().filter((e) => e.event.type === 'message').map((e) => e.event.message as { id: number; subject: string; content: string });
    const unique = [...new Map(all.map((m) => [m.id, m])).values()].sort((a, b) => a.id - b.id);
    return unique.slice(-n);
  }

  it('announces private channels too, and always quotes the description', async () => {
    const s = sim({ seed: 3 });
    const watch = watchEvents(s);
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: [{ name: 'hideout' }], invite_only: true, announce: true },
    });
    expect(res.status).toBe(200);
    const [announcement, creation] = lastMessages(watch, 2);
    expect(announcement!.subject).toBe('new channels');
    expect(announcement!.content).toContain('created a new channel');
    expect(announcement!.content).toContain('hideout');
    expect(creation!.subject).toBe('channel events');
    // "*No description.*" sits inside the quote block like a real description.
    expect(creation!.content).toMatch(/<blockquote>\s*<p><em>No description\.<\/em><\/p>\s*<\/blockquote>/);
  });
});

describe('peer_remove goes to the same audience as peer_add', () => {
  it('a public channel: every active non-guest plus the remaining subscribers', async () => {
    const s = sim();
    const join = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.iago, body: { subscriptions: [{ name: 'Denmark' }], principals: [ID.polonius] } });
    expect(join.status).toBe(200);
    const watch = watchEvents(s);
    const res = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: ['Denmark'] } });
    expect(res.body).toEqual({ result: 'success', msg: '', removed: ['Denmark'], not_removed: [] });
    const peer = watch.take().find((e) => e.event.op === 'peer_remove')!;
    // Polonius (a guest) still subscribed hears of it; Hamlet himself does not.
    expect(peer.users).toContain(ID.polonius);
    expect(peer.users).not.toContain(ID.hamlet);
  });
});

describe('PATCH /users/me/subscriptions (add and delete in one request)', () => {
  it('merges both results; refuses an empty request; a failing delete adds nothing', async () => {
    const s = sim();
    const both = await s.request({
      method: 'PATCH',
      path: '/api/v1/users/me/subscriptions',
      as: ID.cordelia,
      body: { add: [{ name: 'Denmark' }], delete: ['Verona'] },
    });
    expect(both.body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [String(ID.cordelia)]: ['Denmark'] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
      removed: ['Verona'],
      not_removed: [],
    });
    const empty = await s.request({ method: 'PATCH', path: '/api/v1/users/me/subscriptions', as: ID.cordelia, body: {} });
    expect(empty.body).toEqual({ result: 'error', msg: 'Nothing to do. Specify at least one of "add" or "delete".', code: 'BAD_REQUEST' });
    const failing = await s.request({
      method: 'PATCH',
      path: '/api/v1/users/me/subscriptions',
      as: ID.cordelia,
      body: { add: [{ name: 'Scotland' }], delete: ['Nowhere'] },
    });
    expect(failing.body).toEqual({ result: 'error', msg: 'Channel(s) (Nowhere) do not exist', code: 'BAD_REQUEST' });
    const subs = await s.request({ method: 'GET', path: '/api/v1/users/me/subscriptions', as: ID.cordelia });
    expect(subs.body.subscriptions.map((c: { name: string }) => c.name)).toEqual(['Denmark']);
  });

  it('refuses guests, as the composed add view does', async () => {
    const res = await sim().request({ method: 'PATCH', path: '/api/v1/users/me/subscriptions', as: ID.polonius, body: { delete: ['Verona'] } });
    expect(res.body).toEqual({ result: 'error', msg: 'Not allowed for guest users', code: 'BAD_REQUEST' });
  });
});

describe('GET /streams ordering and sources (get_streams_for_user)', () => {
  it('sorts names by code point, as Python does (astral characters after U+E000…U+FFFF)', async () => {
    const s = sim();
    for (const name of ['\u{1F600} smile', '\uFF21 fullwidth', 'alpha']) {
      const res = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: [{ name }] } });
      expect(res.status).toBe(200);
    }
    const res = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.hamlet, query: { include_public: false } });
    const names: string[] = res.body.streams.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Denmark', 'Verona', 'Zulip', 'alpha', 'core team', 'sandbox', '\uFF21 fullwidth', '\u{1F600} smile']);
  });
});

describe('the channel-events post of an empty-topic-only channel', () => {
  it('goes to the empty topic', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: [{ name: 'no-topics' }], topics_policy: '"empty_topic_only"' },
    });
    expect(res.status).toBe(200);
    const posts = watch
      .take()
      .filter((e) => e.event.type === 'message')
      .map((e) => e.event.message as { id: number; subject: string; content: string })
      .sort((a, b) => a.id - b.id);
    expect(posts.at(-1)!.content).toContain('channel created by');
    expect(posts.at(-1)!.subject).toBe('');
  });
});

describe('DELETE /users/me/subscriptions permissions (bulk_can_remove_subscribers_from_streams)', () => {
  it('removing one\'s own bot is not removing others', async () => {
    const s = sim();
    const add = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.iago, body: { subscriptions: [{ name: 'Denmark' }], principals: [ID.outgoingBot] } });
    expect(add.status).toBe(200);
    // Aaron (a member) owns the outgoing-webhook bot; Hamlet (a member too) does not.
    const stranger = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: ['Denmark'], principals: [ID.outgoingBot] } });
    expect(stranger.body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const owner = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.aaron, body: { subscriptions: ['Denmark'], principals: [ID.outgoingBot] } });
    expect(owner.body).toEqual({ result: 'success', msg: '', removed: ['Denmark'], not_removed: [] });
  });

  it('checks the permission before reporting unknown names, and names like channel names', async () => {
    const s = sim();
    const both = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: ['Denmark', 'Atlantis'], principals: [ID.othello] } });
    expect(both.body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const blank = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: ['  '] } });
    expect(blank.body).toEqual({ result: 'error', msg: "Channel name can't be empty.", code: 'BAD_REQUEST' });
  });
});
