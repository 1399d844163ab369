// A realistic session of the zulip-js client (the npm package, unchanged) against the simulator's
// real HTTP server: the same calls a bot makes against Zulip, with Zulip's answers.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ZULIP_FEATURE_LEVEL, ZULIP_VERSION } from '../../simulator/engine/realm/server-version.ts';
import { createSimulator, type Simulator } from '../../simulator/index.ts';

// zulip-js is CommonJS without types: zulipInit(config) resolves to the client.
type Call = (params?: Record<string, unknown>) => Promise<any>;
interface ZulipClient {
  callOnEachEvent(callback: (event: Record<string, any>) => void, eventTypes?: string[] | null): Promise<never>;
  users: { retrieve: Call; create: Call; me: { getProfile: Call; subscriptions: { add: Call } } };
  streams: { retrieve: Call; topics: { retrieve: Call }; deleteById: Call };
  messages: {
    send: Call;
    retrieve: Call;
    getById: Call;
    update: Call;
    getHistoryById: Call;
    deleteById: Call;
    render: (params: Record<string, unknown> | string) => Promise<any>;
    flags: { add: Call; remove: Call };
  };
  reactions: { add: Call; remove: Call };
  typing: { send: Call };
  emojis: { retrieve: Call };
  server: { settings: Call };
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<any>;
  config: { username: string; apiKey: string };
}
const zulipInit = createRequire(import.meta.url)('zulip-js') as (config: Record<string, string>) => Promise<ZulipClient>;

let sim: Simulator;
let server: { url: string; close(): Promise<void> };
let client: ZulipClient;

beforeAll(async () => {
  sim = createSimulator({ seed: 3 });
  server = await sim.listen(0, '127.0.0.1');
  const iago = [...sim.engine.state.users.values()].find((u) => u.delivery_email === 'iago@zulip.com')!;
  // zulip-js appends /api/v1 to the realm URL, so it gets the server's origin.
  client = await zulipInit({ username: iago.delivery_email, apiKey: iago.api_key, realm: new URL(server.url).origin });
});

afterAll(async () => {
  await server.close();
});

