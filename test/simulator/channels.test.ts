/** Channels and subscriptions (zerver/views/streams.py, zerver/lib/streams.py) through the in-process API. */
import { describe, expect, it } from 'vitest';
import { CHANNEL_GROUP_SETTINGS } from '../../simulator/engine/state.ts';
import { ID, NOW, assertValid, devFixture, sim, validateChannel, watchEvents, type Delivered } from './helpers.ts';

const names = (body: { streams: { name: string }[] }) => body.streams.map((s) => s.name);

describe('GET /streams', () => {
  const rows: [string, number, Record<string, unknown>, string[]][] = [
    ['member default: public + subscribed', ID.hamlet, {}, ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Zulip', 'core team', 'sandbox']],
    ['member, not subscribed to the private one', ID.othello, {}, ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Zulip', 'sandbox']],
    ['guest default: subscribed only', ID.polonius, {}, ['Verona']],
    ['guest with web-public', ID.polonius, { include_web_public: true }, ['Rome', 'Verona']],
    ['subscribed only', ID.prospero, { include_public: false }, ['Denmark', 'Scotland', 'Venice', 'Verona']],
    ['no source', ID.hamlet, { include_public: false, include_subscribed: false }, []],
    ['admin include_all sees private', ID.iago, { include_all: true, include_subscribed: false }, ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Zulip', 'core team', 'sandbox']],
    ['member include_all: metadata access only', ID.othello, { include_all: true }, ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Zulip', 'sandbox']],
    ['content access replaces the sources', ID.polonius, { include_can_access_content: true }, ['Rome', 'Verona']],
    ['admin include_all_active', ID.iago, { include_all_active: true }, ['Denmark', 'Rome', 'Scotland', 'Venice', 'Verona', 'Zulip', 'core team', 'sandbox']],
  ];
  it.each(rows)('%s', async (_name, as, query, expected) => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/streams', as, query });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(expected);
  });

  it.each(CHANNEL_GROUP_SETTINGS)('answers each channel\'s %s as it is set', async (setting) => {
    const s = sim();
    const res = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.iago, query: { include_all: true } });
    expect(res.status).toBe(200);
    const answered = Object.fromEntries(res.body.streams.map((c: Record<string, unknown>) => [c.stream_id, c[setting]]));
    const stored = Object.fromEntries([...s.engine.state.streams.values()].map((c) => [c.id, c.groups[setting]]));
    expect(answered).toEqual(stored);
  });

  it('refuses include_all_active to non-administrators (spec)', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/streams', as: ID.hamlet, query: { include_all_active: true } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
  });

  it('adds channels a bot owner is subscribed to with include_owner_subscribed', async () => {
    const s = sim();
    const plain = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.defaultBot, query: { include_public: false } });
    expect(names(plain.body)).toEqual([]);
    const owner = await s.request({
      method: 'GET',
      path: '/api/v1/streams',
      as: ID.defaultBot,
      query: { include_public: false, include_owner_subscribed: true },
    });
    expect(names(owner.body)).toEqual(['Denmark', 'Venice', 'Verona', 'Zulip', 'core team', 'sandbox']);
  });

  it('returns every Channel field; GroupSettings resolved to system groups; is_default on request', async () => {
    const s = sim();
    const res = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.iago, query: { include_all: true, include_default: true } });
    for (const c of res.body.streams) assertValid(validateChannel, c);
    const groups = s.engine.state.realm.system_groups;
    const verona = res.body.streams.find((c: { name: string }) => c.name === 'Verona');
    expect(verona).toMatchObject({
      description: 'A city in Italy',
      rendered_description: '<p>A city in Italy</p>',
      invite_only: false,
      history_public_to_subscribers: true,
      is_default: true,
      stream_post_policy: 1,
      is_announcement_only: false,
      subscriber_count: 10,
      can_send_message_group: groups['role:everyone'],
      can_remove_subscribers_group: groups['role:administrators'],
      topics_policy: 'inherit',
      // Zulip's Stream defaults: no recorded creator → role:nobody administers; deleting and
      // moving default to role:nobody at channel level.
      creator_id: null,
      can_administer_channel_group: groups['role:nobody'],
      can_add_subscribers_group: groups['role:nobody'],
      can_subscribe_group: groups['role:nobody'],
      can_create_topic_group: groups['role:everyone'],
      can_delete_any_message_group: groups['role:nobody'],
      can_delete_own_message_group: groups['role:nobody'],
      can_move_messages_out_of_channel_group: groups['role:nobody'],
      can_move_messages_within_channel_group: groups['role:nobody'],
      can_resolve_topics_group: groups['role:nobody'],
    });
    const core = res.body.streams.find((c: { name: string }) => c.name === 'core team');
    expect(core).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
      creator_id: ID.desdemona,
      is_default: false,
      // "channel_creator": an anonymous group of the creator alone.
      can_administer_channel_group: { direct_members: [ID.desdemona], direct_subgroups: [] },
    });
    expect(groups).toEqual({
      'role:nobody': 9,
      'role:owners': 10,
      'role:administrators': 11,
      'role:moderators': 12,
      'role:fullmembers': 13,
      'role:members': 14,
      'role:everyone': 15,
      'role:internet': 16,
    });
  });
});

