/** Bots (zerver/views/users.py, zerver/actions/bots.py): POST /bots, GET /bots, PATCH /bots/{id}, API key regeneration. */
import { describe, expect, it } from 'vitest';
import { basicAuth, type SimFile, type Simulator } from '../../simulator/index.ts';
import { ID, devFixture, sim, watchEvents } from './helpers.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

/** What every active user's event queue got during `action` (a bot created meanwhile has no queue). */
async function eventsOf(s: Simulator, action: () => Promise<unknown>) {
  const watch = watchEvents(s);
  await action();
  return watch.take();
}

const everyoneActive = (s: Simulator) =>
  [...s.engine.state.users.values()].filter((u) => u.is_active && !u.is_system_bot).map((u) => u.id).sort((a, b) => a - b);

function create(s: Simulator, body: Record<string, unknown>, as: number = ID.hamlet, files?: Record<string, SimFile>) {
  return s.request({ method: 'POST', path: '/api/v1/bots', as, body, ...(files ? { files } : {}) });
}

function patch(s: Simulator, botId: number, body: Record<string, unknown>, as: number = ID.hamlet) {
  return s.request({ method: 'PATCH', path: `/api/v1/bots/${botId}`, as, body });
}

const listBots = async (s: Simulator, as: number = ID.hamlet) => (await s.request({ method: 'GET', path: '/api/v1/bots', as })).body;

const HOOK = '"https://example.com/hook"';