describe('zulip-js session', () => {
  let channelMessageId: number;

  test('server.settings (what a client reads before anything else)', async () => {
    const res = await client.server.settings();
    expect(res).toMatchObject({
      result: 'success',
      zulip_version: ZULIP_VERSION,
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      realm_name: 'Zulip Dev',
      authentication_methods: { password: true, dev: true },
    });
  });

  test('users.me.getProfile', async () => {
    const me = await client.users.me.getProfile();
    expect(me).toMatchObject({ result: 'success', msg: '', user_id: 11, full_name: 'Iago', is_admin: true, email: 'user11@zulip.testserver' });
  });

  test('users.retrieve', async () => {
    const res = await client.users.retrieve();
    expect(res.result).toBe('success');
    expect(res.members).toEqual(expect.arrayContaining([expect.objectContaining({ user_id: 10, full_name: 'King Hamlet' })]));
  });

  test('streams.retrieve', async () => {
    const res = await client.streams.retrieve();
    expect(res.result).toBe('success');
    expect(res.streams.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['Denmark', 'Verona']));
  });

  test('users.me.subscriptions.add (JSON-encoded array of objects)', async () => {
    const res = await client.users.me.subscriptions.add({ subscriptions: [{ name: 'Venice' }] });
    expect(res).toMatchObject({ result: 'success', msg: '', subscribed: { '11': ['Venice'] } });
  });

  test('messages.send to a channel (multipart form body)', async () => {
    const res = await client.messages.send({ type: 'stream', to: 'Denmark', topic: 'zulip-js', content: 'Hello from **zulip-js** :octopus:' });
    expect(res).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    channelMessageId = res.id;
  });

  test('messages.send a direct message (array recipients)', async () => {
    const res = await client.messages.send({ type: 'private', to: [10], content: 'Psst, Hamlet.' });
    expect(res).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const hamlet = await sim.request({ method: 'GET', path: `/api/v1/messages/${res.id}`, as: 'hamlet@zulip.com' });
    expect(hamlet.body.message).toMatchObject({ type: 'private', content: '<p>Psst, Hamlet.</p>', sender_id: 11 });
  });

  test('messages.retrieve with a narrow', async () => {
    const res = await client.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'zulip-js' },
      ],
    });
    expect(res).toMatchObject({ result: 'success', found_newest: true, found_anchor: false, anchor: 10_000_000_000_000_000 });
    expect(res.messages).toHaveLength(1);
    expect(res.messages[0]).toMatchObject({
      id: channelMessageId,
      content: '<p>Hello from <strong>zulip-js</strong> <span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>',
      display_recipient: 'Denmark',
      subject: 'zulip-js',
      sender_email: 'user11@zulip.testserver',
      client: 'node-fetch',
      flags: [],
    });
  });

  test('reactions.add and reactions.remove (DELETE sends query parameters)', async () => {
    const added = await client.reactions.add({ message_id: channelMessageId, emoji_name: 'octopus' });
    expect(added).toEqual({ result: 'success', msg: '' });
    const again = await client.reactions.add({ message_id: channelMessageId, emoji_name: 'octopus' });
    expect(again).toEqual({ result: 'error', msg: 'Reaction already exists.', code: 'REACTION_ALREADY_EXISTS' });
    const removed = await client.reactions.remove({ message_id: channelMessageId, emoji_name: 'octopus' });
    expect(removed).toEqual({ result: 'success', msg: '' });
  });

  test('messages.getById (zulip-js also sends message_id as a query parameter, which Zulip reports as ignored)', async () => {
    const res = await client.messages.getById({ message_id: channelMessageId });
    expect(res).toMatchObject({
      result: 'success',
      raw_content: 'Hello from **zulip-js** :octopus:',
      message: { id: channelMessageId, reactions: [] },
      ignored_parameters_unsupported: ['message_id'],
    });
  });

  // zulip-js has no user-group methods; clients reach them through callEndpoint, which JSON-encodes
  // arrays but sends other values as text (a GroupSetting object has to be encoded by the caller).
  test('callEndpoint: user groups (create, add a member, list)', async () => {
    const created = await client.callEndpoint('/user_groups/create', 'POST', {
      name: 'zulip-js testers',
      description: 'Made by zulip-js',
      members: [10, 12],
      can_mention_group: JSON.stringify({ direct_members: [11], direct_subgroups: [] }),
    });
    expect(created).toEqual({ result: 'success', msg: '', group_id: expect.any(Number) });
    const added = await client.callEndpoint(`/user_groups/${created.group_id}/members`, 'POST', { add: [8] });
    expect(added).toEqual({ result: 'success', msg: '' });
    const listed = await client.callEndpoint('/user_groups', 'GET');
    expect(listed.user_groups.find((g: { id: number }) => g.id === created.group_id)).toMatchObject({
      name: 'zulip-js testers',
      members: [8, 10, 12],
      creator_id: 11,
      can_mention_group: { direct_members: [11], direct_subgroups: [] },
    });
  });

  test('callEndpoint: a reusable invitation link (create, list, revoke)', async () => {
    const created = await client.callEndpoint('/invites/multiuse', 'POST', { invite_as: 600, stream_ids: [3], invite_expires_in_minutes: 60 });
    expect(created).toEqual({ result: 'success', msg: '', invite_link: expect.stringMatching(/\/join\/[a-z2-7]{24}\/$/) });
    const listed = await client.callEndpoint('/invites', 'GET');
    const mine = listed.invites.find((i: { link_url: string }) => i.link_url === created.invite_link);
    expect(mine).toMatchObject({ invited_by_user_id: 11, invited_as: 600, is_multiuse: true });
    expect(await client.callEndpoint(`/invites/multiuse/${mine.id}`, 'DELETE')).toEqual({ result: 'success', msg: '' });
  });

  // zulip-js has no upload method either: its documented way is callEndpoint with a file stream,
  // which its form-data encoder sends as a multipart file part named after the parameter.
  test('callEndpoint: upload a file, list it, fetch it back with Basic credentials', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'zulip-js-upload-'));
    try {
      const file = path.join(dir, 'notes from zulip-js.txt');
      await writeFile(file, 'Uploaded by zulip-js\n');
      const res = await client.callEndpoint('/user_uploads', 'POST', { filename: createReadStream(file) });
      expect(res).toEqual({
        result: 'success',
        msg: '',
        uri: expect.stringMatching(/^\/user_uploads\/2\/[0-9a-f]{2}\/[\w-]{24}\/notes-from-zulip-js\.txt$/),
        url: res.uri,
        filename: 'notes from zulip-js.txt',
      });
      const listed = await client.callEndpoint('/attachments', 'GET');
      expect(listed.attachments).toContainEqual(expect.objectContaining({ name: 'notes from zulip-js.txt', size: 21, message_ids: [] }));
      const got = await fetch(new URL(res.url, server.url), { headers: { authorization: `Basic ${Buffer.from(`${client.config.username}:${client.config.apiKey}`).toString('base64')}` } });
      expect([got.status, got.headers.get('content-type'), await got.text()]).toEqual([200, 'text/plain; charset="ascii"', 'Uploaded by zulip-js\n']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // zulip-js lists custom emoji (emojis.retrieve); uploading one goes through callEndpoint with a file stream.
  test('emojis.retrieve and a custom emoji uploaded through callEndpoint, then used in a reaction', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'zulip-js-emoji-'));
    try {
      const file = path.join(dir, 'zulipjs.png');
      await writeFile(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const added = await client.callEndpoint('/realm/emoji/zulip_js', 'POST', { file: createReadStream(file) });
      expect(added).toEqual({ result: 'success', msg: '' });
      const res = await client.emojis.retrieve();
      expect(res.result).toBe('success');
      const emoji = Object.values(res.emoji as Record<string, { name: string }>).find((e) => e.name === 'zulip_js');
      expect(emoji).toMatchObject({ author_id: 11, deactivated: false, still_url: null, source_url: expect.stringMatching(/\.png$/) });
      expect(await client.reactions.add({ message_id: channelMessageId, emoji_name: 'zulip_js' })).toEqual({ result: 'success', msg: '' });
      expect(await client.callEndpoint('/realm/emoji/zulip_js', 'DELETE')).toEqual({ result: 'success', msg: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('callEndpoint: drafts and saved snippets (arrays JSON-encoded by zulip-js)', async () => {
    const created = await client.callEndpoint('/drafts', 'POST', { drafts: [{ type: 'stream', to: [3], topic: 'zulip-js', content: 'Draft from zulip-js' }] });
    expect(created).toEqual({ result: 'success', msg: '', ids: [expect.any(Number)] });
    const drafts = await client.callEndpoint('/drafts', 'GET');
    expect(drafts.drafts).toEqual([expect.objectContaining({ id: created.ids[0], type: 'stream', to: [3], content: 'Draft from zulip-js' })]);
    const snippet = await client.callEndpoint('/saved_snippets', 'POST', { title: 'Sign-off', content: 'Cheers, the zulip-js bot' });
    expect(snippet).toEqual({ result: 'success', msg: '', saved_snippet_id: expect.any(Number) });
  });

  test('messages.update edits and moves (PATCH parameters in the query string, message_id ignored)', async () => {
    const edited = await client.messages.update({ message_id: channelMessageId, content: 'Hello again from **zulip-js**' });
    expect(edited).toEqual({ result: 'success', msg: '', detached_uploads: [], ignored_parameters_unsupported: ['message_id'] });
    const moved = await client.messages.update({ message_id: channelMessageId, topic: 'zulip-js moved', propagate_mode: 'change_all' });
    expect(moved).toMatchObject({ result: 'success', detached_uploads: [] });
    const res = await client.messages.getById({ message_id: channelMessageId });
    expect(res.message).toMatchObject({ subject: 'zulip-js moved', content: '<p>Hello again from <strong>zulip-js</strong></p>' });
    expect(res.message.last_edit_timestamp).toEqual(expect.any(Number));
    const refused = await client.messages.update({ message_id: channelMessageId, topic: 'zulip-js moved' });
    expect(refused).toEqual({ result: 'error', msg: 'Nothing to change', code: 'BAD_REQUEST' });
  });

  test('messages.getHistoryById', async () => {
    const res = await client.messages.getHistoryById({ message_id: channelMessageId });
    expect(res.result).toBe('success');
    expect(res.message_history.map((h: { topic: string; content: string }) => [h.topic, h.content])).toEqual([
      ['zulip-js', 'Hello from **zulip-js** :octopus:'],
      ['zulip-js', 'Hello again from **zulip-js**'],
      ['zulip-js moved', 'Hello again from **zulip-js**'],
    ]);
  });

  test('messages.deleteById (DELETE with the id in the query string too)', async () => {
    const sent = await client.messages.send({ type: 'stream', to: 'Denmark', topic: 'zulip-js', content: 'Short-lived' });
    const deleted = await client.messages.deleteById({ message_id: sent.id });
    expect(deleted).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['message_id'] });
    const again = await client.messages.deleteById({ message_id: sent.id });
    expect(again).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
  });

  test('streams.topics.retrieve (the channel\'s topics, newest first)', async () => {
    const res = await client.streams.topics.retrieve({ stream_id: 4 });
    expect(res.result).toBe('success');
    // The move's notice (Notification Bot, in the new topic) is that topic's newest message.
    expect(res.topics[0]).toEqual({ name: 'zulip-js moved', max_id: expect.any(Number) });
    expect(res.topics[0].max_id).toBeGreaterThan(channelMessageId);
  });

  test('callEndpoint: PATCH /streams/{id} (zulip-js sends PATCH parameters in the query string)', async () => {
    const res = await client.callEndpoint('/streams/4', 'PATCH', { description: 'Edited by zulip-js' });
    expect(res).toEqual({ result: 'success', msg: '' });
    const channel = await client.callEndpoint('/streams/4', 'GET');
    expect(channel.stream).toMatchObject({ name: 'Denmark', description: 'Edited by zulip-js' });
  });

  test('streams.deleteById archives (stream_id also goes in the query string, reported as ignored)', async () => {
    await client.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js scratch' }] });
    const { stream_id } = await client.callEndpoint('/get_stream_id', 'GET', { stream: 'zulip-js scratch' });
    const res = await client.streams.deleteById({ stream_id });
    expect(res).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['stream_id'] });
    const channel = await client.callEndpoint(`/streams/${stream_id}`, 'GET');
    expect(channel.stream.is_archived).toBe(true);
  });

  test('messages.flags.add and messages.flags.remove (messages JSON-encoded by zulip-js)', async () => {
    const starred = await client.messages.flags.add({ messages: [channelMessageId], flag: 'starred' });
    expect(starred).toEqual({ result: 'success', msg: '', messages: [channelMessageId], ignored_because_not_subscribed_channels: [] });
    expect((await client.messages.getById({ message_id: channelMessageId })).message.flags).toContain('starred');
    const read = await client.messages.flags.add({ messages: [channelMessageId], flag: 'read' });
    expect(read.result).toBe('success');
    const unstarred = await client.messages.flags.remove({ messages: [channelMessageId], flag: 'starred' });
    expect(unstarred).toMatchObject({ result: 'success', messages: [channelMessageId] });
    expect((await client.messages.getById({ message_id: channelMessageId })).message.flags).toEqual(['read']);
    const refused = await client.messages.flags.add({ messages: [channelMessageId], flag: 'mentioned' });
    expect(refused).toEqual({ result: 'error', msg: "Flag not editable: 'mentioned'", code: 'BAD_REQUEST' });
  });

  test('messages.render (a bare string is sent as content)', async () => {
    const res = await client.messages.render('**Bold** from zulip-js, @**King Hamlet**');
    expect(res).toEqual({
      result: 'success',
      msg: '',
      rendered: '<p><strong>Bold</strong> from zulip-js, <span class="user-mention" data-user-id="10">@King Hamlet</span></p>',
    });
  });

  test('typing.send to one user, to several, and to a channel topic; Hamlet hears each', async () => {
    const registered = await sim.request({
      method: 'POST',
      path: '/api/v1/register',
      as: 'hamlet@zulip.com',
      body: { event_types: JSON.stringify(['typing']), client_capabilities: JSON.stringify({ notification_settings_null: true, stream_typing_notifications: true }) },
    });
    // zulip-js JSON-encodes every array it posts, a one-element `to` included.
    expect(await client.typing.send({ to: [10], op: 'start' })).toEqual({ result: 'success', msg: '' });
    expect(await client.typing.send({ to: [10, 12], op: 'stop' })).toEqual({ result: 'success', msg: '' });
    // typing.send reads `to.length`, so a channel call still passes a `to`, which the server ignores.
    expect(await client.typing.send({ type: 'channel', stream_id: 4, topic: 'zulip-js', to: [], op: 'start' })).toEqual({ result: 'success', msg: '' });
    expect(await client.typing.send({ to: [], op: 'start' })).toEqual({ result: 'error', msg: "Empty 'to' list", code: 'BAD_REQUEST' });
    const polled = await sim.request({
      method: 'GET',
      path: '/api/v1/events',
      as: 'hamlet@zulip.com',
      query: { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true },
    });
    const iago = { user_id: 11, email: 'user11@zulip.testserver' };
    const hamlet = { user_id: 10, email: 'user10@zulip.testserver' };
    const othello = { user_id: 12, email: 'user12@zulip.testserver' };
    expect(polled.body.events).toEqual([
      { id: 0, type: 'typing', op: 'start', message_type: 'direct', sender: iago, recipients: [hamlet, iago] },
      { id: 1, type: 'typing', op: 'stop', message_type: 'direct', sender: iago, recipients: [hamlet, othello, iago] },
      { id: 2, type: 'typing', op: 'start', message_type: 'stream', sender: iago, stream_id: 4, topic: 'zulip-js' },
    ]);
  });

  test('callEndpoint: mark a topic read, then unread by narrow', async () => {
    const marked = await client.callEndpoint('/mark_topic_as_read', 'POST', { stream_id: 4, topic_name: 'zulip-js moved' });
    expect(marked).toEqual({ result: 'success', msg: '' });
    const unread = await client.callEndpoint('/messages/flags/narrow', 'POST', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'zulip-js moved' }]),
      op: 'remove',
      flag: 'read',
    });
    // The topic holds the message and Notification Bot's notice of the move.
    expect(unread).toMatchObject({ result: 'success', processed_count: 2, updated_count: 2, first_processed_id: channelMessageId, found_oldest: true });
  });

  test('users.create (an administrator with can_create_users), then the new account works', async () => {
    const res = await client.users.create({ email: 'zulipjs-user@zulip.com', password: 'zulip-js-password', full_name: 'Made By zulip-js' });
    expect(res).toEqual({ result: 'success', msg: '', user_id: expect.any(Number) });
    const again = await client.users.create({ email: 'ZULIPJS-USER@zulip.com', password: 'zulip-js-password', full_name: 'Made Twice' });
    expect(again).toEqual({ result: 'error', msg: "Email 'ZULIPJS-USER@zulip.com' already in use", code: 'BAD_REQUEST' });
    const created = await client.callEndpoint(`/users/${res.user_id}`, 'GET');
    expect(created.user).toMatchObject({ full_name: 'Made By zulip-js', role: 400, is_active: true });
    const renamed = await client.callEndpoint(`/users/${res.user_id}`, 'PATCH', { full_name: 'Renamed By zulip-js' });
    expect(renamed).toEqual({ result: 'success', msg: '' });
  });

  test('errors come back as Zulip error envelopes', async () => {
    const res = await client.messages.send({ type: 'stream', to: 'Atlantis', topic: 't', content: 'x' });
    expect(res).toEqual({ result: 'error', msg: "Channel 'Atlantis' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'Atlantis' });
  });
});