describe('POST /users/me/subscriptions', () => {
  it('creates a missing channel and subscribes the principals (keyed by user id)', async () => {
    const s = sim();
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.iago,
      body: { subscriptions: [{ name: 'brand new stream', description: 'line one\nline two' }], principals: [10, 11, 6, 8] },
    });
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { '6': ['brand new stream'], '8': ['brand new stream'], '10': ['brand new stream'], '11': ['brand new stream'] },
      already_subscribed: {},
      new_subscription_messages_sent: true,
    });
    const list = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.aaron, query: { include_public: false } });
    const created = list.body.streams.find((c: { name: string }) => c.name === 'brand new stream');
    expect(created).toMatchObject({ description: 'line one line two', creator_id: ID.iago, date_created: NOW, subscriber_count: 4 });
  });

  it('matches existing names case-insensitively and reports already_subscribed with the stored name', async () => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: [{ name: ' denmark ' }, { name: 'Scotland' }] },
    });
    expect(res.body).toMatchObject({ subscribed: { '10': ['Scotland'] }, already_subscribed: { '10': ['Denmark'] } });
  });

  it('accepts principals by API email, case-insensitively', async () => {
    const res = await sim().request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: [{ name: 'Rome' }], principals: ['user8@zulip.testserver', ' USER12@zulip.testserver'] },
    });
    expect(res.body.subscribed).toEqual({ '8': ['Rome'], '12': ['Rome'] });
  });

  it('emits stream create, subscription add and peer_add events', async () => {
    const s = sim();
    const watch = watchEvents(s);
    await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: [{ name: 'fresh' }] } });
    const streamId = s.engine.state.streamsByName.get('fresh');
    const events = watch.take();
    const kind = (e: Delivered) => `${e.event.type}/${String(e.event.op ?? '')}`;
    // Hamlet: the channel, his subscription, then the Notification Bot's "channel events" post.
    const hamlets = events.filter((e) => e.users.includes(ID.hamlet)).map(kind);
    expect(hamlets.slice(0, 2)).toEqual(['stream/create', 'subscription/add']);
    expect(hamlets.length).toBeGreaterThan(2);
    expect(new Set(hamlets.slice(2))).toEqual(new Set(['message/']));
    // The others: the channel, then Hamlet joining it.
    expect(events.filter((e) => e.users.includes(ID.othello)).map(kind)).toEqual(['stream/create', 'subscription/peer_add']);
    const add = events.find((e) => kind(e) === 'subscription/add')!;
    expect(add.users).toEqual([ID.hamlet]);
    const sub = (add.event.subscriptions as Record<string, unknown>[])[0]!;
    expect(sub).toMatchObject({ name: 'fresh', subscribers: [ID.hamlet], is_muted: false, in_home_view: true, color: expect.stringMatching(/^#[0-9a-f]{6}$/) });
    expect(events.find((e) => kind(e) === 'stream/create')!.users).not.toContain(ID.polonius);
    const peer = events.find((e) => kind(e) === 'subscription/peer_add')!;
    expect(peer.event).toMatchObject({ stream_ids: [streamId], user_ids: [ID.hamlet] });
    expect(peer.users).not.toContain(ID.hamlet);
  });

  it('reports inaccessible private channels as unauthorized when errors are not fatal', async () => {
    const s = sim();
    const fatal = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.othello, body: { subscriptions: [{ name: 'core team' }] } });
    expect(fatal.body).toEqual({ result: 'error', msg: 'Unable to access channel (core team).', code: 'BAD_REQUEST' });
    const soft = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.othello,
      body: { subscriptions: [{ name: 'core team' }, { name: 'Venice' }], authorization_errors_fatal: false },
    });
    expect(soft.status).toBe(200);
    expect(soft.body).toMatchObject({ subscribed: { '12': ['Venice'] }, already_subscribed: {}, unauthorized: ['core team'] });
  });

  const errors: [string, number, Record<string, unknown>, string, string][] = [
    ['empty name', ID.hamlet, { subscriptions: [{ name: '   ' }] }, 'BAD_REQUEST', "Channel name can't be empty."],
    ['long name', ID.hamlet, { subscriptions: [{ name: 'x'.repeat(61) }] }, 'BAD_REQUEST', 'Channel name too long (limit: 60 characters).'],
    ['control character', ID.hamlet, { subscriptions: [{ name: 'ab\u0007c' }] }, 'BAD_REQUEST', 'Invalid character in channel name, at position 3.'],
    ['long description', ID.hamlet, { subscriptions: [{ name: 'n', description: 'd'.repeat(1025) }] }, 'BAD_REQUEST', 'subscriptions[0]["description"] is too long (limit: 1024 characters)'],
    ['bad color', ID.hamlet, { subscriptions: [{ name: 'n', color: 'red' }] }, 'BAD_REQUEST', 'Invalid subscriptions[0]: Value error, add.color is not a valid hex color code'],
    ['not a list', ID.hamlet, { subscriptions: '{}' }, 'BAD_REQUEST', 'subscriptions is not a list'],
    ['unknown principal', ID.hamlet, { subscriptions: [{ name: 'Denmark' }], principals: [999] }, 'BAD_REQUEST', 'No such user'],
    ['mixed principals', ID.hamlet, { subscriptions: [{ name: 'Denmark' }], principals: [10, 'x@y.z'] }, 'BAD_REQUEST', 'principals[1] is not an integer'],
    ['default by a non-administrator', ID.hamlet, { subscriptions: [{ name: 'n' }], is_default_stream: true }, 'BAD_REQUEST', 'Insufficient permission'],
    ['default and private', ID.iago, { subscriptions: [{ name: 'n' }], invite_only: true, is_default_stream: true }, 'BAD_REQUEST', 'A default channel cannot be private.'],
    ['web-public by a member', ID.hamlet, { subscriptions: [{ name: 'n' }], is_web_public: true }, 'BAD_REQUEST', 'Insufficient permission'],
    ['retention by a non-owner', ID.iago, { subscriptions: [{ name: 'n' }], message_retention_days: 30 }, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'],
    ['bad retention', ID.desdemona, { subscriptions: [{ name: 'n' }], message_retention_days: '"forever"' }, 'BAD_REQUEST', "Bad value for 'message_retention_days': forever"],
    ['bad topics_policy', ID.hamlet, { subscriptions: [{ name: 'n' }], topics_policy: '"sometimes"' }, 'BAD_REQUEST', 'Invalid topics_policy'],
    ['role:internet group', ID.hamlet, { subscriptions: [{ name: 'n' }], can_add_subscribers_group: 16 }, 'BAD_REQUEST', "'can_add_subscribers_group' setting cannot be set to 'role:internet' group."],
    ['guest', ID.polonius, { subscriptions: [{ name: 'Verona' }] }, 'BAD_REQUEST', 'Not allowed for guest users'],
  ];
  it.each(errors)('refuses %s', async (_name, as, body, code, msg) => {
    const s = sim();
    const streamsBefore = s.engine.state.streams.size;
    const res = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code });
    expect(s.engine.state.streams.size).toBe(streamsBefore);
  });

  it('refuses a deactivated principal', async () => {
    const s = sim();
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    const res = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: [{ name: 'Denmark' }], principals: [ID.othello] } });
    expect(res.body).toEqual({ result: 'error', msg: 'User is deactivated', code: 'BAD_REQUEST' });
  });

  it('lets the owner create a web-public channel with retention and settings, ignored for existing ones', async () => {
    const s = sim();
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.desdemona,
      body: {
        subscriptions: [{ name: 'open' }, { name: 'Denmark' }],
        is_web_public: true,
        message_retention_days: '"unlimited"',
        topics_policy: '"disable_empty_topic"',
      },
    });
    expect(res.status).toBe(200);
    const list = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.desdemona, query: { include_all: true } });
    const open = list.body.streams.find((c: { name: string }) => c.name === 'open');
    expect(open).toMatchObject({ is_web_public: true, invite_only: false, message_retention_days: -1, topics_policy: 'disable_empty_topic' });
    const denmark = list.body.streams.find((c: { name: string }) => c.name === 'Denmark');
    expect(denmark).toMatchObject({ is_web_public: false, message_retention_days: null, topics_policy: 'inherit' });
  });

  it('refuses web-public channels when spectator access is off', async () => {
    const fixture = devFixture();
    fixture.realm.enable_spectator_access = false;
    const res = await sim({ fixture }).request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.desdemona,
      body: { subscriptions: [{ name: 'open' }], is_web_public: true },
    });
    expect(res.body).toEqual({ result: 'error', msg: 'Web-public channels are not enabled.', code: 'BAD_REQUEST' });
  });
});

