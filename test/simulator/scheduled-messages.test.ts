// Scheduled messages (zerver/views/scheduled_messages.py, zerver/actions/scheduled_messages.py): each endpoint's answer and errors, the events to the
// sender, /register's state, and delivery when the simulated clock reaches the time, sent exactly
// as POST /messages sends, or failed as Zulip records a failure.
import { describe, expect, it } from 'vitest';
import { SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS, deliverNextScheduledMessage } from '../../simulator/engine/messages/scheduled.ts';
import { commit } from '../../simulator/engine/core.ts';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';
import { register } from './events/helpers.ts';

const { hamlet, iago, othello, cordelia, prospero } = ID;
const VERONA = 3;
const DENMARK = 4;
const CORE_TEAM = 8;
const NOTIFICATION_BOT = 4;
const T = NOW + 300;

function call(s: Simulator, as: number, method: string, path: string, params?: Record<string, unknown>) {
  const where = method === 'GET' ? 'query' : 'body';
  return s.request({ method, path: `/api/v1${path}`, as, ...(params ? { [where]: params } : {}) });
}

const schedule = (s: Simulator, as: number, body: Record<string, unknown>) => call(s, as, 'POST', '/scheduled_messages', body);
const list = async (s: Simulator, as: number) => (await call(s, as, 'GET', '/scheduled_messages')).body.scheduled_messages as Record<string, any>[];
const channelBody = (extra: Record<string, unknown> = {}) => ({ type: 'channel', to: VERONA, topic: 'plans', content: 'Meet at **noon**', scheduled_delivery_timestamp: T, ...extra });

function error(msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) {
  return { result: 'error', msg, code, ...extra };
}

async function lastMessages(s: Simulator, as: number, n = 1) {
  const res = await call(s, as, 'GET', '/messages', { anchor: 'newest', num_before: n, num_after: 0, apply_markdown: false });
  return (res.body.messages as Record<string, any>[]).slice(-n);
}

