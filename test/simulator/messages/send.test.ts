// POST /messages through the in-process API: success shapes, what recipients see, and every
// error of zerver/views/message_send.py and zerver/actions/message_send.py with its code, message and status.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { TopicsPolicy } from '../../../simulator/engine/state.ts';
import { CORDELIA, error, fetchMessages, get, HAMLET, IAGO, OTHELLO, POLONIUS, post, sim } from './helpers.ts';
import { watchEvents } from '../helpers.ts';

describe('POST /messages success', () => {
  test('channel message by name: id, stored, readable with every Message field', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'greetings', content: 'Hello @**Iago** :smile:' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const one = await get(s, IAGO, `/messages/${res.body.id}`);
    expect(one.status).toBe(200);
    const denmark = s.engine.state.streams.get(s.engine.state.streamsByName.get('denmark')!)!;
    expect(one.body).toEqual({
      result: 'success',
      msg: '',
      raw_content: 'Hello @**Iago** :smile:',
      message: {
        id: res.body.id,
        sender_id: 10,
        content:
          '<p>Hello <span class="user-mention" data-user-id="11">@Iago</span> <span aria-label="smile" class="emoji emoji-263a" role="img" title="smile">:smile:</span></p>',
        recipient_id: denmark.recipient_id,
        timestamp: expect.any(Number),
        client: 'Unspecified',
        subject: 'greetings',
        topic_links: [],
        is_me_message: false,
        reactions: [],
        submessages: [],
        sender_full_name: 'King Hamlet',
        sender_email: 'user10@zulip.testserver',
        sender_realm_str: 'zulip',
        display_recipient: 'Denmark',
        type: 'stream',
        stream_id: denmark.id,
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/6d8cad0fd00256e7b40691d27ddfd466\?/),
        content_type: 'text/html',
        flags: ['mentioned'],
      },
    });
  });

  test.each([
    ['channel id as JSON integer', { type: 'channel', to: '4', topic: 't', content: 'x' }],
    ['channel name as JSON string', { type: 'stream', to: '"Denmark"', topic: 't', content: 'x' }],
    ['one-element JSON list', { type: 'stream', to: '["Denmark"]', topic: 't', content: 'x' }],
    ['case-insensitive name', { type: 'stream', to: 'denmark', topic: 't', content: 'x' }],
    ['subject alias', { type: 'stream', to: 'Denmark', subject: 't', content: 'x' }],
  ])('%s', async (_name, body) => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', body);
    expect(res.status).toBe(200);
    const msg = await get(s, HAMLET, `/messages/${res.body.id}`);
    expect(msg.body.message).toMatchObject({ display_recipient: 'Denmark', subject: 't', type: 'stream' });
  });

  test('direct message by ids: display_recipient lists everyone, sender included, by id', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'direct', to: JSON.stringify([12, 8]), content: 'group hello' });
    expect(res.status).toBe(200);
    const msg = await get(s, CORDELIA, `/messages/${res.body.id}`);
    expect(msg.body.message).toMatchObject({
      type: 'private',
      subject: '',
      display_recipient: [
        { id: 8, email: 'user8@zulip.testserver', full_name: "Cordelia, Lear's daughter", is_mirror_dummy: false },
        { id: 10, email: 'user10@zulip.testserver', full_name: 'King Hamlet', is_mirror_dummy: false },
        { id: 12, email: 'user12@zulip.testserver', full_name: 'Othello, the Moor of Venice', is_mirror_dummy: false },
      ],
      flags: [],
    });
    expect(msg.body.message.stream_id).toBeUndefined();
  });

  test.each([
    ['JSON list of API emails', JSON.stringify(['user12@zulip.testserver'])],
    ['comma-separated API emails', 'user12@zulip.testserver'],
    ['duplicates removed', JSON.stringify([12, 12])],
  ])('direct message with %s', async (_name, to) => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'private', to, content: 'hi' });
    expect(res.status).toBe(200);
    const msg = await get(s, OTHELLO, `/messages/${res.body.id}`);
    expect(msg.body.message.display_recipient.map((u: { id: number }) => u.id)).toEqual([10, 12]);
  });

  test('1:1 DMs use the other user’s recipient id; both directions share it', async () => {
    const s = sim();
    const a = await post(s, HAMLET, '/messages', { type: 'direct', to: '[12]', content: 'a' });
    const b = await post(s, OTHELLO, '/messages', { type: 'direct', to: '[10]', content: 'b' });
    const ma = (await get(s, HAMLET, `/messages/${a.body.id}`)).body.message;
    const mb = (await get(s, HAMLET, `/messages/${b.body.id}`)).body.message;
    expect(ma.recipient_id).toBe(mb.recipient_id);
    expect(ma.recipient_id).toBe(s.engine.state.users.get(12)!.recipient_id);
  });

  test('a 1:1 DM lists its two participants in email order (user10@… sorts before user8@…)', async () => {
    const s = sim();
    const res = await post(s, CORDELIA, '/messages', { type: 'direct', to: '[10]', content: 'hi' });
    const msg = await get(s, HAMLET, `/messages/${res.body.id}`);
    expect(msg.body.message.display_recipient.map((u: { id: number }) => u.id)).toEqual([10, 8]);
  });

  test('self DM', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'direct', to: '[10]', content: 'note' });
    const msg = await get(s, HAMLET, `/messages/${res.body.id}`);
    expect(msg.body.message.display_recipient).toHaveLength(1);
  });

  test('content is trimmed at the end and leading newlines dropped; /me sets is_me_message', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: '\n\n/me waves   \n' });
    const msg = await get(s, HAMLET, `/messages/${res.body.id}`);
    expect(msg.body.raw_content).toBe('/me waves');
    expect(msg.body.message.is_me_message).toBe(true);
  });

  test('long content is truncated to 10000 characters with the marker', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'x'.repeat(10050) });
    const raw = (await get(s, HAMLET, `/messages/${res.body.id}`)).body.raw_content as string;
    expect(raw).toHaveLength(10000);
    expect(raw.endsWith('\n[message truncated]')).toBe(true);
  });

  test('long topic is truncated to 60 characters ending in ...', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'y'.repeat(70), content: 'x' });
    const subject = (await get(s, HAMLET, `/messages/${res.body.id}`)).body.message.subject as string;
    expect(subject).toBe('y'.repeat(57) + '...');
  });

  test('empty topic is allowed and shown as "general chat" unless allow_empty_topic_name', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: '', content: 'x' });
    expect(res.status).toBe(200);
    expect((await get(s, HAMLET, `/messages/${res.body.id}`)).body.message.subject).toBe('general chat');
    const raw = await get(s, HAMLET, `/messages/${res.body.id}`, { allow_empty_topic_name: 'true' });
    expect(raw.body.message.subject).toBe('');
  });

  test('client comes from the client parameter, else the User-Agent', async () => {
    const s = sim();
    const a = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'x', client: 'website' });
    const b = await s.request({
      method: 'POST',
      path: '/api/v1/messages',
      as: HAMLET,
      headers: { 'user-agent': 'ZulipPython/0.9.0 (Linux)' },
      body: { type: 'stream', to: 'Denmark', topic: 't', content: 'y' },
    });
    const ma = (await get(s, HAMLET, `/messages/${a.body.id}`)).body.message;
    const mb = (await get(s, HAMLET, `/messages/${b.body.id}`)).body.message;
    expect([ma.client, ma.flags]).toEqual(['website', ['read']]);
    expect([mb.client, mb.flags]).toEqual(['ZulipPython', []]);
  });

  test('mention flags: direct, wildcard (with the deprecated wildcard_mentioned), none for silent', async () => {
    const s = sim();
    const direct = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Verona', topic: 'f', content: '@**Iago** and @_**Othello, the Moor of Venice**' });
    const wildcard = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Verona', topic: 'f', content: '@**all** hello' });
    expect((await get(s, IAGO, `/messages/${direct.body.id}`)).body.message.flags).toEqual(['mentioned']);
    expect((await get(s, OTHELLO, `/messages/${direct.body.id}`)).body.message.flags).toEqual([]);
    expect((await get(s, CORDELIA, `/messages/${wildcard.body.id}`)).body.message.flags).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
  });

  test('@**topic** flags the topic’s participants (senders and reactors) only', async () => {
    const s = sim();
    const first = await post(s, OTHELLO, '/messages', { type: 'stream', to: 'Verona', topic: 'plans', content: 'first' });
    await post(s, CORDELIA, `/messages/${first.body.id}/reactions`, { emoji_name: 'smile' });
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Verona', topic: 'plans', content: '@**topic** ping' });
    const flags = async (as: string) => (await get(s, as, `/messages/${res.body.id}`)).body.message.flags;
    expect(await flags(OTHELLO)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await flags(CORDELIA)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await flags(IAGO)).toEqual([]);
  });

  test('an unsubscribed sender gets no UserMessage row (and no event) for a public channel', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await post(s, CORDELIA, '/messages', { type: 'stream', to: 'Denmark', topic: 'visiting', content: 'hello', client: 'website' });
    expect(res.status).toBe(200);
    expect((await get(s, CORDELIA, `/messages/${res.body.id}`)).body.message.flags).toEqual(['read', 'historical']);
    const users = watch.take().flatMap((e) => e.users);
    expect(users).not.toContain(8);
    expect(users).toContain(10);
  });

  test('message events go to every recipient with their flags', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const queueId = watch.queueOf(10).id;
    await post(s, HAMLET, '/messages', { type: 'direct', to: '[11]', content: 'hi @**Iago**', queue_id: queueId, local_id: '1.5' });
    const events = watch.take();
    expect(events.map((e) => ({ users: e.users, flags: e.event.flags, local: e.event.local_message_id }))).toEqual([
      { users: [10], flags: [], local: '1.5' },
      { users: [11], flags: ['mentioned'], local: undefined },
    ]);
    expect(events[1]!.event).toMatchObject({ type: 'message', message: { content: expect.stringContaining('user-mention') } });
    expect(events[1]!.event.message).not.toHaveProperty('flags');
  });
});