// Organization administration: zulip-js's only linkifier method reads the legacy list that
// current servers no longer serve; the rest goes through callEndpoint (PATCH and DELETE send
// their parameters in the query string).
describe('zulip-js: realm administration', () => {
  test('filters.retrieve gets what a current server answers to GET /realm/filters: 405, POST only', async () => {
    expect(await (client as unknown as { filters: { retrieve: Call } }).filters.retrieve()).toEqual({
      result: 'error',
      msg: 'Method Not Allowed',
      allowed_methods: ['POST'],
    });
  });

  test('callEndpoint: add, list, change and remove a linkifier', async () => {
    const added = await client.callEndpoint('/realm/filters', 'POST', { pattern: 'BUG-(?P<id>[0-9]+)', url_template: 'https://bugs.example/{id}' });
    expect(added).toEqual({ result: 'success', msg: '', id: 4 });
    const changed = await client.callEndpoint('/realm/filters/4', 'PATCH', { pattern: 'ISSUE-(?P<id>[0-9]+)', url_template: 'https://bugs.example/{id}' });
    expect(changed).toEqual({ result: 'success', msg: '' });
    const listed = await client.callEndpoint('/realm/linkifiers', 'GET');
    expect(listed.linkifiers.at(-1)).toEqual({ pattern: 'ISSUE-(?P<id>[0-9]+)', url_template: 'https://bugs.example/{id}', id: 4 });
    const sent = await client.messages.send({ type: 'stream', to: 'Denmark', topic: 'zulip-js', content: 'fixes ISSUE-7' });
    const read = await client.messages.getById({ message_id: sent.id });
    expect(read.message.content).toBe('<p>fixes <a href="https://bugs.example/7">ISSUE-7</a></p>');
    expect(await client.callEndpoint('/realm/filters/4', 'DELETE')).toEqual({ result: 'success', msg: '' });
  });

  test('callEndpoint: PATCH /realm (query-string parameters)', async () => {
    const res = await client.callEndpoint('/realm', 'PATCH', { video_chat_provider: 0, enable_read_receipts: false });
    expect(res).toEqual({ result: 'success', msg: '', enable_read_receipts: false, video_chat_provider: 0 });
    const owner = await client.callEndpoint('/realm', 'PATCH', { invite_required: false });
    expect(owner).toEqual({ result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
  });

  test('callEndpoint: custom profile fields (POST as multipart; a PATCH list must be JSON-encoded by the caller)', async () => {
    const created = await client.callEndpoint('/realm/profile_fields', 'POST', { name: 'Team', field_type: 1, hint: 'Which team?' });
    expect(created).toEqual({ result: 'success', msg: '', id: 11 });
    // zulip-js puts PATCH parameters in the query string as they are: an array becomes "11,1,…".
    const ids = [11, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(await client.callEndpoint('/realm/profile_fields', 'PATCH', { order: ids })).toEqual({
      result: 'error',
      msg: 'order is not valid JSON',
      code: 'BAD_REQUEST',
    });
    expect(await client.callEndpoint('/realm/profile_fields', 'PATCH', { order: JSON.stringify(ids) })).toEqual({ result: 'success', msg: '' });
    const listed = await client.callEndpoint('/realm/profile_fields', 'GET');
    expect(listed.custom_fields[0]).toMatchObject({ id: 11, name: 'Team', hint: 'Which team?', order: 0 });
    expect(await client.callEndpoint('/realm/profile_fields/11', 'DELETE')).toEqual({ result: 'success', msg: '' });
  });
});

// zulip-js's long-polling loop: callOnEachEvent(callback, ['message']) (the "callOnEachMessage" of
// Zulip's other clients) registers a queue, then polls it forever, one second apart. It has no
// stop, so the test stops its HTTP requests instead: once halted, the client's fetches never
// settle and the loop simply ends there, holding no timer and no socket.
describe('zulip-js: callOnEachEvent for messages', () => {
  const helper = createRequire(import.meta.url)('zulip-js/lib/helper') as { fetch: (url: string, init?: { headers?: Record<string, string> }) => Promise<unknown> };
  const originalFetch = helper.fetch;
  const halted = new Set<string>();
  let loopQueueId: string | undefined;
  let hamlet: { id: number; delivery_email: string; api_key: string };

  beforeAll(() => {
    helper.fetch = (url, init) => (halted.has(init?.headers?.Authorization ?? '') ? new Promise(() => {}) : originalFetch(url, init));
    hamlet = [...sim.engine.state.users.values()].find((u) => u.delivery_email === 'hamlet@zulip.com')!;
  });

  afterAll(async () => {
    halted.add(`Basic ${Buffer.from(`${hamlet.delivery_email}:${hamlet.api_key}`).toString('base64')}`);
    // Deleting the queue answers the parked poll; the loop's next request is halted.
    if (loopQueueId !== undefined) await sim.request({ method: 'DELETE', path: '/api/v1/events', as: hamlet.id, query: { queue_id: loopQueueId } });
    helper.fetch = originalFetch;
  });

  test('receives a message another user sends, with its flags, as it is sent', async () => {
    const received: Record<string, any>[] = [];
    const hamletClient = await zulipInit({ username: hamlet.delivery_email, apiKey: hamlet.api_key, realm: new URL(server.url).origin });
    const queuesBefore = new Set(sim.engine.queues.byUser.get(hamlet.id) ?? []);
    void hamletClient.callOnEachEvent((event) => received.push(event), ['message']);
    // The loop registered its queue and its first poll is parked, waiting.
    const loopQueue = () => (sim.engine.queues.byUser.get(hamlet.id) ?? []).find((q) => !queuesBefore.has(q));
    await vi.waitFor(() => expect(loopQueue()?.waiter).toBeTruthy(), { timeout: 20_000 });
    loopQueueId = loopQueue()!.id;
    const sent = await client.messages.send({ type: 'private', to: [hamlet.id], content: 'For your **callback**' });
    expect(sent.result).toBe('success');
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 20_000 });
    expect(received[0]).toEqual({
      type: 'message',
      id: 0,
      flags: [],
      // /register's apply_markdown defaults to false: the client gets the Markdown as written.
      message: expect.objectContaining({ id: sent.id, sender_id: 11, sender_email: 'user11@zulip.testserver', content: 'For your **callback**', content_type: 'text/x-markdown', type: 'private' }),
    });
  });
});
