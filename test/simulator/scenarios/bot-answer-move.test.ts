// Issue 12's end-to-end scenario through zulip-js (the npm package, unchanged) over real HTTP:
// Hamlet asks a bot in Denmark, the bot answers and edits its answer, Hamlet marks it read and
// reacts, Iago moves the topic to Verona. After each step every participant's view agrees: the
// messages they fetch, the unread counts a fresh /register gives them, and the events their own
// queues received.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSimulator, fixedClock, type Simulator } from '../../../simulator/index.ts';

type Call = (params?: Record<string, unknown>) => Promise<any>;
interface ZulipClient {
  queues: { register: Call; deregister: Call };
  events: { retrieve: Call };
  users: { me: { subscriptions: { add: Call } } };
  messages: { send: Call; retrieve: Call; update: Call; flags: { add: Call } };
  reactions: { add: Call };
}
const zulipInit = createRequire(import.meta.url)('zulip-js') as (config: Record<string, string>) => Promise<ZulipClient>;

const NOW = 1_700_100_000;
const DENMARK = 4;
const VERONA = 3;
const EVENT_TYPES = ['message', 'update_message', 'update_message_flags', 'reaction', 'delete_message'];

interface Participant {
  name: string;
  userId: number;
  client: ZulipClient;
  queueId: string;
  lastEventId: number;
}

let sim: Simulator;
let server: { url: string; close(): Promise<void> };
let bot: Participant;
let hamlet: Participant;
let iago: Participant;
let everyone: Participant[];

async function join(email: string, name: string): Promise<Participant> {
  const user = [...sim.engine.state.users.values()].find((u) => u.delivery_email === email)!;
  const client = await zulipInit({ username: user.delivery_email, apiKey: user.api_key, realm: new URL(server.url).origin });
  return { name, userId: user.id, client, queueId: '', lastEventId: -1 };
}

async function register(p: Participant): Promise<void> {
  const res = await p.client.queues.register({ event_types: EVENT_TYPES, apply_markdown: 'true' });
  expect(res.result).toBe('success');
  p.queueId = res.queue_id;
  p.lastEventId = res.last_event_id;
}

/** The events that reached the participant's queue since the last call (heartbeats aside). */
async function newEvents(p: Participant): Promise<Record<string, any>[]> {
  const res = await p.client.events.retrieve({ queue_id: p.queueId, last_event_id: p.lastEventId, dont_block: true });
  expect(res.result).toBe('success');
  const events = res.events as Record<string, any>[];
  if (events.length > 0) p.lastEventId = events.at(-1)!.id;
  return events.filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...rest }) => rest);
}

/** What the participant sees of the topic, and their own flags on it. */
async function topicView(p: Participant, channel: string, topic: string) {
  const res = await p.client.messages.retrieve({
    anchor: 'oldest',
    num_before: 0,
    num_after: 50,
    apply_markdown: true,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ],
  });
  expect(res.result).toBe('success');
  const messages = res.messages as Record<string, any>[];
  return {
    shared: messages.map((m) => ({
      id: m.id,
      sender_id: m.sender_id,
      stream_id: m.stream_id,
      subject: m.subject,
      content: m.content,
      reactions: m.reactions.map((r: Record<string, unknown>) => [r.emoji_name, r.user_id]),
      last_edit_timestamp: m.last_edit_timestamp,
    })),
    flags: Object.fromEntries(messages.map((m) => [m.id, m.flags])),
  };
}

/** The unread message ids a fresh /register reports for the topic, and the total unread count. */
async function unreadInTopic(p: Participant, streamId: number, topic: string) {
  const res = await p.client.queues.register({ event_types: ['heartbeat'], fetch_event_types: ['message', 'update_message_flags'] });
  expect(res.result).toBe('success');
  await p.client.queues.deregister({ queue_id: res.queue_id });
  const entry = res.unread_msgs.streams.find((s: { stream_id: number; topic: string }) => s.stream_id === streamId && s.topic === topic);
  return { ids: entry?.unread_message_ids ?? [], count: res.unread_msgs.count as number, mentions: res.unread_msgs.mentions as number[] };
}

/** Every participant fetches the same messages (flags aside); returns the shared view and each one's flags. */
async function agreedView(channel: string, topic: string) {
  const views = await Promise.all(everyone.map((p) => topicView(p, channel, topic)));
  for (const v of views.slice(1)) expect(v.shared).toEqual(views[0]!.shared);
  return { messages: views[0]!.shared, flags: Object.fromEntries(everyone.map((p, i) => [p.name, views[i]!.flags])) };
}

const baseline: Record<string, number> = {};