describe('POST /messages errors', () => {
  const rows: [string, string, Record<string, unknown>, number, Record<string, unknown>][] = [
    ['bad type', HAMLET, { type: 'chat', to: 'Denmark', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid type')],
    // send_message_backend reads its parameters alphabetically by Python name: content before type.
    ['bad type and no content', HAMLET, { type: 'chat', to: 'Denmark' }, 400, error('REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' })],
    ['bad read_by_sender before a bad type', HAMLET, { type: 'chat', to: 'Denmark', content: 'x', read_by_sender: 'yes' }, 400, error('BAD_REQUEST', 'read_by_sender is not valid JSON')],
    ['bad time after a bad type', HAMLET, { type: 'chat', to: 'Denmark', content: 'x', time: 'x' }, 400, error('BAD_REQUEST', 'Invalid type')],
    ['time not a float', HAMLET, { type: 'stream', to: 'Denmark', topic: 't', content: 'x', time: '"x"' }, 400, error('BAD_REQUEST', 'time is not a float')],
    // The view extracts `to`, then refuses forging and foreign senders, then legacy_build checks
    // channel and topic, then normalize_body the content, then the channel is looked up.
    ['forged by a user who may not forge', HAMLET, { type: 'stream', to: 'Denmark', topic: 't', content: 'x', forged: 'true' }, 400, error('BAD_REQUEST', 'User not authorized for this query')],
    ['forged after a bad channel indicator', HAMLET, { type: 'stream', to: '[]', topic: 't', content: 'x', forged: 'yes' }, 400, error('BAD_REQUEST', 'Expected exactly one channel')],
    ['sender from a non-mirroring client', HAMLET, { type: 'direct', to: '[11]', content: 'x', sender: 'iago@zulip.com' }, 400, error('BAD_REQUEST', 'Invalid mirrored message')],
    ['widget_content that is not JSON', HAMLET, { type: 'stream', to: 'Denmark', topic: 't', content: 'x', widget_content: '{' }, 400, error('BAD_REQUEST', 'Widgets: API programmer sent invalid JSON content')],
    // check_string_is_printable (categories Cc, Cs, Cn), 1-based, on the stripped text.
    ['control characters in the topic', HAMLET, { type: 'stream', to: 'Verona', topic: 'Test\n\rTopic', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid character in topic, at position 5!')],
    ['unassigned character in the topic', HAMLET, { type: 'stream', to: 'Verona', topic: ' Test\ufffeTopic', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid character in topic, at position 5!')],
    ['null byte in the topic, before empty content', HAMLET, { type: 'stream', to: 'Verona', topic: 'a\u0000', content: ' ' }, 400, error('BAD_REQUEST', 'Invalid character in topic, at position 2!')],
    ['control character in the channel name', HAMLET, { type: 'stream', to: 'Ver\tona', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid character in channel name, at position 4.')],
    ['no topic before empty content', HAMLET, { type: 'stream', to: 'Denmark', content: ' ' }, 400, error('BAD_REQUEST', 'Missing topic')],
    ['no topic before an unknown channel', HAMLET, { type: 'stream', to: 'Atlantis', content: 'x' }, 400, error('BAD_REQUEST', 'Missing topic')],
    ['empty content before an unknown channel', HAMLET, { type: 'stream', to: 'Atlantis', topic: 't', content: ' ' }, 400, error('BAD_REQUEST', 'Message must not be empty')],
    ['an empty `to` names the channel ""', HAMLET, { type: 'stream', to: '', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', "Channel name can't be empty.")],
    ['no recipients before empty content', HAMLET, { type: 'direct', to: '[]', content: ' ' }, 400, error('BAD_REQUEST', 'Message must have recipients')],
    ['unknown recipient before empty content', HAMLET, { type: 'direct', to: '[999]', content: ' ' }, 400, error('BAD_REQUEST', 'Invalid user ID 999')],
    // extract_private_recipients: the first element decides; a later one of another kind is a mix.
    ['DM ids then null', HAMLET, { type: 'direct', to: '[12,null]', content: 'x' }, 400, error('BAD_REQUEST', 'Recipient lists may contain emails or user IDs, but not both.')],
    ['DM emails then a float', HAMLET, { type: 'direct', to: '["iago@zulip.com",1.5]', content: 'x' }, 400, error('BAD_REQUEST', 'Recipient lists may contain emails or user IDs, but not both.')],
    ['DM starting with null', HAMLET, { type: 'direct', to: '[null,12]', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid data type for recipients')],
    ['missing type', HAMLET, { to: 'Denmark', topic: 't', content: 'x' }, 400, error('REQUEST_VARIABLE_MISSING', "Missing 'type' argument", { var_name: 'type' })],
    ['missing content', HAMLET, { type: 'stream', to: 'Denmark', topic: 't' }, 400, error('REQUEST_VARIABLE_MISSING', "Missing 'content' argument", { var_name: 'content' })],
    ['topic and subject', HAMLET, { type: 'stream', to: 'Denmark', topic: 't', subject: 's', content: 'x' }, 400, error('REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", { var_name1: 'topic', var_name2: 'subject' })],
    ['empty content', HAMLET, { type: 'stream', to: 'Denmark', topic: 't', content: '  \n ' }, 400, error('BAD_REQUEST', 'Message must not be empty')],
    ['null byte', HAMLET, { type: 'stream', to: 'Denmark', topic: 't', content: 'a\u0000b' }, 400, error('BAD_REQUEST', 'Message must not contain null bytes')],
    ['no channel', HAMLET, { type: 'stream', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', 'Missing channel')],
    ['no topic', HAMLET, { type: 'stream', to: 'Denmark', content: 'x' }, 400, error('BAD_REQUEST', 'Missing topic')],
    ['unknown channel name', HAMLET, { type: 'stream', to: 'Atlantis', topic: 't', content: 'x' }, 400, error('STREAM_DOES_NOT_EXIST', "Channel 'Atlantis' does not exist", { stream: 'Atlantis' })],
    ['unknown channel name is HTML-escaped', HAMLET, { type: 'stream', to: '<b>', topic: 't', content: 'x' }, 400, error('STREAM_DOES_NOT_EXIST', "Channel '&lt;b&gt;' does not exist", { stream: '&lt;b&gt;' })],
    ['unknown channel id', HAMLET, { type: 'stream', to: '999', topic: 't', content: 'x' }, 400, error('STREAM_DOES_NOT_EXIST', "Channel with ID '999' does not exist", { stream_id: 999 })],
    ['JSON list of two channels', HAMLET, { type: 'stream', to: '["Denmark","Verona"]', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', 'Expected exactly one channel')],
    ['JSON object as channel', HAMLET, { type: 'stream', to: '{"a":1}', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid data type for channel')],
    ['private channel, not subscribed', OTHELLO, { type: 'stream', to: 'core team', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', "Not authorized to send to channel 'core team'")],
    ['guest to unsubscribed public channel', POLONIUS, { type: 'stream', to: 'Denmark', topic: 't', content: 'x' }, 400, error('BAD_REQUEST', "Not authorized to send to channel 'Denmark'")],
    ['DM without recipients', HAMLET, { type: 'direct', to: '[]', content: 'x' }, 400, error('BAD_REQUEST', 'Message must have recipients')],
    ['DM without to', HAMLET, { type: 'direct', content: 'x' }, 400, error('BAD_REQUEST', 'Message must have recipients')],
    ['DM mixing ids and emails', HAMLET, { type: 'direct', to: '[12,"iago@zulip.com"]', content: 'x' }, 400, error('BAD_REQUEST', 'Recipient lists may contain emails or user IDs, but not both.')],
    ['DM to a JSON object', HAMLET, { type: 'direct', to: '{"id":12}', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid data type for recipients')],
    ['DM to an unknown id', HAMLET, { type: 'direct', to: '[999]', content: 'x' }, 400, error('BAD_REQUEST', 'Invalid user ID 999')],
    ['DM to an unknown email', HAMLET, { type: 'direct', to: '["nobody@zulip.com"]', content: 'x' }, 400, error('BAD_REQUEST', "Invalid email 'nobody@zulip.com'")],
    // get_user_profiles looks recipients up by API email: a hidden real address names nobody.
    ['DM to a hidden real address', HAMLET, { type: 'direct', to: '["iago@zulip.com"]', content: 'x' }, 400, error('BAD_REQUEST', "Invalid email 'iago@zulip.com'")],
    ['unauthenticated', null as unknown as string, { type: 'stream', to: 'Denmark', topic: 't', content: 'x' }, 401, error('UNAUTHORIZED', 'Not logged in: API authentication or user session required')],
  ];

  test.each(rows)('%s', async (_name, as, body, status, expected) => {
    const s = sim();
    const before = s.engine.state.messages.messages.length;
    const res = await post(s, as, '/messages', body);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(expected);
    expect(s.engine.state.messages.messages.length).toBe(before);
  });

  test('DM to a deactivated user', async () => {
    const s = sim();
    s.engine.state.users.get(12)!.is_active = false;
    const res = await post(s, HAMLET, '/messages', { type: 'direct', to: '[12]', content: 'x' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', "'user12@zulip.testserver' is no longer using Zulip.")]);
  });

  // topics_policy (check_message, after the sender's access to the channel). The texts follow
  // Zulip's MessagesNotAllowedInEmptyTopicError / TopicsNotAllowedError with the realm's display
  // name for the empty topic ("general chat").
  test.each([
    ['disable_empty_topic refuses the empty topic', 'disable_empty_topic', '', 'Sending messages to the general chat is not allowed in this channel.'],
    ['disable_empty_topic refuses "(no topic)"', 'disable_empty_topic', '(no topic)', 'Sending messages to the general chat is not allowed in this channel.'],
    ['empty_topic_only refuses a named topic', 'empty_topic_only', 'named', 'Only the general chat topic is allowed in this channel.'],
  ])('%s', async (_name, policy, topic, msg) => {
    const s = sim();
    s.engine.state.streams.get(4)!.topics_policy = policy as TopicsPolicy;
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic, content: 'x' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', msg)]);
  });

  test.each([
    ['empty_topic_only accepts the empty topic', 'empty_topic_only', ''],
    ['empty_topic_only accepts the display name', 'empty_topic_only', 'general chat'],
    ['disable_empty_topic accepts a named topic', 'disable_empty_topic', 'named'],
  ])('%s', async (_name, policy, topic) => {
    const s = sim();
    s.engine.state.streams.get(4)!.topics_policy = policy as TopicsPolicy;
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic, content: 'x' });
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '', id: expect.any(Number) }]);
  });

  test('access to the channel is checked before its topics policy', async () => {
    const s = sim();
    const core = [...s.engine.state.streams.values()].find((c) => c.name === 'core team')!;
    core.topics_policy = 'disable_empty_topic';
    const res = await post(s, OTHELLO, '/messages', { type: 'stream', to: 'core team', topic: '', content: 'x' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', "Not authorized to send to channel 'core team'")]);
  });

  // populate_db --test-suite sets every user's automatically_follow_topics_policy and
  // automatically_unmute_topics_in_muted_streams_policy to NEVER, so a send never changes a
  // topic's visibility policy and Zulip leaves automatic_new_visibility_policy out.
  test('starting a new topic: the response has no automatic_new_visibility_policy', async () => {
    const res = await post(sim(), HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'a topic nobody used', content: 'x' });
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
  });

  test('posting restricted by can_send_message_group', async () => {
    const s = sim();
    const stream = s.engine.state.streams.get(4)!;
    stream.groups.can_send_message_group = s.engine.state.realm.system_groups['role:administrators']!;
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'x' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', 'You do not have permission to post in this channel.')]);
    expect((await post(s, IAGO, '/messages', { type: 'stream', to: 'Denmark', topic: 't', content: 'x' })).status).toBe(200);
  });

  test('wildcard mentions in channels with more than 15 subscribers need can_mention_many_users_group', async () => {
    const s = sim();
    const verona = s.engine.state.streamsByName.get('verona')!;
    const subs = s.engine.state.subscriptions.get(verona)!;
    const template = subs.get(10)!;
    for (const u of s.engine.state.users.values()) if (!subs.has(u.id)) subs.set(u.id, { ...template });
    const before = s.engine.state.messages.messages.length;
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Verona', topic: 't', content: '@**all** hello' });
    expect([res.status, res.body]).toEqual([
      400,
      error('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use channel wildcard mentions in this channel.'),
    ]);
    expect(s.engine.state.messages.messages.length).toBe(before);
    expect((await post(s, HAMLET, '/messages', { type: 'stream', to: 'Verona', topic: 't', content: '@_**all** silent is fine' })).status).toBe(200);
    expect((await post(s, IAGO, '/messages', { type: 'stream', to: 'Verona', topic: 't', content: '@**all** from an admin' })).status).toBe(200);
  });

  test('a sent message is found by a narrowed fetch', async () => {
    const s = sim();
    const res = await post(s, HAMLET, '/messages', { type: 'stream', to: 'Denmark', topic: 'unique-topic', content: 'x' });
    const fetched = await fetchMessages(s, IAGO, { anchor: 'newest', num_before: 10, narrow: [{ operator: 'topic', operand: 'unique-topic' }] });
    expect(fetched.body.messages.map((m: { id: number }) => m.id)).toEqual([res.body.id]);
  });
});

describe('POST /messages and reactions never fail with a 5xx', () => {
  const s = sim();
  const value = fc.oneof(
    fc.constantFrom('stream', 'channel', 'direct', 'private', 'Denmark', '4', '[4]', '[10,11]', '["iago@zulip.com"]', '', ' ', 'null', '{}', '[]', '[[1]]', '1.5', '-3'),
    fc.string({ maxLength: 20 }),
    fc.json({ maxDepth: 2 }),
  );
  const body = fc.dictionary(fc.constantFrom('type', 'to', 'topic', 'subject', 'content', 'read_by_sender', 'queue_id', 'local_id', 'extra'), value);

  test('random send bodies', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await post(s, HAMLET, '/messages', b);
        expect([200, 400]).toContain(res.status);
        expect(res.body.result).toBe(res.status === 200 ? 'success' : 'error');
      }),
      { numRuns: 200, seed: 3 },
    );
  });

  const reactionBody = fc.dictionary(fc.constantFrom('emoji_name', 'emoji_code', 'reaction_type'), value);
  test('random reaction bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'DELETE'), fc.integer({ min: 0, max: 70 }), reactionBody, async (method, id, b) => {
        const res = await s.request({ method, path: `/api/v1/messages/${id}/reactions`, as: IAGO, body: b });
        expect([200, 400]).toContain(res.status);
      }),
      { numRuns: 200, seed: 4 },
    );
  });
});