describe('POST /bots', () => {
  it('creates a generic bot owned by the caller, whose key works', async () => {
    const s = sim();
    const res = await create(s, { full_name: 'Helper', short_name: 'helper' });
    expect([res.status, res.body]).toEqual([
      200,
      {
        result: 'success',
        msg: '',
        user_id: 24,
        api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
        avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
    ]);
    const user = (await s.request({ method: 'GET', path: '/api/v1/users/24', as: ID.othello })).body.user;
    expect(user).toMatchObject({ email: 'helper-bot@zulip.testserver', delivery_email: 'helper-bot@zulip.testserver', is_bot: true, bot_type: 1, bot_owner_id: ID.hamlet, role: 400 });
    const me = await s.request({ method: 'GET', path: '/api/v1/users/me', headers: { authorization: basicAuth('helper-bot@zulip.testserver', res.body.api_key) } });
    expect(me.body).toMatchObject({ user_id: 24, is_bot: true });
  });

  it('tells everyone of the new account, and the owner and administrators of the bot', async () => {
    const s = sim();
    const events = await eventsOf(s, () => create(s, { full_name: 'Helper', short_name: 'helper' }));
    expect(events.map((e) => [e.event.type, e.event.op])).toEqual([
      ['realm_user', 'add'],
      ['user_group', 'add_members'],
      ['user_group', 'add_members'],
      ['realm_bot', 'add'],
    ]);
    // Everyone active (the new bot has no queue yet).
    expect(events[0]!.users).toEqual(everyoneActive(s).filter((id) => id !== 24));
    expect(events[3]).toEqual({
      event: {
        type: 'realm_bot',
        op: 'add',
        bot: {
          email: 'helper-bot@zulip.testserver',
          user_id: 24,
          full_name: 'Helper',
          bot_type: 1,
          is_active: true,
          api_key: s.engine.state.users.get(24)!.api_key,
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
          avatar_url: expect.stringContaining('gravatar'),
          services: [],
          owner_id: ID.hamlet,
        },
      },
      users: [ID.desdemona, ID.hamlet, ID.iago],
    });
  });

  it('gives an outgoing webhook its service (the short name unless named), with a token', async () => {
    const s = sim();
    const events = await eventsOf(s, () => create(s, { full_name: 'Out', short_name: 'out', bot_type: 3, payload_url: HOOK, interface_type: 2 }));
    const bot = events.find((e) => e.event.type === 'realm_bot')!.event.bot;
    expect(bot.services).toEqual([{ base_url: 'https://example.com/hook', interface: 2, token: expect.stringMatching(/^[A-Za-z0-9]{32}$/) }]);
    expect(s.engine.state.users.get(24)!.bot_services[0]!.name).toBe('out');
  });

  it('creates embedded bots from the ones Zulip ships, where the server enables them', async () => {
    const s = sim();
    const events = await eventsOf(s, () => create(s, { full_name: 'Hello', short_name: 'hello', bot_type: 4, service_name: 'helloworld', config_data: { greeting: 'hi' } }));
    expect(events.find((e) => e.event.type === 'realm_bot')!.event.bot.services).toEqual([{ config_data: { greeting: 'hi' }, service_name: 'helloworld' }]);
    expect((await create(s, { full_name: 'Nope', short_name: 'nope', bot_type: 4, service_name: 'nonesuch' })).body).toEqual(error('Invalid embedded bot name.'));
    const fixture = devFixture();
    fixture.realm.embedded_bots_enabled = false;
    const off = sim({ fixture });
    expect((await create(off, { full_name: 'Hello', short_name: 'hello', bot_type: 4, service_name: 'helloworld' })).body).toEqual(error('Embedded bots are not enabled.'));
  });

  it('sets default channels the caller can read; a private one keeps the bot from the administrators', async () => {
    const s = sim();
    const events = await eventsOf(s, () => create(s, { full_name: 'Private', short_name: 'private', default_sending_stream: 'core team', default_events_register_stream: 'Denmark', default_all_public_streams: true }));
    const added = events.find((e) => e.event.type === 'realm_bot')!;
    expect(added.users).toEqual([ID.hamlet]);
    expect(added.event.bot).toMatchObject({ default_sending_stream: 'core team', default_events_register_stream: 'Denmark', default_all_public_streams: true });
    expect((await create(s, { full_name: 'Other', short_name: 'other', default_sending_stream: 'core team' }, ID.othello)).body).toEqual(error("Invalid channel name 'core team'"));
    expect((await create(s, { full_name: 'Other', short_name: 'other', default_events_register_stream: 'Atlantis' }, ID.othello)).body).toEqual(error("Invalid channel name 'Atlantis'"));
  });

  it('takes one avatar image (any field name), not two', async () => {
    const s = sim();
    const png: SimFile = { filename: 'bot.png', content: 'png', type: 'image/png' };
    const res = await create(s, { full_name: 'Face', short_name: 'face' }, ID.hamlet, { avatar: png });
    expect(res.body.avatar_url).toMatch(/^\/user_avatars\/2\/[0-9a-f]{32}\.png\?version=1$/);
    expect((await create(s, { full_name: 'Faces', short_name: 'faces' }, ID.hamlet, { a: png, b: png })).body).toEqual(error('You may only upload one file at a time'));
  });

  it.each([
    [{ full_name: 'X Bot', short_name: '  ' }, 'Bad name or username'],
    [{ full_name: 'X Bot', short_name: 'has space' }, 'Bad name or username'],
    [{ full_name: 'Bad*name', short_name: 'x' }, 'Invalid characters in name!'],
    [{ full_name: 'King Hamlet', short_name: 'x' }, 'Name is already in use.'],
    [{ full_name: 'X Bot', short_name: 'x', bot_type: 7 }, 'Invalid bot type'],
    [{ full_name: 'X Bot', short_name: 'x', interface_type: 3 }, 'Invalid interface type'],
    [{ full_name: 'X Bot', short_name: 'x', payload_url: 'https://example.com' }, 'payload_url is not valid JSON'],
    [{ full_name: 'X Bot', short_name: 'x', payload_url: '"not a url"' }, 'payload_url is not a URL'],
    [{ full_name: 'X Bot', short_name: 'x', config_data: { n: 1 } }, 'config_data["n"] is not a string'],
  ])('refuses %j: %s', async (body, msg) => {
    const s = sim();
    expect((await create(s, body)).body).toEqual(error(msg));
  });

  it('refuses an address already in use', async () => {
    const s = sim();
    await create(s, { full_name: 'First', short_name: 'twin' });
    expect((await create(s, { full_name: 'Second', short_name: 'twin' }, ID.othello)).body).toEqual(error('Username already in use'));
  });

  it('refuses guests and bots, and follows the bot-creation groups', async () => {
    const s = sim();
    expect((await create(s, { full_name: 'G', short_name: 'g' }, ID.polonius)).body).toEqual(error('Not allowed for guest users'));
    expect((await create(s, { full_name: 'G', short_name: 'g' }, ID.defaultBot)).body).toEqual(error('This endpoint does not accept bot requests.'));
    const fixture = devFixture();
    fixture.realm.can_create_bots_group = 'role:administrators';
    const t = sim({ fixture });
    expect((await create(t, { full_name: 'Generic', short_name: 'generic' })).body).toEqual(error('Insufficient permission'));
    expect((await create(t, { full_name: 'Incoming', short_name: 'incoming', bot_type: 2 })).status).toBe(200);
    expect((await create(t, { full_name: 'Generic', short_name: 'generic' }, ID.iago)).status).toBe(200);
  });
});

describe('/register realm_bots', () => {
  it('shows the bots one owns (every bot to administrators) as realm_bot add carries them', async () => {
    const s = sim();
    await create(s, { full_name: 'Out', short_name: 'out', bot_type: 3, payload_url: HOOK, default_sending_stream: 'Denmark' });
    const register = (as: number) => s.request({ method: 'POST', path: '/api/v1/register', as, body: { fetch_event_types: ['realm_bot'] } });
    const mine = (await register(ID.hamlet)).body.realm_bots;
    expect(mine).toEqual([
      expect.objectContaining({ user_id: 24, default_sending_stream: 'Denmark', owner_id: ID.hamlet, services: [expect.objectContaining({ base_url: 'https://example.com/hook', interface: 1 })] }),
    ]);
    const all = (await register(ID.iago)).body.realm_bots.map((b: { user_id: number }) => b.user_id);
    expect(all).toEqual([ID.defaultBot, ID.webhookBot, ID.outgoingBot, 24]);
  });
});

describe("a bot's default event channels in /register", () => {
  it('narrows an unnarrowed queue to default_events_register_stream, and default_all_public_streams widens it', async () => {
    const s = sim();
    const created = await create(s, { full_name: 'Watcher', short_name: 'watcher', default_events_register_stream: 'Denmark' });
    const bot = created.body.user_id as number;
    await create(s, { full_name: 'Everything', short_name: 'everything', default_all_public_streams: true });
    const register = async (as: number) =>
      (await s.request({ method: 'POST', path: '/api/v1/register', as, body: { event_types: ['message'], fetch_event_types: [] } })).body.queue_id as string;
    const watcherQueue = await register(bot);
    const everythingQueue = await register(bot + 1);
    const send = (to: string) => s.request({ method: 'POST', path: '/api/v1/messages', as: ID.iago, body: { type: 'stream', to, topic: 'bots', content: `to ${to}` } });
    await send('Verona');
    await send('Denmark');
    const poll = async (as: number, queue: string) =>
      (await s.request({ method: 'GET', path: '/api/v1/events', as, query: { queue_id: queue, last_event_id: -1, dont_block: true } })).body.events
        .filter((e: { type: string }) => e.type === 'message')
        .map((e: { message: { content: string } }) => e.message.content);
    expect(await poll(bot, watcherQueue)).toEqual(['to Denmark']);
    expect(await poll(bot + 1, everythingQueue)).toEqual(['to Verona', 'to Denmark']);
  });
});

describe('/register realm bundle', () => {
  it('reports the bot, emoji and name settings the fixture sets', async () => {
    const fixture = devFixture();
    fixture.realm.can_create_bots_group = 'role:administrators';
    fixture.realm.can_add_custom_emoji_group = 'role:moderators';
    fixture.realm.name_changes_disabled = true;
    const s = sim({ fixture });
    const groups = s.engine.state.realm.system_groups;
    const body = (await s.request({ method: 'POST', path: '/api/v1/register', as: ID.hamlet, body: { fetch_event_types: ['realm'] } })).body;
    expect(body).toMatchObject({
      realm_can_create_bots_group: groups['role:administrators'],
      realm_can_create_write_only_bots_group: groups['role:members'],
      realm_can_add_custom_emoji_group: groups['role:moderators'],
      realm_name_changes_disabled: true,
      realm_email_changes_disabled: false,
      realm_require_unique_names: false,
    });
  });
});

describe('GET /bots', () => {
  it("lists the caller's active bots, oldest first", async () => {
    const s = sim();
    expect(await listBots(s)).toEqual({ result: 'success', msg: '', bots: [] });
    await create(s, { full_name: 'One', short_name: 'one' });
    await create(s, { full_name: 'Two', short_name: 'two', default_sending_stream: 'Denmark' });
    const bots = (await listBots(s)).bots;
    expect(bots.map((b: Record<string, unknown>) => [b.username, b.full_name, b.default_sending_stream])).toEqual([
      ['one-bot@zulip.testserver', 'One', null],
      ['two-bot@zulip.testserver', 'Two', 'Denmark'],
    ]);
    expect(Object.keys(bots[0])).toEqual(['username', 'full_name', 'api_key', 'avatar_url', 'default_sending_stream', 'default_events_register_stream', 'default_all_public_streams']);
    expect((await listBots(s, ID.desdemona)).bots.map((b: { username: string }) => b.username)).toEqual(['default-bot@zulip.com']);
    await s.request({ method: 'DELETE', path: '/api/v1/bots/24', as: ID.hamlet });
    expect((await listBots(s)).bots.map((b: { username: string }) => b.username)).toEqual(['two-bot@zulip.testserver']);
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('a new avatar: the owners hear of it (realm_bot), then everyone gets its URLs, the medium one too', async () => {
    const s = sim();
    const png: SimFile = { filename: 'face.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: 'image/png' };
    const events = await eventsOf(s, () => s.request({ method: 'PATCH', path: `/api/v1/bots/${ID.defaultBot}`, as: ID.desdemona, files: { avatar: png } }));
    const url = expect.stringMatching(/^\/user_avatars\/2\/[0-9a-f]{32}\.png\?version=2$/);
    expect(events.map((e) => [e.event.type, e.event.bot ?? e.event.person])).toEqual([
      ['realm_bot', { user_id: ID.defaultBot, avatar_url: url }],
      ['realm_user', { avatar_source: 'U', avatar_url: url, avatar_url_medium: expect.stringMatching(/-medium\.png\?version=2$/), avatar_version: 2, user_id: ID.defaultBot }],
    ]);
    expect(events[1]!.users).toEqual(everyoneActive(s));
  });

  it('renames, answering the bot’s settings; the same name is no change', async () => {
    const s = sim();
    const res = await patch(s, ID.defaultBot, { full_name: 'Default' }, ID.desdemona);
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      full_name: 'Default',
      avatar_url: expect.stringContaining('gravatar'),
      service_interface: 1,
      service_payload_url: null,
      config_data: null,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      // The owner's API email, as Zulip answers it.
      bot_owner: 'user9@zulip.testserver',
    });
    expect(await eventsOf(s, () => patch(s, ID.defaultBot, { full_name: 'Default' }, ID.desdemona))).toEqual([]);
    expect((await patch(s, ID.defaultBot, { full_name: 'King Hamlet' }, ID.desdemona)).body).toEqual(error('Name is already in use.'));
  });

  it("moves a bot to a new owner: the old one loses it, the new one gets it whole, everyone learns the owner", async () => {
    const s = sim();
    const events = await eventsOf(s, () => patch(s, ID.webhookBot, { bot_owner_id: ID.othello }, ID.zoe));
    // Each user's queue has its own order; compare the set.
    const byKind = (type: string, op: string) => events.find((e) => e.event.type === type && e.event.op === op)!;
    expect(events.map((e) => `${e.event.type} ${e.event.op}`).sort()).toEqual(['realm_bot add', 'realm_bot delete', 'realm_bot update', 'realm_user update']);
    expect(byKind('realm_bot', 'delete')).toEqual({ event: { type: 'realm_bot', op: 'delete', bot: { user_id: ID.webhookBot } }, users: [ID.zoe] });
    expect(byKind('realm_bot', 'add').users).toEqual([ID.othello]);
    expect(byKind('realm_bot', 'add').event.bot).toMatchObject({ user_id: ID.webhookBot, owner_id: ID.othello });
    expect(byKind('realm_bot', 'update')).toEqual({ event: { type: 'realm_bot', op: 'update', bot: { user_id: ID.webhookBot, owner_id: ID.othello } }, users: [ID.desdemona, ID.iago] });
    expect(byKind('realm_user', 'update')).toEqual({
      event: { type: 'realm_user', op: 'update', person: { user_id: ID.webhookBot, bot_owner_id: ID.othello } },
      users: everyoneActive(s),
    });
    // Zoe no longer administers it.
    expect((await patch(s, ID.webhookBot, { full_name: 'Mine' }, ID.zoe)).body).toEqual(error('Insufficient permission'));
  });

  it('refuses owners that are unknown, deactivated or bots', async () => {
    const s = sim();
    expect((await patch(s, ID.defaultBot, { bot_owner_id: 999 }, ID.iago)).body).toEqual(error('Failed to change owner, no such user'));
    await s.request({ method: 'DELETE', path: `/api/v1/users/${ID.othello}`, as: ID.iago });
    expect((await patch(s, ID.defaultBot, { bot_owner_id: ID.othello }, ID.iago)).body).toEqual(error('Failed to change owner, user is deactivated'));
    expect((await patch(s, ID.defaultBot, { bot_owner_id: ID.webhookBot }, ID.iago)).body).toEqual(error("Failed to change owner, bots can't own other bots"));
  });

  it('sets and clears default channels, with realm_bot updates', async () => {
    const s = sim();
    const set = await eventsOf(s, () => patch(s, ID.outgoingBot, { default_sending_stream: 'Verona', default_all_public_streams: true }, ID.aaron));
    expect(set.map((e) => [e.event.bot, e.users])).toEqual([
      [{ user_id: ID.outgoingBot, default_sending_stream: 'Verona' }, [ID.aaron, ID.desdemona, ID.iago]],
      [{ user_id: ID.outgoingBot, default_all_public_streams: true }, [ID.aaron, ID.desdemona, ID.iago]],
    ]);
    const cleared = await patch(s, ID.outgoingBot, { default_sending_stream: '' }, ID.aaron);
    expect(cleared.body).toMatchObject({ default_sending_stream: null, default_all_public_streams: true });
    expect((await patch(s, ID.outgoingBot, { default_events_register_stream: 'core team' }, ID.aaron)).body).toEqual(error("Invalid channel name 'core team'"));
  });

  it("changes an outgoing webhook's endpoint and an embedded bot's configuration", async () => {
    const s = sim();
    await create(s, { full_name: 'Out', short_name: 'out', bot_type: 3, payload_url: HOOK });
    const events = await eventsOf(s, () => patch(s, 24, { service_payload_url: '"https://example.org/new"', service_interface: 2 }));
    expect(events[0]!.event.bot).toEqual({ user_id: 24, services: [{ base_url: 'https://example.org/new', interface: 2, token: s.engine.state.users.get(24)!.bot_services[0]!.token }] });
    expect((await patch(s, 24, { service_payload_url: HOOK, service_interface: 9 })).body).toEqual(error('Invalid interface type'));
    await create(s, { full_name: 'Emb', short_name: 'emb', bot_type: 4, service_name: 'converter' });
    const config = await eventsOf(s, () => patch(s, 25, { config_data: { key: 'value' } }));
    expect(config[0]!.event.bot).toEqual({ user_id: 25, services: [{ config_data: { key: 'value' } }] });
  });

  it('changes a role under the same rules as users', async () => {
    const s = sim();
    expect((await patch(s, ID.webhookBot, { role: 200 }, ID.zoe)).body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await patch(s, ID.webhookBot, { role: 100 }, ID.iago)).body).toEqual(error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await patch(s, ID.webhookBot, { role: 200 }, ID.iago)).status).toBe(200);
    expect(s.engine.state.users.get(ID.webhookBot)!.role).toBe(200);
  });

  it('answers an unknown id or a human as no such bot, and a bot of someone else as insufficient permission', async () => {
    const s = sim();
    expect((await patch(s, 999, { full_name: 'x y' })).body).toEqual(error('No such bot'));
    expect((await patch(s, ID.othello, { full_name: 'x y' })).body).toEqual(error('No such bot'));
    expect((await patch(s, ID.defaultBot, { full_name: 'x y' })).body).toEqual(error('Insufficient permission'));
    expect((await patch(s, ID.defaultBot, { full_name: 'x y' }, ID.polonius)).body).toEqual(error('Not allowed for guest users'));
  });

  it('changes nothing when a later check fails', async () => {
    const s = sim();
    expect((await patch(s, ID.defaultBot, { full_name: 'Renamed', bot_owner_id: 999 }, ID.desdemona)).body).toEqual(error('Failed to change owner, no such user'));
    expect(s.engine.state.users.get(ID.defaultBot)!.full_name).toBe('Zulip Default Bot');
  });
});