describe('Notification Bot messages', () => {
  async function messages(s: ReturnType<typeof sim>, as: number, narrow: unknown[]) {
    const res = await s.request({
      method: 'GET',
      path: '/api/v1/messages',
      as,
      query: { anchor: 'newest', num_before: 10, num_after: 0, narrow, apply_markdown: false },
    });
    expect(res.status).toBe(200);
    return res.body.messages as { content: string; sender_email: string; subject: string; flags: string[] }[];
  }

  it('tells others they were subscribed (not yourself, not bots, not for new channels)', async () => {
    const s = sim();
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: [{ name: 'Venice' }, { name: 'Scotland' }, { name: 'brand' }], principals: [ID.hamlet, ID.cordelia, ID.defaultBot] },
    });
    expect(res.body.new_subscription_messages_sent).toBe(true);
    const dms = await messages(s, ID.cordelia, [{ operator: 'dm', operand: 'notification-bot@zulip.com' }]);
    expect(dms.map((m) => m.content)).toEqual([
      '@_**King Hamlet|10** subscribed you to the following channels:\n\n* #**Scotland**\n* #**Venice**\n',
    ]);
    const own = await messages(s, ID.hamlet, [{ operator: 'dm', operand: 'notification-bot@zulip.com' }]);
    expect(own).toEqual([]);
  });

  it('lists the channels in Python string order (by code point, not UTF-16 unit)', async () => {
    const s = sim();
    // U+FF01 sorts before U+1F600 by code point; by UTF-16 unit the emoji's surrogate (0xD83D) comes first.
    const channels = [{ name: '\u{1F600} fun' }, { name: '\uFF01 bang' }];
    const created = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.hamlet, body: { subscriptions: channels } });
    expect(created.status).toBe(200);
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: channels, principals: [ID.cordelia] },
    });
    expect(res.body.new_subscription_messages_sent).toBe(true);
    const dms = await messages(s, ID.cordelia, [{ operator: 'dm', operand: 'notification-bot@zulip.com' }]);
    expect(dms.map((m) => m.content)).toEqual([
      '@_**King Hamlet|10** subscribed you to the following channels:\n\n* #**\uFF01 bang**\n* #**\u{1F600} fun**\n',
    ]);
  });

  it('posts the creation notice in the new channel, read for the creator', async () => {
    const s = sim();
    await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.iago,
      body: { subscriptions: [{ name: 'secret', description: 'Shh' }], invite_only: true },
    });
    const posts = await messages(s, ID.iago, [{ operator: 'channel', operand: 'secret' }]);
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      subject: 'channel events',
      sender_email: 'notification-bot@zulip.com',
      content: '**Private, protected history** channel created by @_**Iago|11**. **Description:**\n```` quote\nShh\n````',
    });
    expect(posts[0]!.flags).toContain('read');
  });

  it('announces new public channels in the announcements channel when asked', async () => {
    const s = sim();
    await s.request({ method: 'POST', path: '/api/v1/channels/create', as: ID.hamlet, body: { name: 'plans', subscribers: [ID.hamlet], announce: true } });
    const posts = await messages(s, ID.hamlet, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'new channels' }]);
    expect(posts.map((m) => m.content)).toEqual(['@_**King Hamlet|10** created a new channel #**plans**.']);
  });

  it('sends no DMs with send_new_subscription_messages=false, and omits the key', async () => {
    const s = sim();
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions',
      as: ID.hamlet,
      body: { subscriptions: [{ name: 'Venice' }], principals: [ID.cordelia], send_new_subscription_messages: false },
    });
    expect(res.body).not.toHaveProperty('new_subscription_messages_sent');
    expect(await messages(s, ID.cordelia, [{ operator: 'dm', operand: 'notification-bot@zulip.com' }])).toEqual([]);
  });
});