describe('POST /scheduled_messages', () => {
  it('schedules a channel message: its ID, the object GET shows, and an add event to the sender only', async () => {
    const s = sim();
    const watch = watchEvents(s);
    const res = await schedule(s, hamlet, channelBody());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', scheduled_message_id: 1 });
    const object = {
      scheduled_message_id: 1,
      to: VERONA,
      type: 'stream',
      content: 'Meet at **noon**',
      rendered_content: '<p>Meet at <strong>noon</strong></p>',
      topic: 'plans',
      scheduled_delivery_timestamp: T,
      failed: false,
    };
    expect(await list(s, hamlet)).toEqual([object]);
    expect(watch.take()).toEqual([{ event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [object] }, users: [hamlet] }]);
    // Nobody else sees it.
    expect(await list(s, othello)).toEqual([]);
  });

  it.each([
    ['one other user', 'direct', [othello], [othello]],
    ['a group, the sender named too, duplicates dropped', 'private', [othello, hamlet, cordelia, othello], [cordelia, othello]],
    ['the sender alone', 'direct', [hamlet], [hamlet]],
  ])('schedules a direct message to %s: `to` lists the other participants', async (_what, type, to, shown) => {
    const s = sim();
    await schedule(s, hamlet, { type, to, content: 'psst', scheduled_delivery_timestamp: T });
    expect(await list(s, hamlet)).toEqual([
      { scheduled_message_id: 1, to: shown, type: 'private', content: 'psst', rendered_content: '<p>psst</p>', scheduled_delivery_timestamp: T, failed: false },
    ]);
  });

  it('lists unsent messages earliest first, whatever order they were scheduled in', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody({ scheduled_delivery_timestamp: T + 60, content: 'second' }));
    await schedule(s, hamlet, channelBody({ scheduled_delivery_timestamp: T, content: 'first' }));
    await schedule(s, hamlet, channelBody({ scheduled_delivery_timestamp: T + 60, content: 'third' }));
    expect((await list(s, hamlet)).map((m) => [m.scheduled_message_id, m.content])).toEqual([
      [2, 'first'],
      [1, 'second'],
      [3, 'third'],
    ]);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, number?]>([
    ['a time in the past', { scheduled_delivery_timestamp: NOW - 1 }, error('Scheduled delivery time must be in the future.')],
    ['the present itself', { scheduled_delivery_timestamp: NOW }, error('Scheduled delivery time must be in the future.')],
    ['the past before a bad recipient', { scheduled_delivery_timestamp: NOW, to: [VERONA] }, error('Scheduled delivery time must be in the future.')],
    ['no content', { content: undefined }, error("Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' })],
    ['no recipient', { to: undefined }, error("Missing 'to' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'to' })],
    ['no type', { type: undefined }, error("Missing 'type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'type' })],
    ['no time', { scheduled_delivery_timestamp: undefined }, error("Missing 'scheduled_delivery_timestamp' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'scheduled_delivery_timestamp' })],
    ['an unknown type', { type: 'email' }, error('Invalid type')],
    ['a time that is not an integer', { scheduled_delivery_timestamp: 'soon' }, error('scheduled_delivery_timestamp is not valid JSON')],
    ['a channel name', { to: 'Verona' }, error('to is not valid JSON')],
    ['emails', { type: 'direct', to: ['othello@zulip.com'] }, error('to["int"] is not an integer')],
    ['a list for a channel', { to: [VERONA] }, error('Invalid data type for channel ID')],
    ['one ID for a direct message', { type: 'direct', to: othello }, error('Invalid data type for recipients')],
    ['nobody', { type: 'direct', to: [] }, error('Message must have recipients')],
    ['an unknown user', { type: 'direct', to: [othello, 999] }, error('Invalid user ID 999')],
    ['an unknown channel', { to: 999 }, error("Channel with ID '999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999 })],
    ['no topic for a channel', { topic: undefined }, error('Missing topic')],
    ['an unprintable topic', { topic: 'a\u0001b' }, error('Invalid character in topic, at position 2!')],
    ['blank content', { content: '  \n ' }, error('Message must not be empty')],
    ['a private channel the sender is not in', { to: CORE_TEAM }, error("Not authorized to send to channel 'core team'")],
    ['a bad read_by_sender', { read_by_sender: 'yes' }, error('read_by_sender is not valid JSON')],
  ])('refuses %s', async (_what, change, expected) => {
    const s = sim();
    const body: Record<string, unknown> = { ...channelBody(), ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
    const res = await schedule(s, othello, body);
    expect(res.body).toEqual(expected);
    expect(res.status).toBe(400);
    expect(await list(s, othello)).toEqual([]);
  });

  it('refuses a deactivated recipient, an archived channel, and a channel the sender may not post in', async () => {
    const s = sim();
    await call(s, iago, 'DELETE', `/users/${prospero}`);
    expect((await schedule(s, hamlet, { type: 'direct', to: [prospero], content: 'hi', scheduled_delivery_timestamp: T })).body).toEqual(
      error("'user14@zulip.testserver' is no longer using Zulip."),
    );
    await call(s, iago, 'DELETE', `/streams/${DENMARK}`);
    expect((await schedule(s, hamlet, channelBody({ to: DENMARK }))).body).toEqual(error("Not authorized to send to channel 'Denmark'"));
    await call(s, iago, 'PATCH', `/streams/${VERONA}`, { can_send_message_group: { new: { direct_members: [iago], direct_subgroups: [] } } });
    expect((await schedule(s, hamlet, channelBody())).body).toEqual(error('You do not have permission to post in this channel.'));
    expect((await schedule(s, iago, channelBody())).status).toBe(200);
  });
});

describe('PATCH /scheduled_messages/{id}', () => {
  async function scheduled(s: Simulator) {
    await schedule(s, hamlet, channelBody());
    return 1;
  }

  it.each<[string, Record<string, unknown>, string]>([
    ['nothing', {}, 'Nothing to change'],
    ['a type without a recipient', { type: 'direct' }, 'Recipient required when updating type of scheduled message.'],
    ['a channel type without a topic', { type: 'channel', to: DENMARK }, 'Topic required when updating scheduled message type to channel.'],
    ['the stream spelling without a topic', { type: 'stream', to: DENMARK }, 'Topic required when updating scheduled message type to channel.'],
    ['a time in the past', { scheduled_delivery_timestamp: NOW - 60 }, 'Scheduled delivery time must be in the future.'],
    ['a list for a channel', { to: [DENMARK] }, 'Invalid data type for channel ID'],
    ['an unknown channel', { to: 108 }, "Channel with ID '108' does not exist"],
    ['blank content', { content: ' ' }, 'Message must not be empty'],
  ])('refuses %s and changes nothing', async (_what, body, msg) => {
    const s = sim();
    const id = await scheduled(s);
    const before = await list(s, hamlet);
    const res = await call(s, hamlet, 'PATCH', `/scheduled_messages/${id}`, body);
    expect(res.body).toMatchObject({ result: 'error', msg });
    expect(res.status).toBe(400);
    expect(await list(s, hamlet)).toEqual(before);
  });

  it("answers 404 for an unknown ID and for another user's message", async () => {
    const s = sim();
    const id = await scheduled(s);
    for (const [as, target] of [
      [hamlet, 99],
      [othello, id],
    ] as const) {
      const res = await call(s, as, 'PATCH', `/scheduled_messages/${target}`, { content: 'x' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(error('Scheduled message does not exist'));
    }
  });

  it('changes the content, the topic alone, the time, then the recipient, each with an update event', async () => {
    const s = sim();
    const id = await scheduled(s);
    const watch = watchEvents(s);
    const patch = async (body: Record<string, unknown>) => {
      const res = await call(s, hamlet, 'PATCH', `/scheduled_messages/${id}`, body);
      expect(res.body).toEqual({ result: 'success', msg: '' });
      const [shown] = await list(s, hamlet);
      expect(watch.take()).toEqual([{ event: { type: 'scheduled_messages', op: 'update', scheduled_message: shown }, users: [hamlet] }]);
      return shown!;
    };
    expect(await patch({ content: 'Later, *maybe*' })).toMatchObject({ content: 'Later, *maybe*', rendered_content: '<p>Later, <em>maybe</em></p>', topic: 'plans' });
    expect(await patch({ topic: 'new plans' })).toMatchObject({ topic: 'new plans', to: VERONA, type: 'stream' });
    expect(await patch({ scheduled_delivery_timestamp: T + 600 })).toMatchObject({ scheduled_delivery_timestamp: T + 600 });
    // Changing the type to direct drops the topic.
    expect(await patch({ type: 'direct', to: [othello] })).toEqual({
      scheduled_message_id: id,
      to: [othello],
      type: 'private',
      content: 'Later, *maybe*',
      rendered_content: '<p>Later, <em>maybe</em></p>',
      scheduled_delivery_timestamp: T + 600,
      failed: false,
    });
    // A topic for a direct message is ignored.
    expect(await patch({ topic: 'ignored' })).not.toHaveProperty('topic');
    expect(await patch({ type: 'channel', to: DENMARK, topic: 'back' })).toMatchObject({ to: DENMARK, type: 'stream', topic: 'back' });
    // The same recipient again changes nothing but is accepted.
    expect(await patch({ type: 'stream', to: DENMARK, topic: 'back' })).toMatchObject({ to: DENMARK, topic: 'back' });
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  it("deletes the sender's message with a remove event; another user's or a deleted one is 404", async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody());
    const watch = watchEvents(s);
    const other = await call(s, othello, 'DELETE', '/scheduled_messages/1');
    expect([other.status, other.body]).toEqual([404, error('Scheduled message does not exist')]);
    const res = await call(s, hamlet, 'DELETE', '/scheduled_messages/1');
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(watch.take()).toEqual([{ event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 }, users: [hamlet] }]);
    expect(await list(s, hamlet)).toEqual([]);
    expect((await call(s, hamlet, 'DELETE', '/scheduled_messages/1')).status).toBe(404);
  });
});

describe('/register', () => {
  it("holds the sender's unsent messages as GET shows them, and the events keep a client's copy equal", async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody({ scheduled_delivery_timestamp: T + 120 }));
    const start = await register(s, hamlet, { fetch_event_types: ['scheduled_messages'] });
    expect(start.scheduled_messages).toEqual(await list(s, hamlet));
    expect((await register(s, othello, { fetch_event_types: ['scheduled_messages'] })).scheduled_messages).toEqual([]);

    await schedule(s, hamlet, { type: 'direct', to: [othello], content: 'soon', scheduled_delivery_timestamp: T });
    await schedule(s, hamlet, channelBody({ content: 'dropped' }));
    await call(s, hamlet, 'PATCH', '/scheduled_messages/1', { content: 'edited' });
    await call(s, hamlet, 'DELETE', '/scheduled_messages/3');
    s.clock.set(T);

    const res = await call(s, hamlet, 'GET', '/events', { queue_id: start.queue_id, last_event_id: -1, dont_block: true });
    const kept: Record<string, any>[] = structuredClone(start.scheduled_messages);
    for (const e of res.body.events as Record<string, any>[]) {
      if (e.type !== 'scheduled_messages') continue;
      if (e.op === 'add') kept.push(...e.scheduled_messages);
      else if (e.op === 'update') kept.splice(kept.findIndex((m) => m.scheduled_message_id === e.scheduled_message.scheduled_message_id), 1, e.scheduled_message);
      else kept.splice(kept.findIndex((m) => m.scheduled_message_id === e.scheduled_message_id), 1);
    }
    kept.sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
    const fresh = (await register(s, hamlet, { fetch_event_types: ['scheduled_messages'] })).scheduled_messages;
    expect(kept).toEqual(fresh);
    expect(fresh.map((m: Record<string, any>) => m.content)).toEqual(['edited']);
  });
});

describe('delivery on the simulated clock', () => {
  it('sends nothing before the time, and at exactly the time sends it as the sender, timestamped then', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody());
    const report = s.clock.set(T - 1);
    expect(report.occurred).toEqual([]);
    expect(await list(s, hamlet)).toHaveLength(1);
    const before = (await lastMessages(s, othello))[0]!.id;

    const at = s.clock.set(T);
    const [sent] = await lastMessages(s, othello);
    expect(at.occurred).toEqual([{ at: T, kind: 'scheduled_message', scheduled_message_id: 1, message_id: sent!.id, failure_message: null }]);
    expect(sent).toMatchObject({ sender_id: hamlet, stream_id: VERONA, subject: 'plans', content: 'Meet at **noon**', timestamp: T });
    expect(sent!.id).toBe(before + 1);
    expect(await list(s, hamlet)).toEqual([]);
    // Once sent it can no longer be edited (but its row can be deleted).
    const edit = await call(s, hamlet, 'PATCH', '/scheduled_messages/1', { content: 'too late' });
    expect(edit.body).toEqual(error('Scheduled message was already sent'));
    expect((await call(s, hamlet, 'DELETE', '/scheduled_messages/1')).status).toBe(200);
  });

  it('sends at its own time when the clock jumps past it, several in time order, then by ID', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody({ content: 'third', scheduled_delivery_timestamp: T + 60 }));
    await schedule(s, othello, channelBody({ content: 'first', scheduled_delivery_timestamp: T }));
    await schedule(s, hamlet, channelBody({ content: 'second', scheduled_delivery_timestamp: T }));
    const report = s.clock.advance(7200);
    expect(report.to).toBe(NOW + 7200);
    expect(report.occurred.map((o) => [o.at, o.kind === 'scheduled_message' && o.scheduled_message_id])).toEqual([
      [T, 2],
      [T, 3],
      [T + 60, 1],
    ]);
    const sent = await lastMessages(s, iago, 3);
    expect(sent.map((m) => [m.content, m.timestamp])).toEqual([
      ['first', T],
      ['second', T],
      ['third', T + 60],
    ]);
    expect(s.clock.now()).toBe(NOW + 7200);
  });

  it('sends at the earlier time a message was moved to', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody({ scheduled_delivery_timestamp: T + 3000 }));
    s.clock.advance(60);
    await call(s, hamlet, 'PATCH', '/scheduled_messages/1', { scheduled_delivery_timestamp: NOW + 120 });
    expect(s.clock.advance(60).occurred).toEqual([expect.objectContaining({ at: NOW + 120, kind: 'scheduled_message', scheduled_message_id: 1 })]);
  });

  it('sends what a clock moved by its owner brought due, before the next request, at its own time', async () => {
    let t = NOW;
    const s = sim({ clock: { now: () => t } });
    await schedule(s, hamlet, channelBody());
    t = T + 3600;
    const [sent] = await lastMessages(s, othello);
    expect(sent).toMatchObject({ content: 'Meet at **noon**', timestamp: T });
  });

  it('sends exactly what POST /messages sends at that moment: the same events to the same users, then the removal', async () => {
    const scheduled = sim();
    const direct = sim();
    for (const s of [scheduled, direct]) await call(s, iago, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }] });
    await schedule(scheduled, hamlet, channelBody({ content: '@**Othello, the Moor of Venice** lunch?', read_by_sender: true }));
    const watchScheduled = watchEvents(scheduled);
    const watchDirect = watchEvents(direct);
    scheduled.clock.set(T);
    direct.clock.set(T);
    await call(direct, hamlet, 'POST', '/messages', { type: 'stream', to: 'Verona', topic: 'plans', content: '@**Othello, the Moor of Venice** lunch?', read_by_sender: true });
    // The sender's clients hear of the message, then of the scheduled message's removal.
    const senderGot = watchScheduled.of(hamlet);
    expect(senderGot.at(-1)).toEqual({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 });
    expect(senderGot.slice(0, -1)).toEqual(watchDirect.of(hamlet));
    // Everyone else gets exactly what the direct send gave them (Othello his mention).
    const others = watchScheduled.take();
    expect(others).toEqual(watchDirect.take());
    expect(others.find((e) => e.users.includes(othello))!.event.flags).toEqual(['mentioned']);
    expect(await lastMessages(scheduled, othello)).toEqual(await lastMessages(direct, othello));
  });

  it.each([
    ['read_by_sender true', { read_by_sender: true }, ['read']],
    ['read_by_sender false', { read_by_sender: false }, []],
    ['no read_by_sender from an API client', {}, []],
  ])("leaves the sender's copy as asked: %s", async (_what, extra, flags) => {
    const s = sim();
    await schedule(s, hamlet, channelBody(extra));
    s.clock.set(T);
    const [sent] = await lastMessages(s, hamlet);
    expect(sent!.flags).toEqual(flags);
  });

  it("marks a website client's scheduled message read for its sender, except a note to self", async () => {
    const s = sim();
    const web = { 'user-agent': 'ZulipWeb/1.0' };
    await s.request({ method: 'POST', path: '/api/v1/scheduled_messages', as: hamlet, body: { ...channelBody(), client: 'website' }, headers: web });
    await s.request({ method: 'POST', path: '/api/v1/scheduled_messages', as: hamlet, body: { type: 'direct', to: [hamlet], content: 'note', scheduled_delivery_timestamp: T, client: 'website' } });
    s.clock.set(T);
    const sent = await lastMessages(s, hamlet, 2);
    expect(sent.map((m) => [m.content, m.flags, m.client])).toEqual([
      ['Meet at **noon**', ['read'], 'website'],
      ['note', [], 'website'],
    ]);
  });
});