beforeAll(async () => {
  sim = createSimulator({ seed: 12, clock: fixedClock(NOW) });
  server = await sim.listen(0, '127.0.0.1');
  bot = await join('default-bot@zulip.com', 'bot');
  hamlet = await join('hamlet@zulip.com', 'hamlet');
  iago = await join('iago@zulip.com', 'iago');
  everyone = [bot, hamlet, iago];
  const subscribed = await bot.client.users.me.subscriptions.add({ subscriptions: [{ name: 'Denmark' }, { name: 'Verona' }] });
  expect(subscribed.result).toBe('success');
  for (const p of everyone) {
    await register(p);
    baseline[p.name] = (await unreadInTopic(p, DENMARK, 'lunch')).count;
  }
});

afterAll(async () => {
  await server.close();
});

describe('a bot answers, edits, the reader reads and reacts, the topic moves: every view agrees', () => {
  let questionId: number;
  let answerId: number;

  test('Hamlet asks the bot; the bot hears it on its queue and answers in the topic', async () => {
    const asked = await hamlet.client.messages.send({ type: 'stream', to: 'Denmark', topic: 'lunch', content: '@**Zulip Default Bot** when is lunch?' });
    expect(asked).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    questionId = asked.id;

    const heard = await newEvents(bot);
    expect(heard).toEqual([{ type: 'message', flags: ['mentioned'], message: expect.objectContaining({ id: questionId, sender_id: hamlet.userId, subject: 'lunch' }) }]);
    const answered = await bot.client.messages.send({ type: 'stream', to: heard[0]!.message.display_recipient, topic: heard[0]!.message.subject, content: 'Lunch is at noon.' });
    expect(answered.result).toBe('success');
    answerId = answered.id;

    // Zulip marks a sender's own message read only when it comes from one of its own apps
    // (Message.sent_by_human); zulip-js's requests are API calls, so both stay unread for their senders.
    expect(await newEvents(bot)).toEqual([{ type: 'message', flags: [], message: expect.objectContaining({ id: answerId, content: '<p>Lunch is at noon.</p>' }) }]);
    expect(await newEvents(hamlet)).toEqual([
      { type: 'message', flags: [], message: expect.objectContaining({ id: questionId }) },
      { type: 'message', flags: [], message: expect.objectContaining({ id: answerId }) },
    ]);
    expect(await newEvents(iago)).toEqual([
      { type: 'message', flags: [], message: expect.objectContaining({ id: questionId }) },
      { type: 'message', flags: [], message: expect.objectContaining({ id: answerId }) },
    ]);

    const view = await agreedView('Denmark', 'lunch');
    expect(view.messages.map((m) => [m.id, m.sender_id, m.content])).toEqual([
      [questionId, hamlet.userId, expect.stringContaining('when is lunch?')],
      [answerId, bot.userId, '<p>Lunch is at noon.</p>'],
    ]);
    expect(view.flags).toEqual({
      bot: { [questionId]: ['mentioned'], [answerId]: [] },
      hamlet: { [questionId]: [], [answerId]: [] },
      iago: { [questionId]: [], [answerId]: [] },
    });
    expect(await unreadInTopic(bot, DENMARK, 'lunch')).toEqual({ ids: [questionId, answerId], count: baseline.bot! + 2, mentions: [questionId] });
    expect(await unreadInTopic(hamlet, DENMARK, 'lunch')).toMatchObject({ ids: [questionId, answerId], count: baseline.hamlet! + 2 });
    expect(await unreadInTopic(iago, DENMARK, 'lunch')).toMatchObject({ ids: [questionId, answerId], count: baseline.iago! + 2 });
  });

  test('the bot edits its answer: everyone gets the update and sees the new content', async () => {
    const edited = await bot.client.messages.update({ message_id: answerId, content: 'Lunch is at **half past noon**.' });
    expect(edited).toMatchObject({ result: 'success', detached_uploads: [] });
    for (const p of everyone) {
      const events = await newEvents(p);
      expect(events).toEqual([
        expect.objectContaining({
          type: 'update_message',
          user_id: bot.userId,
          message_id: answerId,
          message_ids: [answerId],
          rendered_content: '<p>Lunch is at <strong>half past noon</strong>.</p>',
          orig_rendered_content: '<p>Lunch is at noon.</p>',
          edit_timestamp: NOW,
          flags: [],
        }),
      ]);
    }
    const view = await agreedView('Denmark', 'lunch');
    expect(view.messages[1]).toMatchObject({ id: answerId, content: '<p>Lunch is at <strong>half past noon</strong>.</p>', last_edit_timestamp: NOW });
    for (const p of everyone) expect(await unreadInTopic(p, DENMARK, 'lunch')).toMatchObject({ ids: [questionId, answerId], count: baseline[p.name]! + 2 });
  });

  test('Hamlet marks the conversation read and reacts: his flags change, the reaction reaches everyone', async () => {
    const read = await hamlet.client.messages.flags.add({ messages: [questionId, answerId], flag: 'read' });
    expect(read).toMatchObject({ result: 'success', messages: [questionId, answerId] });
    const reacted = await hamlet.client.reactions.add({ message_id: answerId, emoji_name: 'thumbs_up' });
    expect(reacted).toEqual({ result: 'success', msg: '' });

    const reaction = {
      type: 'reaction',
      op: 'add',
      message_id: answerId,
      user_id: hamlet.userId,
      emoji_name: 'thumbs_up',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    };
    expect(await newEvents(hamlet)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [questionId, answerId], all: false },
      expect.objectContaining(reaction),
    ]);
    expect(await newEvents(bot)).toEqual([expect.objectContaining(reaction)]);
    expect(await newEvents(iago)).toEqual([expect.objectContaining(reaction)]);

    const view = await agreedView('Denmark', 'lunch');
    expect(view.messages[1]!.reactions).toEqual([['thumbs_up', hamlet.userId]]);
    expect(view.flags.hamlet).toEqual({ [questionId]: ['read'], [answerId]: ['read'] });
    expect(view.flags.iago).toEqual({ [questionId]: [], [answerId]: [] });
    expect(await unreadInTopic(hamlet, DENMARK, 'lunch')).toMatchObject({ ids: [], count: baseline.hamlet! });
    expect(await unreadInTopic(iago, DENMARK, 'lunch')).toMatchObject({ ids: [questionId, answerId], count: baseline.iago! + 2 });
    expect(await unreadInTopic(bot, DENMARK, 'lunch')).toMatchObject({ ids: [questionId, answerId], count: baseline.bot! + 2 });
  });

  test('Iago moves the topic to Verona: everyone follows it, unread state moves with it', async () => {
    const moved = await iago.client.messages.update({ message_id: questionId, stream_id: VERONA, propagate_mode: 'change_all' });
    expect(moved).toMatchObject({ result: 'success' });

    // Each participant's queue: the move (with their own flags on the moved message) and
    // Notification Bot's notice in the new topic, already read for Iago, who made the move.
    const update = {
      type: 'update_message',
      user_id: iago.userId,
      edit_timestamp: NOW,
      message_id: questionId,
      message_ids: [questionId, answerId],
      rendering_only: false,
      stream_name: 'Denmark',
      stream_id: DENMARK,
      new_stream_id: VERONA,
      orig_subject: 'lunch',
      propagate_mode: 'change_all',
    };
    const notice = {
      sender_id: 4,
      stream_id: VERONA,
      subject: 'lunch',
      content: expect.stringMatching(/^<p>This topic was moved here from <a class="stream-topic" data-stream-id="4" [^>]*>#Denmark &gt; lunch<\/a> by <span class="user-mention silent" data-user-id="11">Iago<\/span>\.<\/p>$/),
    };
    const ownFlags = { bot: [['mentioned'], []], hamlet: [['read'], []], iago: [[], ['read']] } as const;
    let noticeId = 0;
    for (const p of everyone) {
      const [moveFlags, noticeFlags] = ownFlags[p.name as keyof typeof ownFlags];
      const events = await newEvents(p);
      expect(events).toEqual([
        { ...update, flags: moveFlags },
        { type: 'message', flags: noticeFlags, message: expect.objectContaining(notice) },
      ]);
      noticeId = events[1]!.message.id;
    }

    expect(await agreedView('Denmark', 'lunch')).toEqual({ messages: [], flags: { bot: {}, hamlet: {}, iago: {} } });
    const view = await agreedView('Verona', 'lunch');
    expect(view.messages).toEqual([
      expect.objectContaining({ id: questionId, stream_id: VERONA, subject: 'lunch', reactions: [] }),
      expect.objectContaining({ id: answerId, stream_id: VERONA, subject: 'lunch', reactions: [['thumbs_up', hamlet.userId]], last_edit_timestamp: NOW }),
      expect.objectContaining({ id: noticeId, ...notice }),
    ]);
    expect(view.flags).toEqual({
      bot: { [questionId]: ['mentioned'], [answerId]: [], [noticeId]: [] },
      hamlet: { [questionId]: ['read'], [answerId]: ['read'], [noticeId]: [] },
      iago: { [questionId]: [], [answerId]: [], [noticeId]: ['read'] },
    });

    // Unread state moved with the messages: nothing left under Denmark, the same ids under Verona.
    for (const p of everyone) expect((await unreadInTopic(p, DENMARK, 'lunch')).ids).toEqual([]);
    expect(await unreadInTopic(bot, VERONA, 'lunch')).toEqual({ ids: [questionId, answerId, noticeId], count: baseline.bot! + 3, mentions: [questionId] });
    expect(await unreadInTopic(hamlet, VERONA, 'lunch')).toMatchObject({ ids: [noticeId], count: baseline.hamlet! + 1 });
    expect(await unreadInTopic(iago, VERONA, 'lunch')).toMatchObject({ ids: [questionId, answerId], count: baseline.iago! + 2 });
  });
});