describe('GET and DELETE /users/me/subscriptions, GET /get_stream_id', () => {
  it('lists your subscriptions by name with settings and, on request, subscribers', async () => {
    const res = await sim().request({ method: 'GET', path: '/api/v1/users/me/subscriptions', as: ID.prospero, query: { include_subscribers: true } });
    expect(res.body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['Denmark', 'Scotland', 'Venice', 'Verona']);
    const venice = res.body.subscriptions[2];
    expect(venice).toMatchObject({ is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null });
    expect(venice.subscribers).toEqual([ID.zoe, ID.desdemona, ID.prospero]);
  });

  it('unsubscribes and reports what was not subscribed', async () => {
    const s = sim();
    const res = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.prospero, body: { subscriptions: ['Venice', 'Rome'] } });
    expect(res.body).toEqual({ result: 'success', msg: '', removed: ['Venice'], not_removed: ['Rome'] });
    const missing = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.prospero, body: { subscriptions: ['Atlantis', 'core team'] } });
    // list_to_streams does not filter by access: a hidden private channel exists, it is only
    // "not removed".
    expect(missing.body).toEqual({ result: 'error', msg: 'Channel(s) (Atlantis) do not exist', code: 'BAD_REQUEST' });
    const hidden = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.prospero, body: { subscriptions: ['core team'] } });
    expect(hidden.body).toEqual({ result: 'success', msg: '', removed: [], not_removed: ['core team'] });
    const others = await s.request({ method: 'DELETE', path: '/api/v1/users/me/subscriptions', as: ID.prospero, body: { subscriptions: ['Denmark'], principals: [ID.hamlet] } });
    expect(others.body).toEqual({ result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
  });

  it('finds a channel id by name', async () => {
    const s = sim();
    expect((await s.request({ method: 'GET', path: '/api/v1/get_stream_id', as: ID.hamlet, query: { stream: 'denmark' } })).body.stream_id).toBe(4);
    const hidden = await s.request({ method: 'GET', path: '/api/v1/get_stream_id', as: ID.othello, query: { stream: 'core team' } });
    expect(hidden.body).toEqual({ result: 'error', msg: "Invalid channel name 'core team'", code: 'BAD_REQUEST' });
  });
});

