// POST /typing (zerver/views/typing.py): who hears that someone is composing a direct or channel
// message, with the sender's and each recipient's typing settings, and every refusal in the view's
// order. No state is kept: each request is judged only by its events.
import { describe, expect, it } from 'vitest';
import { MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS } from '../../simulator/engine/messages/typing.ts';
import { devFixture, ID, sim, watchEvents } from './helpers.ts';

type Sim = ReturnType<typeof sim>;

const { aaron, zoe, cordelia, desdemona, hamlet, iago, othello, polonius, prospero, shiva, defaultBot } = ID;
const DENMARK = 4;
const CORE_TEAM = 8;
const NOTIFICATION_BOT = 4;

const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code, ...extra });

function typing(s: Sim, as: number, body: Record<string, unknown>) {
  return s.request({ method: 'POST', path: '/api/v1/typing', as, body });
}

function setSetting(s: Sim, as: number, name: string, value: boolean) {
  return s.request({ method: 'PATCH', path: '/api/v1/settings', as, body: { [name]: value } });
}

function person(s: Sim, id: number) {
  return { user_id: id, email: s.engine.state.users.get(id)!.email };
}

/** Queues that take channel typing (the capability) and know the empty topic. */
const CHANNEL_TYPING = { stream_typing_notifications: true };

describe('POST /typing to a direct conversation', () => {
  it.each(['start', 'stop'])('op %s: the listed users and the sender, who is appended to the event', async (op) => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await typing(s, hamlet, { op, to: JSON.stringify([othello]) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(watch.take()).toEqual([
      {
        event: { type: 'typing', op, message_type: 'direct', sender: person(s, hamlet), recipients: [person(s, othello), person(s, hamlet)] },
        users: [hamlet, othello],
      },
    ]);
  });

  it('keeps the order sent, the sender where listed, and a group of several', async () => {
    const s = sim();
    const watch = watchEvents(s);
    await typing(s, hamlet, { op: 'start', to: JSON.stringify([iago, hamlet, othello]) });
    expect(watch.take()).toEqual([
      {
        event: expect.objectContaining({ recipients: [person(s, iago), person(s, hamlet), person(s, othello)] }),
        users: [hamlet, iago, othello],
      },
    ]);
  });

  it('typing to oneself: only the sender, named once', async () => {
    const s = sim();
    const watch = watchEvents(s);
    await typing(s, hamlet, { op: 'start', to: JSON.stringify([hamlet]) });
    expect(watch.take()).toEqual([{ event: expect.objectContaining({ recipients: [person(s, hamlet)] }), users: [hamlet] }]);
  });

  it("a recipient who turned receives_typing_notifications off is named but not told; the sender's own setting counts too", async () => {
    const s = sim();
    expect((await setSetting(s, othello, 'receives_typing_notifications', false)).status).toBe(200);
    expect((await setSetting(s, hamlet, 'receives_typing_notifications', false)).status).toBe(200);
    const watch = watchEvents(s);
    await typing(s, hamlet, { op: 'start', to: JSON.stringify([othello, iago]) });
    expect(watch.take()).toEqual([
      { event: expect.objectContaining({ recipients: [person(s, othello), person(s, iago), person(s, hamlet)] }), users: [iago] },
    ]);
  });

  it('a deactivated user and a system bot are valid recipients; only active ones are told', async () => {
    const s = sim();
    expect((await s.request({ method: 'DELETE', path: `/api/v1/users/${prospero}`, as: iago })).status).toBe(200);
    const watch = watchEvents(s);
    const res = await typing(s, hamlet, { op: 'start', to: JSON.stringify([prospero, NOTIFICATION_BOT]) });
    expect(res.status).toBe(200);
    const [delivered] = watch.take();
    expect(delivered!.event.recipients).toEqual([person(s, prospero), person(s, NOTIFICATION_BOT), person(s, hamlet)]);
    // The notification bot is active but polls no queue of this realm.
    expect(delivered!.users).toEqual([hamlet]);
  });

  it('bots may type too', async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await typing(s, defaultBot, { op: 'start', to: JSON.stringify([hamlet]) })).status).toBe(200);
    expect(watch.take()[0]!.users).toEqual([hamlet, defaultBot]);
  });

  it('one unknown ID refuses the whole request, and nobody hears anything', async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await typing(s, hamlet, { op: 'start', to: JSON.stringify([othello, 99999]) })).body).toEqual(error('Invalid user ID 99999'));
    expect(watch.take()).toEqual([]);
  });

  it('a sender who turned send_private_typing_notifications off is refused', async () => {
    const s = sim();
    await setSetting(s, hamlet, 'send_private_typing_notifications', false);
    expect((await typing(s, hamlet, { op: 'start', to: JSON.stringify([othello]) })).body).toEqual(
      error('User has disabled typing notifications for direct messages'),
    );
    // Only direct typing: channel typing has its own setting.
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 't' })).status).toBe(200);
  });
});

