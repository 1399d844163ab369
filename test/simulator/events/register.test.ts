// POST /register (zerver/views/events_register.py, zerver/lib/events.py:do_events_register): parameters and their errors, the keys every answer
// carries, which fetch types and event types control what, and an initial state that agrees with
// the REST endpoints asked at the same moment.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { ID, sim } from '../helpers.ts';
import { pending, register, send } from './helpers.ts';

const HAMLET = ID.hamlet;

async function registerRaw(s: ReturnType<typeof sim>, as: number, body: Record<string, unknown>) {
  return s.request({ method: 'POST', path: '/api/v1/register', as, body });
}

describe('the answer', () => {
  it('always carries the queue, the last event ID and the server version', async () => {
    const res = await registerRaw(sim(), HAMLET, { fetch_event_types: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      queue_id: expect.any(String),
      last_event_id: -1,
      zulip_version: expect.any(String),
      zulip_feature_level: expect.any(Number),
      zulip_merge_base: expect.any(String),
    });
  });

  it('adds the long-poll timeout with the realm bundle', async () => {
    const body = await register(sim(), HAMLET, { fetch_event_types: ['realm'] });
    expect(body).toMatchObject({
      event_queue_longpoll_timeout_seconds: 90,
      realm_name: 'Zulip Dev',
      realm_url: 'http://zulip.testserver',
      realm_message_retention_days: -1,
      realm_topics_policy: 'allow_empty_topic',
      realm_empty_topic_display_name: 'general chat',
      max_message_length: 10000,
    });
    expect(body).not.toHaveProperty('realm_users');
  });
});