describe('POST /channels/create', () => {
  it('creates the channel and answers its id', async () => {
    const s = sim();
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/channels/create',
      as: ID.hamlet,
      body: { name: 'discussions', subscribers: [ID.hamlet, ID.iago], description: 'Talk', invite_only: true },
    });
    expect(res.body).toEqual({ result: 'success', msg: '', id: 9 });
    const list = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.iago });
    expect(list.body.streams.find((c: { stream_id: number }) => c.stream_id === 9)).toMatchObject({
      name: 'discussions',
      invite_only: true,
      history_public_to_subscribers: false,
      subscriber_count: 2,
    });
  });

  it('refuses a taken name (case-insensitively)', async () => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/channels/create', as: ID.hamlet, body: { name: 'DENMARK', subscribers: [] } });
    expect(res.status).toBe(400);
    // check_stream_name_available reports the name as requested.
    expect(res.body).toEqual({ result: 'error', msg: "Channel 'DENMARK' already exists", code: 'CHANNEL_ALREADY_EXISTS' });
  });

  it('requires subscribers', async () => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/channels/create', as: ID.hamlet, body: { name: 'x' } });
    expect(res.body).toEqual({ result: 'error', msg: "Missing 'subscribers' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'subscribers' });
  });
});

describe('subscription properties', () => {
  it('updates each property and sends two events for muting, in_home_view first', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await s.request({
      method: 'POST',
      path: '/api/v1/users/me/subscriptions/properties',
      as: ID.hamlet,
      body: {
        subscription_data: [
          { stream_id: 4, property: 'in_home_view', value: false },
          { stream_id: 3, property: 'color', value: '#abcdef' },
          { stream_id: 3, property: 'pin_to_top', value: true },
        ],
      },
    });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(watch.take().map((e) => [e.event, e.users])).toEqual([
      [{ type: 'subscription', op: 'update', stream_id: 4, property: 'in_home_view', value: false }, [ID.hamlet]],
      [{ type: 'subscription', op: 'update', stream_id: 4, property: 'is_muted', value: true }, [ID.hamlet]],
      [{ type: 'subscription', op: 'update', stream_id: 3, property: 'color', value: '#abcdef' }, [ID.hamlet]],
      [{ type: 'subscription', op: 'update', stream_id: 3, property: 'pin_to_top', value: true }, [ID.hamlet]],
    ]);
    const sub = s.engine.state.subscriptions.get(4)!.get(ID.hamlet)!;
    expect(sub.is_muted).toBe(true);
  });

  const errors: [string, Record<string, unknown>, string][] = [
    ['unknown property', { stream_id: 4, property: 'volume', value: true }, 'Unknown subscription property: volume'],
    ['unknown channel', { stream_id: 999, property: 'is_muted', value: true }, 'Invalid channel ID'],
    ['inaccessible channel', { stream_id: 8, property: 'is_muted', value: true }, 'Invalid channel ID'],
    ['not subscribed', { stream_id: 7, property: 'is_muted', value: true }, 'Not subscribed to channel ID 7'],
    ['not a boolean', { stream_id: 4, property: 'pin_to_top', value: 'yes' }, 'pin_to_top is not a boolean'],
    ['bad color', { stream_id: 4, property: 'color', value: 'blue' }, 'Invalid subscription_data[0]: Value error, color is not a valid hex color code'],
  ];
  it.each(errors)('refuses %s', async (_name, item, msg) => {
    const res = await sim().request({ method: 'POST', path: '/api/v1/users/me/subscriptions/properties', as: ID.othello, body: { subscription_data: [item] } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it('has a single-channel form (POST, and PATCH as upstream)', async () => {
    const s = sim();
    for (const method of ['POST', 'PATCH']) {
      const res = await s.request({ method, path: '/api/v1/users/me/subscriptions/4', as: ID.hamlet, body: { property: 'color', value: '#123456' } });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    }
    const muted = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions/4', as: ID.hamlet, body: { property: 'is_muted', value: true } });
    expect(muted.status).toBe(200);
    expect(s.engine.state.subscriptions.get(4)!.get(ID.hamlet)).toMatchObject({ color: '#123456', is_muted: true });
  });
});

describe('GET /streams/{stream_id}/email_address', () => {
  it('builds slug.token.show-sender@gateway, stable per channel and sender', async () => {
    const s = sim();
    const a = await s.request({ method: 'GET', path: '/api/v1/streams/4/email_address', as: ID.hamlet });
    expect(a.body.email).toMatch(/^denmark\.[0-9a-f]{32}\.show-sender@testserver$/);
    const again = await s.request({ method: 'GET', path: '/api/v1/streams/4/email_address', as: ID.othello });
    expect(again.body.email).toBe(a.body.email);
    const self = await s.request({ method: 'GET', path: '/api/v1/streams/4/email_address', as: ID.hamlet, query: { sender_id: ID.hamlet } });
    expect(self.body.email).not.toBe(a.body.email);
    const core = await s.request({ method: 'GET', path: '/api/v1/streams/8/email_address', as: ID.hamlet });
    expect(core.body.email).toMatch(/^core-team\.[0-9a-f]{32}\.show-sender@testserver$/);
  });

  const errors: [string, number, string, string][] = [
    ['unknown channel', ID.hamlet, '/api/v1/streams/999/email_address', 'Invalid channel ID'],
    ['private, not subscribed', ID.othello, '/api/v1/streams/8/email_address', 'Invalid channel ID'],
    ['sender not a bot', ID.hamlet, `/api/v1/streams/4/email_address?sender_id=${ID.othello}`, 'No such bot'],
    ["someone else's bot", ID.hamlet, `/api/v1/streams/4/email_address?sender_id=${ID.defaultBot}`, 'Insufficient permission'],
  ];
  it.each(errors)('refuses %s', async (_name, as, path, msg) => {
    const res = await sim().request({ method: 'GET', path, as });
    expect(res.body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
  });

  it("lets a bot's owner use it as sender", async () => {
    const res = await sim().request({ method: 'GET', path: `/api/v1/streams/4/email_address?sender_id=${ID.defaultBot}`, as: ID.desdemona });
    expect(res.status).toBe(200);
  });
});