describe('POST /typing to a channel topic', () => {
  it.each([
    ['stream', 'start'],
    ['channel', 'stop'],
  ])('type %s, op %s: the subscribers who take channel typing', async (type, op) => {
    const s = sim();
    const watch = watchEvents(s, CHANNEL_TYPING);
    const res = await typing(s, hamlet, { op, type, stream_id: DENMARK, topic: 'plans' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(watch.take()).toEqual([
      {
        event: { type: 'typing', op, message_type: 'stream', sender: person(s, hamlet), stream_id: DENMARK, topic: 'plans' },
        users: [zoe, desdemona, hamlet, iago, othello, prospero, shiva],
      },
    ]);
  });

  it('queues without the stream_typing_notifications capability never get channel typing', async () => {
    const s = sim();
    const watch = watchEvents(s);
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'plans' })).status).toBe(200);
    expect(watch.take()).toEqual([]);
  });

  it('a sender who is not subscribed (an administrator in a public channel) is not told', async () => {
    const s = sim();
    const watch = watchEvents(s, CHANNEL_TYPING);
    expect((await typing(s, cordelia, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'plans' })).status).toBe(200);
    expect(watch.take()[0]!.users).not.toContain(cordelia);
  });

  it('subscribers with receives_typing_notifications off are left out', async () => {
    const s = sim();
    await setSetting(s, othello, 'receives_typing_notifications', false);
    const watch = watchEvents(s, CHANNEL_TYPING);
    await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'plans' });
    expect(watch.take()[0]!.users).toEqual([zoe, desdemona, hamlet, iago, prospero, shiva]);
  });

  it('the topic is stripped, `subject` names it too, and the empty topic is sent as ""', async () => {
    const s = sim();
    const topics: unknown[] = [];
    for (const body of [{ topic: '  plans  ' }, { subject: 'lunch' }, { topic: 'general chat' }, { topic: '(no topic)' }, { topic: '' }]) {
      const watch = watchEvents(s, { ...CHANNEL_TYPING, empty_topic_name: true });
      expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, ...body })).status).toBe(200);
      topics.push(watch.of(hamlet)[0]?.topic);
    }
    expect(topics).toEqual(['plans', 'lunch', '', '', '']);
  });

  it('clients that do not know the empty topic see its display name', async () => {
    const s = sim();
    const watch = watchEvents(s, { ...CHANNEL_TYPING, empty_topic_name: false });
    await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: '' });
    expect(watch.of(othello)).toEqual([expect.objectContaining({ topic: 'general chat' })]);
  });

  it(`no event at all in a channel of more than ${MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS} active subscribers`, async () => {
    const fixture = devFixture();
    const extra = Array.from({ length: MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS - 7 }, (_, i) => `reader${i}@zulip.com`);
    fixture.users.push(...extra.map((email, i) => ({ id: 100 + i, email, full_name: `Reader ${i}`, role: 'member' as const })));
    const denmark = fixture.streams.find((c) => c.name === 'Denmark')!;
    denmark.subscribers = [...(denmark.subscribers ?? []), ...extra];
    const s = sim({ fixture });
    // 7 + 93 = exactly the limit: still told.
    let watch = watchEvents(s, CHANNEL_TYPING);
    await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'plans' });
    expect(watch.take()[0]!.users).toHaveLength(MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS);
    // One more subscriber: nobody is, and the request still succeeds.
    expect((await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: aaron, body: { subscriptions: JSON.stringify([{ name: 'Denmark' }]) } })).status).toBe(200);
    watch = watchEvents(s, CHANNEL_TYPING);
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'plans' })).status).toBe(200);
    expect(watch.take()).toEqual([]);
    // A deactivated subscriber does not count.
    expect((await s.request({ method: 'DELETE', path: `/api/v1/users/${aaron}`, as: iago })).status).toBe(200);
    watch = watchEvents(s, CHANNEL_TYPING);
    await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'plans' });
    expect(watch.take()[0]!.users).toHaveLength(MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS);
  });

  it('a sender who turned send_stream_typing_notifications off is refused', async () => {
    const s = sim();
    await setSetting(s, hamlet, 'send_stream_typing_notifications', false);
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 't' })).body).toEqual(
      error('User has disabled typing notifications for channel messages'),
    );
    expect((await typing(s, hamlet, { op: 'start', to: JSON.stringify([othello]) })).status).toBe(200);
  });

  it.each([
    ['an unknown channel', hamlet, 999, 'Invalid channel ID'],
    ['a private channel one is not in', othello, CORE_TEAM, 'Invalid channel ID'],
    ['a public channel, for a guest not in it', polonius, DENMARK, 'Invalid channel ID'],
  ])('%s: %s', async (_name, as, streamId, msg) => {
    const s = sim();
    const watch = watchEvents(s, CHANNEL_TYPING);
    expect((await typing(s, as, { op: 'start', type: 'channel', stream_id: streamId, topic: 't' })).body).toEqual(error(msg));
    expect(watch.take()).toEqual([]);
  });

  it('an archived channel is an invalid channel', async () => {
    const s = sim();
    expect((await s.request({ method: 'DELETE', path: `/api/v1/streams/${DENMARK}`, as: iago })).status).toBe(200);
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 't' })).body).toEqual(error('Invalid channel ID'));
  });

  it('who may not post in the channel may not say they are typing there', async () => {
    const s = sim();
    const admins = [...s.engine.state.userGroups.values()].find((g) => g.name === 'role:administrators')!.id;
    const res = await s.request({
      method: 'PATCH',
      path: `/api/v1/streams/${DENMARK}`,
      as: iago,
      body: { can_send_message_group: JSON.stringify({ new: admins }) },
    });
    expect(res.status).toBe(200);
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 't' })).body).toEqual(
      error('You do not have permission to post in this channel.'),
    );
    expect((await typing(s, iago, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 't' })).status).toBe(200);
  });
});