describe('parameters and their errors (first failing one, alphabetically)', () => {
  const bad = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
  it.each([
    ['all_public_streams', { all_public_streams: 'yes' }, 'all_public_streams is not valid JSON'],
    ['all_public_streams type', { all_public_streams: 1 }, 'all_public_streams is not a boolean'],
    ['apply_markdown', { apply_markdown: '"true"' }, 'apply_markdown is not a boolean'],
    ['client_capabilities', { client_capabilities: [] }, 'client_capabilities is not a dict'],
    ['client_capabilities value', { client_capabilities: { notification_settings_null: 1 } }, 'client_capabilities["notification_settings_null"] is not a boolean'],
    ['client_gravatar', { client_gravatar: 'null1' }, 'client_gravatar is not valid JSON'],
    ['event_types', { event_types: '"message"' }, 'event_types is not a list'],
    ['event_types item', { event_types: [1] }, 'event_types[0] is not a string'],
    ['fetch_event_types', { fetch_event_types: {} }, 'fetch_event_types is not a list'],
    ['include_subscribers', { include_subscribers: 'True' }, 'Invalid include_subscribers'],
    ['include_subscribers JSON', { include_subscribers: '1' }, 'Invalid include_subscribers'],
    ['narrow', { narrow: { stream: 'Denmark' } }, 'narrow is not a list'],
    ['narrow term', { narrow: ['stream'] }, 'narrow[0] is not a list'],
    ['narrow operand', { narrow: [['stream', 3]] }, 'narrow[0][1] is not a string'],
    ['narrow pair', { narrow: [['stream', 'Denmark', 'x']] }, 'narrow[0] should have exactly 2 items'],
    ['narrow null is no narrow, but not a null term', { narrow: [null] }, 'narrow[0] is not a list'],
    ['narrow dict term', { narrow: [{ operator: 'stream', operand: 'Denmark' }] }, 'narrow[0] is not a list'],
    ['narrow operator', { narrow: [['search', 'x']] }, 'Operator search not supported.'],
    ['narrow operator GET /messages knows', { narrow: [['exact-topic', 'x']] }, 'Operator exact-topic not supported.'],
    ['narrow is:followed', { narrow: [['is', 'followed']] }, 'Operand followed not supported.'],
    ['queue_lifespan_secs', { queue_lifespan_secs: '1.5' }, 'queue_lifespan_secs is not an integer'],
    ['slim_presence', { slim_presence: 'null' }, 'slim_presence is not a boolean'],
    ['first in order', { slim_presence: 'null', apply_markdown: 3 }, 'apply_markdown is not a boolean'],
  ])('%s', async (_name, body, msg) => {
    const res = await registerRaw(sim(), HAMLET, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(bad(msg));
  });

  it('refuses all_public_streams to a guest, after parsing everything else', async () => {
    const s = sim();
    expect((await registerRaw(s, ID.polonius, { all_public_streams: true })).body).toEqual(bad('User not authorized for this query'));
    expect((await registerRaw(s, ID.polonius, { all_public_streams: true, slim_presence: 1 })).body).toEqual(bad('slim_presence is not a boolean'));
    expect((await registerRaw(s, ID.polonius, { all_public_streams: false })).status).toBe(200);
  });

  it('accepts null for the nullable parameters and include_subscribers=partial', async () => {
    const res = await registerRaw(sim(), HAMLET, {
      all_public_streams: null,
      client_gravatar: null,
      event_types: null,
      fetch_event_types: ['subscription'],
      include_subscribers: 'partial',
      presence_history_limit_days: null,
      narrow: null,
      client_capabilities: { notification_settings_null: true, some_future_capability: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.subscriptions[0]).toHaveProperty('subscribers');
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
  });
});

describe('what event_types and fetch_event_types control (zerver/lib/events.py:do_events_register)', () => {
  it('event_types picks both the events and, without fetch_event_types, the state', async () => {
    const s = sim();
    const q = await register(s, HAMLET, { event_types: ['message'] });
    expect(Object.keys(q)).toContain('max_message_id');
    expect(q).not.toHaveProperty('subscriptions');
    await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: HAMLET, body: { subscriptions: [{ name: 'new one' }] } });
    await send(s, ID.iago, { type: 'direct', to: `[${HAMLET}]`, content: 'hi' });
    // No stream or subscription events: the Notification Bot's post in the new channel, then the DM.
    const events = await pending(s, HAMLET, q.queue_id);
    expect(events.map((e) => e.type)).toEqual(['message', 'message']);
    expect(events.map((e) => e.message.sender_id)).toEqual([s.engine.state.usersByEmail.get('notification-bot@zulip.com'), ID.iago]);
  });

  it('fetch_event_types only shapes the state: the queue still gets every event', async () => {
    const s = sim();
    const q = await register(s, HAMLET, { fetch_event_types: ['message'] });
    expect(q).not.toHaveProperty('subscriptions');
    await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: HAMLET, body: { subscriptions: [{ name: 'new one' }] } });
    const types = (await pending(s, HAMLET, q.queue_id)).map((e) => `${e.type}/${e.op ?? ''}`);
    expect(types.slice(0, 2)).toEqual(['stream/create', 'subscription/add']);
  });

  it('gives unread_msgs only when both message and update_message_flags are wanted', async () => {
    const s = sim();
    expect(await register(s, HAMLET, { fetch_event_types: ['update_message_flags'] })).not.toHaveProperty('unread_msgs');
    expect(await register(s, HAMLET, { fetch_event_types: ['message', 'update_message_flags'] })).toHaveProperty('unread_msgs');
  });

  it('leaves muted_topics out when user_topic is listed explicitly', async () => {
    const s = sim();
    expect(await register(s, HAMLET, { event_types: ['muted_topics'] })).toHaveProperty('muted_topics');
    expect(await register(s, HAMLET, { event_types: ['muted_topics', 'user_topic'] })).not.toHaveProperty('muted_topics');
  });

  it('ignores fetch types it does not know, and fetch-only keys queue nothing', async () => {
    const s = sim();
    const q = await register(s, HAMLET, { event_types: ['no_such_type', 'realm_user_groups'] });
    expect(q).toHaveProperty('realm_user_groups');
    await send(s, ID.iago, { type: 'direct', to: `[${HAMLET}]`, content: 'hi' });
    expect(await pending(s, HAMLET, q.queue_id)).toEqual([]);
  });

  it('gives legacy settings keys only to clients without user_settings_object', async () => {
    const s = sim();
    const old = await register(s, HAMLET, { fetch_event_types: ['update_display_settings', 'user_settings'] });
    expect(old).toMatchObject({ twenty_four_hour_time: false, emojiset: 'google', user_settings: { twenty_four_hour_time: false, timezone: expect.any(String) } });
    const modern = await register(s, HAMLET, {
      fetch_event_types: ['update_display_settings', 'user_settings'],
      client_capabilities: { notification_settings_null: false, user_settings_object: true },
    });
    expect(modern).not.toHaveProperty('twenty_four_hour_time');
    expect(modern).toHaveProperty('user_settings');
  });
});