describe('POST /bots/{bot_id}/api_key/regenerate', () => {
  it('replaces the key: the old one stops working, the owner and administrators learn the new one', async () => {
    const s = sim();
    const old = s.engine.state.users.get(ID.defaultBot)!.api_key;
    let res: Awaited<ReturnType<Simulator['request']>> | undefined;
    const events = await eventsOf(s, async () => {
      res = await s.request({ method: 'POST', path: `/api/v1/bots/${ID.defaultBot}/api_key/regenerate`, as: ID.desdemona });
    });
    const key = res!.body.api_key as string;
    expect(res!.body).toEqual({ result: 'success', msg: '', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect(key).not.toBe(old);
    expect(events).toEqual([{ event: { type: 'realm_bot', op: 'update', bot: { user_id: ID.defaultBot, api_key: key } }, users: [ID.desdemona, ID.iago] }]);
    const withOld = await s.request({ method: 'GET', path: '/api/v1/users/me', headers: { authorization: basicAuth('default-bot@zulip.com', old) } });
    expect([withOld.status, withOld.body.msg]).toEqual([401, 'Invalid API key']);
    const withNew = await s.request({ method: 'GET', path: '/api/v1/users/me', headers: { authorization: basicAuth('default-bot@zulip.com', key) } });
    expect(withNew.status).toBe(200);
  });

  it('is for the owner and administrators only', async () => {
    const s = sim();
    const res = await s.request({ method: 'POST', path: `/api/v1/bots/${ID.defaultBot}/api_key/regenerate`, as: ID.hamlet });
    expect(res.body).toEqual(error('Insufficient permission'));
  });
});