describe('POST /typing refusals, in the order Zulip checks them', () => {
  it.each([
    ['no op', {}, error("Missing 'op' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'op' })],
    ['an unknown op', { op: 'pause', to: '[12]' }, error('Invalid op')],
    ['`to` checked before op', { op: 'pause', to: 'x' }, error('to is not valid JSON')],
    ['the removed type "private"', { op: 'start', type: 'private', to: '[12]' }, error('Invalid type')],
    ['no `to`', { op: 'start' }, error("Missing 'to' argument")],
    ['`to` null', { op: 'start', to: 'null' }, error("Missing 'to' argument")],
    ['an empty `to`', { op: 'start', to: '[]' }, error("Empty 'to' list")],
    ['`to` not a list', { op: 'start', to: '12' }, error('to is not a list')],
    ['`to` with a non-integer', { op: 'start', to: '[12, "x"]' }, error('to[1] is not an integer')],
    ['`to` with emails', { op: 'start', to: '["othello@zulip.com"]' }, error('to[0] is not an integer')],
    ['a channel without stream_id', { op: 'start', type: 'channel', topic: 't' }, error("Missing 'stream_id' argument")],
    ['stream_id null', { op: 'start', type: 'stream', stream_id: 'null', topic: 't' }, error("Missing 'stream_id' argument")],
    ['stream_id not an integer', { op: 'start', type: 'stream', stream_id: '"Denmark"', topic: 't' }, error('stream_id is not an integer')],
    ['a channel without topic', { op: 'start', type: 'channel', stream_id: DENMARK }, error('Missing topic')],
    ['stream_id checked before topic', { op: 'start', type: 'channel' }, error("Missing 'stream_id' argument")],
    ['both topic and subject', { op: 'start', type: 'channel', stream_id: DENMARK, topic: 'a', subject: 'b' }, error("Can't decide between 'topic' and 'subject' arguments", 'REQUEST_CONFUSING_VAR', { var_name1: 'topic', var_name2: 'subject' })],
  ])('%s', async (_name, body, expected) => {
    const s = sim();
    const watch = watchEvents(s, CHANNEL_TYPING);
    const res = await typing(s, hamlet, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
    expect(watch.take()).toEqual([]);
  });

  it('a channel request ignores `to`, and a direct one ignores stream_id and topic', async () => {
    const s = sim();
    const watch = watchEvents(s, CHANNEL_TYPING);
    expect((await typing(s, hamlet, { op: 'start', type: 'channel', stream_id: DENMARK, topic: 't', to: '[99999]' })).body).toEqual({ result: 'success', msg: '' });
    expect((await typing(s, hamlet, { op: 'start', to: `[${aaron}]`, stream_id: 99999, topic: 't' })).body).toEqual({ result: 'success', msg: '' });
    expect(watch.take().map((d) => d.event.message_type)).toEqual(['stream', 'direct']);
  });
});