describe('a delivery that fails', () => {
  it('is kept with failed: true, announced to the sender, who hears why from Notification Bot', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody({ to: DENMARK }));
    await call(s, iago, 'DELETE', `/streams/${DENMARK}`);
    const watch = watchEvents(s);
    const report = s.clock.set(T);
    expect(report.occurred).toEqual([
      { at: T, kind: 'scheduled_message', scheduled_message_id: 1, message_id: null, failure_message: "Not authorized to send to channel 'Denmark'" },
    ]);
    const [failed] = await list(s, hamlet);
    expect(failed).toMatchObject({ scheduled_message_id: 1, failed: true });
    const events = watch.of(hamlet);
    expect(events[0]).toEqual({ type: 'scheduled_messages', op: 'update', scheduled_message: failed });
    expect(events[1]).toMatchObject({ type: 'message', message: { sender_id: NOTIFICATION_BOT, type: 'private' } });
    const [notice] = await lastMessages(s, hamlet);
    const when = new Date(T * 1000).toISOString().replace('.000Z', '+00:00');
    expect(notice).toMatchObject({ sender_id: NOTIFICATION_BOT, flags: [], timestamp: T });
    expect(notice!.content).toBe(
      `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n> Not authorized to send to channel 'Denmark'\n\n[View scheduled messages](#scheduled)`,
    );
    // It is not tried again; editing needs a new time, which clears the failure.
    expect(s.clock.advance(600).occurred.filter((o) => o.kind === 'scheduled_message')).toEqual([]);
    expect((await call(s, hamlet, 'PATCH', '/scheduled_messages/1', { topic: 'retry' })).body).toEqual(error('Scheduled delivery time must be in the future.'));
    await call(s, hamlet, 'PATCH', '/scheduled_messages/1', { to: VERONA, scheduled_delivery_timestamp: T + 3600 });
    expect(await list(s, hamlet)).toEqual([expect.objectContaining({ failed: false, to: VERONA, scheduled_delivery_timestamp: T + 3600 })]);
    expect(s.clock.set(T + 3600).occurred).toEqual([expect.objectContaining({ failure_message: null })]);
  });

  it('fails silently when the sender was deactivated: no event, no notice', async () => {
    const s = sim();
    await schedule(s, hamlet, { type: 'direct', to: [othello], content: 'hi', scheduled_delivery_timestamp: T });
    await call(s, iago, 'DELETE', `/users/${hamlet}`);
    const watch = watchEvents(s);
    expect(s.clock.set(T).occurred).toEqual([expect.objectContaining({ message_id: null, failure_message: 'Account is deactivated' })]);
    expect(watch.take()).toEqual([]);
    await call(s, iago, 'POST', `/users/${hamlet}/reactivate`);
    expect(await list(s, hamlet)).toEqual([expect.objectContaining({ failed: true })]);
  });

  it('fails when a recipient was deactivated meanwhile', async () => {
    const s = sim();
    await schedule(s, hamlet, { type: 'direct', to: [othello, prospero], content: 'hi', scheduled_delivery_timestamp: T });
    await call(s, iago, 'DELETE', `/users/${prospero}`);
    expect(s.clock.set(T).occurred).toEqual([expect.objectContaining({ failure_message: "'user14@zulip.testserver' is no longer using Zulip." })]);
  });

  it('fails past the late cutoff (ten minutes), should the worker get to it that late', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody());
    const engine = s.engine;
    const late = T + SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS + 1;
    engine.deps.clock.moveTo(late);
    const outcome = engine.deps.clock.pinned(late, () => deliverNextScheduledMessage(engine)!);
    expect(commit(engine, outcome)).toEqual({ scheduled_message_id: 1, message_id: null, failure_message: 'Message could not be sent at the scheduled time.' });
    const onTime = sim();
    await schedule(onTime, hamlet, channelBody());
    onTime.engine.deps.clock.moveTo(T + SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS);
    const sent = onTime.engine.deps.clock.pinned(T + SCHEDULED_MESSAGE_LATE_CUTOFF_SECONDS, () => deliverNextScheduledMessage(onTime.engine)!);
    expect(sent.value.failure_message).toBeNull();
  });

  it('checks permissions as they are at delivery time', async () => {
    const s = sim();
    await schedule(s, hamlet, channelBody());
    await call(s, iago, 'PATCH', `/streams/${VERONA}`, { can_send_message_group: { new: { direct_members: [iago], direct_subgroups: [] } } });
    expect(s.clock.set(T).occurred).toEqual([expect.objectContaining({ failure_message: 'You do not have permission to post in this channel.' })]);
  });
});