describe('the initial state agrees with the REST endpoints', () => {
  const get = (s: ReturnType<typeof sim>, as: number, path: string, query: Record<string, unknown> = {}) =>
    s.request({ method: 'GET', path: `/api/v1${path}`, as, query });

  it.each([
    ['a member', ID.hamlet],
    ['an administrator', ID.iago],
    ['a guest', ID.polonius],
  ])('for %s', async (_who, as) => {
    const s = sim();
    const state = await register(s, as, { include_subscribers: 'true', client_capabilities: { notification_settings_null: true } });
    const me = (await get(s, as, '/users/me')).body;
    expect(state.max_message_id).toBe(me.max_message_id);
    expect(state).toMatchObject({ user_id: me.user_id, email: me.email, full_name: me.full_name, is_admin: me.is_admin, is_guest: me.is_guest });
    expect(state.avatar_url).toBe(me.avatar_url);

    const subs = (await get(s, as, '/users/me/subscriptions', { include_subscribers: true })).body.subscriptions;
    expect(state.subscriptions).toEqual(subs);

    const streams = (await get(s, as, '/streams', { include_all: true })).body.streams;
    expect(state.streams).toEqual(streams);

    const users = (await get(s, as, '/users', { client_gravatar: true, include_custom_profile_fields: true })).body.members as { is_active: boolean }[];
    const strip = (list: { is_active: boolean }[]) => list.map(({ is_active: _a, ...u }) => u);
    expect(state.realm_users).toEqual(strip(users.filter((u) => u.is_active && !('is_system_bot' in u))));
    expect(state.realm_non_active_users).toEqual(strip(users.filter((u) => !u.is_active)));

    // Every channel the user can see, exactly once, in one of the three lists.
    const listed = [...state.subscriptions, ...state.unsubscribed, ...state.never_subscribed].map((c: { stream_id: number }) => c.stream_id);
    expect([...listed].sort((a, b) => a - b)).toEqual(streams.map((c: { stream_id: number }) => c.stream_id).sort((a: number, b: number) => a - b));
  });

  it('for drafts, saved snippets and navigation views', async () => {
    const s = sim();
    const call = (method: string, path: string, body: Record<string, unknown>) => s.request({ method, path: `/api/v1${path}`, as: HAMLET, body });
    await call('POST', '/drafts', { drafts: [{ type: 'stream', to: [3], topic: 'a', content: 'first' }, { type: 'private', to: [], topic: '', content: 'second' }] });
    await call('POST', '/saved_snippets', { title: 'Hi', content: 'Hello there' });
    await call('POST', '/navigation_views', { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
    const state = await register(s, HAMLET, { fetch_event_types: ['drafts', 'saved_snippets', 'navigation_views'] });
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect([...state.drafts].sort(byId)).toEqual([...(await get(s, HAMLET, '/drafts')).body.drafts].sort(byId));
    expect(state.saved_snippets).toEqual((await get(s, HAMLET, '/saved_snippets')).body.saved_snippets);
    expect(state.navigation_views).toEqual((await get(s, HAMLET, '/navigation_views')).body.navigation_views);
    expect(state.drafts).toHaveLength(2);
  });

  it('lists unread messages of muted conversations without counting them', async () => {
    const s = sim();
    await s.request({ method: 'POST', path: '/api/v1/user_topics', as: HAMLET, body: { stream_id: 4, topic: 'quiet', visibility_policy: 1 } });
    await send(s, ID.iago, { type: 'stream', to: 'Denmark', topic: 'quiet', content: '@**all** hush' });
    await send(s, ID.iago, { type: 'stream', to: 'Denmark', topic: 'loud', content: 'hey' });
    const { unread_msgs: unread } = await register(s, HAMLET, { fetch_event_types: ['message', 'update_message_flags'] });
    const topics = unread.streams.filter((g: { stream_id: number }) => g.stream_id === 4).map((g: { topic: string }) => g.topic);
    expect(topics).toEqual(expect.arrayContaining(['quiet', 'loud']));
    const listed = [...unread.pms, ...unread.streams, ...unread.huddles].reduce((n: number, g: { unread_message_ids: number[] }) => n + g.unread_message_ids.length, 0);
    expect(unread.count).toBe(listed - 1);
    // A wildcard mention in a muted topic is no mention.
    expect(unread.mentions).toEqual([]);
  });

  it('reports unread messages as GET /messages flags them', async () => {
    const s = sim();
    await send(s, ID.iago, { type: 'direct', to: `[${HAMLET}]`, content: 'one' });
    await send(s, ID.iago, { type: 'direct', to: `[${HAMLET}, ${ID.othello}]`, content: 'group' });
    await send(s, ID.iago, { type: 'stream', to: 'Denmark', topic: 'Lunch', content: '@**King Hamlet** lunch?' });
    await send(s, ID.iago, { type: 'stream', to: 'Denmark', topic: 'lunch', content: 'same topic, other case' });
    const { unread_msgs: unread } = await register(s, HAMLET, { fetch_event_types: ['message', 'update_message_flags'] });
    const fetched = (await get(s, HAMLET, '/messages', { anchor: 'oldest', num_after: 5000 })).body.messages as { id: number; flags: string[] }[];
    const unreadIds = fetched.filter((m) => !m.flags.includes('read')).map((m) => m.id);
    const listed = [...unread.pms, ...unread.streams, ...unread.huddles].flatMap((g: { unread_message_ids: number[] }) => g.unread_message_ids);
    expect(listed.sort((a, b) => a - b)).toEqual(unreadIds);
    expect(unread.count).toBe(unreadIds.length);
    expect(unread.mentions).toEqual(fetched.filter((m) => m.flags.includes('mentioned') && !m.flags.includes('read')).map((m) => m.id));
    const lunch = unread.streams.filter((g: { topic: string }) => g.topic.toLowerCase() === 'lunch');
    expect(lunch).toHaveLength(1);
    expect(lunch[0].topic).toBe('Lunch');
    expect(unread.pms).toContainEqual({ other_user_id: ID.iago, sender_id: ID.iago, unread_message_ids: expect.any(Array) });
    expect(unread.huddles).toContainEqual({ user_ids_string: [HAMLET, ID.iago, ID.othello].sort((a, b) => a - b).join(','), unread_message_ids: expect.any(Array) });
  });
});

describe('every fetch type the simulator has data for', () => {
  it('gives the server-wide ones Zulip answers without a resource of their own', async () => {
    const body = await register(sim(), HAMLET, { fetch_event_types: ['giphy', 'realm_billing', 'onboarding_steps', 'realm_embedded_bots'] });
    expect(body).toMatchObject({
      giphy_api_key: '',
      realm_billing: { has_pending_sponsorship_request: false },
      onboarding_steps: [],
      navigation_tour_video_url: null,
    });
    expect(body.realm_embedded_bots).toContainEqual({ name: 'giphy', config: { key: '12345678' } });
    expect(body.realm_embedded_bots.map((b: { name: string }) => b.name)).toEqual(['converter', 'encrypt', 'helloworld', 'virtual_fs', 'giphy', 'followup']);
  });

  it('sends no push_devices, which feature level 468 removed (devices replaced it), even when asked for', async () => {
    const asked = await register(sim(), HAMLET, { fetch_event_types: ['push_device', 'device'] });
    expect(asked).not.toHaveProperty('push_devices');
    expect(asked).toHaveProperty('devices');
    expect(await register(sim(), HAMLET, {})).not.toHaveProperty('push_devices');
  });

  it('gives as realm_user_settings_defaults the settings a new account starts with', async () => {
    const s = sim();
    const { realm_user_settings_defaults: defaults } = await register(s, HAMLET, { fetch_event_types: ['realm_user_settings_defaults'] });
    const created = await s.request({
      method: 'POST',
      path: '/api/v1/users',
      as: ID.iago,
      body: { email: 'newcomer@zulip.com', password: 'newcomer-password', full_name: 'Newcomer' },
    });
    expect(created.status).toBe(200);
    const { user_settings: settings } = await register(s, created.body.user_id, { fetch_event_types: ['user_settings'] });
    const { timezone: _tz, ...startingSettings } = settings;
    expect(defaults).toEqual(startingSettings);
  });

  it('reaches every register-state function of the engine (none is left out of the table)', async () => {
    const s = sim();
    const user = s.engine.state.users.get(HAMLET)!;
    const full = await register(s, HAMLET, {});
    const files = await fg('simulator/engine/**/*.ts');
    const missing: string[] = [];
    for (const file of files) {
      const mod = (await import(pathToFileURL(path.resolve(file)).href)) as Record<string, unknown>;
      for (const [name, fn] of Object.entries(mod)) {
        if (typeof fn !== 'function' || !/State$/.test(name) || name === 'initialState' || name === 'emptyState') continue;
        const keys = Object.keys((fn as (...a: unknown[]) => Record<string, unknown>)(s.engine, user, {}));
        for (const key of keys) if (!(key in full)) missing.push(`${name} → ${key}`);
      }
    }
    expect(missing).toEqual([]);
    expect(files.length).toBeGreaterThan(30);
  });

  it('shows pronouns fields as short text to mobile apps older than 27.192, in the state and in events', async () => {
    const s = sim();
    const registerAs = async (userAgent: string) =>
      (await s.request({ method: 'POST', path: '/api/v1/register', as: HAMLET, headers: { 'user-agent': userAgent }, body: { fetch_event_types: JSON.stringify(['custom_profile_fields']) } })).body;
    const old = await registerAs('ZulipMobile/27.191 (Android 12)');
    const current = await registerAs('ZulipMobile/27.192 (Android 12)');
    const pronouns = (state: any) => state.custom_profile_fields.find((f: { name: string }) => f.name === 'Pronouns').type;
    expect([pronouns(old), pronouns(current)]).toEqual([1, 8]);
    expect(old.custom_profile_field_types).not.toHaveProperty('PRONOUNS');
    expect(current.custom_profile_field_types.PRONOUNS).toEqual({ id: 8, name: 'Pronouns' });
    const fieldId = current.custom_profile_fields.find((f: { name: string }) => f.name === 'Pronouns').id;
    await s.request({ method: 'PATCH', path: `/api/v1/realm/profile_fields/${fieldId}`, as: ID.iago, body: { hint: 'How to address you' } });
    const [oldEvent] = await pending(s, HAMLET, old.queue_id);
    const [currentEvent] = await pending(s, HAMLET, current.queue_id);
    expect(pronouns({ custom_profile_fields: oldEvent!.fields })).toBe(1);
    expect(pronouns({ custom_profile_fields: currentEvent!.fields })).toBe(8);
  });
});
