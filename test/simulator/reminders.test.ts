// Message reminders (zerver/views/reminders.py, zerver/actions/reminders.py, zerver/lib/reminders.py;
// zulip.yaml create-message-reminder, get-reminders, delete-reminder): the reminder's wording,
// the errors, the `reminders` events and /register key, and delivery by Notification Bot when the
// simulated clock reaches the time.
import { describe, expect, it } from 'vitest';
import type { Simulator } from '../../simulator/index.ts';
import { ID, NOW, sim, watchEvents } from './helpers.ts';
import { register } from './events/helpers.ts';

const { hamlet, othello, cordelia, iago } = ID;
const NOTIFICATION_BOT = 4;
const VERONA = 3;
const T = NOW + 3600;

function call(s: Simulator, as: number, method: string, path: string, params?: Record<string, unknown>) {
  const where = method === 'GET' ? 'query' : 'body';
  return s.request({ method, path: `/api/v1${path}`, as, ...(params ? { [where]: params } : {}) });
}

const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code, ...extra });

async function send(s: Simulator, as: number, body: Record<string, unknown>): Promise<number> {
  const res = await call(s, as, 'POST', '/messages', body);
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const toVerona = (s: Simulator, content: string, topic = 'test') => send(s, hamlet, { type: 'stream', to: 'Verona', topic, content });
const toOthello = (s: Simulator, content: string) => send(s, hamlet, { type: 'direct', to: JSON.stringify([othello]), content });
const remind = (s: Simulator, as: number, body: Record<string, unknown>) => call(s, as, 'POST', '/reminders', body);
const reminders = async (s: Simulator, as: number) => (await call(s, as, 'GET', '/reminders')).body.reminders as Record<string, any>[];

const channelText = (id: number, content: string, note?: string) =>
  `You requested a reminder for the following message.${note ? ` Note:\n > ${note}` : ''}\n\n` +
  `@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/channel/3-Verona/topic/test/near/${id}) in #**Verona>test@${id}**:\n` +
  `\`\`\`quote\n${content}\n\`\`\``;
const dmText = (id: number, content: string) =>
  'You requested a reminder for the following direct message.\n\n' +
  `@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/dm/10,12/near/${id}) to @_**Othello, the Moor of Venice|12**:\n` +
  `\`\`\`quote\n${content}\n\`\`\``;

async function lastMessage(s: Simulator, as: number) {
  const res = await call(s, as, 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: 'false' });
  return (res.body.messages as Record<string, any>[])[0]!;
}

describe('POST /reminders', () => {
  it('schedules a reminder of a channel message: its ID, the object GET shows, an add event to the user alone', async () => {
    const s = sim();
    const id = await toVerona(s, 'Test message');
    const watch = watchEvents(s);
    const res = await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T, note: 'Reply to this.' });
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '', reminder_id: 1 }]);
    const [reminder] = await reminders(s, hamlet);
    expect(reminder).toEqual({
      reminder_id: 1,
      to: [hamlet],
      type: 'private',
      content: channelText(id, 'Test message', 'Reply to this.'),
      rendered_content: expect.stringContaining(
        `in <a class="message-link" href="/#narrow/channel/3-Verona/topic/test/near/${id}">#Verona &gt; test @ 💬</a>:</p>\n<blockquote>\n<p>Test message</p>\n</blockquote>`,
      ),
      scheduled_delivery_timestamp: T,
      failed: false,
      reminder_target_message_id: id,
    });
    expect(watch.take()).toEqual([{ event: { type: 'reminders', op: 'add', reminders: [reminder] }, users: [hamlet] }]);
    expect(await reminders(s, othello)).toEqual([]);
  });

  it('words a direct message, a message to oneself, a poll and a to-do list as Zulip does', async () => {
    const s = sim();
    const dm = await toOthello(s, 'Test message');
    const self = await send(s, hamlet, { type: 'direct', to: JSON.stringify([hamlet]), content: 'note to self' });
    const poll = await toOthello(s, '/poll What is your favorite color?');
    const todo = await toOthello(s, '/todo List of tasks');
    for (const [i, id] of [dm, self, poll, todo].entries()) {
      await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T + i });
    }
    expect((await reminders(s, hamlet)).map((r) => r.content)).toEqual([
      dmText(dm, 'Test message'),
      'You requested a reminder for the following direct message.\n\n' +
        `@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/dm/10/near/${self}) to @_**King Hamlet|10**:\n\`\`\`quote\nnote to self\n\`\`\``,
      'You requested a reminder for the following direct message.\n\n' +
        `@_**King Hamlet|10** [sent](http://zulip.testserver/#narrow/dm/10,12/near/${poll}) a poll to @_**Othello, the Moor of Venice|12**.`,
      'You requested a reminder for the following direct message.\n\n' +
        `@_**King Hamlet|10** [sent](http://zulip.testserver/#narrow/dm/10,12/near/${todo}) a todo list to @_**Othello, the Moor of Venice|12**.`,
    ]);
  });

  it('encodes a topic with braces in the link, keeps the note as written, and drops a blank note', async () => {
    const s = sim();
    const id = await toVerona(s, '{456}', '{789}');
    await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T, note: '{123}' });
    await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T + 1, note: '  \n ' });
    const [withNote, blank] = await reminders(s, hamlet);
    expect(withNote!.content).toBe(
      'You requested a reminder for the following message. Note:\n > {123}\n\n' +
        `@_**King Hamlet|10** [said](http://zulip.testserver/#narrow/channel/3-Verona/topic/.7B789.7D/near/${id}) in #**Verona>{789}@${id}**:\n\`\`\`quote\n{456}\n\`\`\``,
    );
    expect(blank!.content.startsWith('You requested a reminder for the following message.\n\n')).toBe(true);
  });

  it('cuts a long message so the reminder fits in a message', async () => {
    const s = sim();
    const id = await toOthello(s, 'x'.repeat(10000));
    await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T });
    const [reminder] = await reminders(s, hamlet);
    const wrapper = dmText(id, '\n[message truncated]').length;
    expect(reminder!.content).toBe(dmText(id, 'x'.repeat(10000 - wrapper) + '\n[message truncated]'));
    expect([...reminder!.content].length).toBe(10000);
  });

  it.each<[string, (id: number) => Record<string, unknown>, Record<string, unknown>]>([
    ['a time in the past', (id) => ({ message_id: id, scheduled_delivery_timestamp: NOW - 86400 }), error('Scheduled delivery time must be in the future.')],
    ['the present', (id) => ({ message_id: id, scheduled_delivery_timestamp: NOW }), error('Scheduled delivery time must be in the future.')],
    ['the past before an unknown message', () => ({ message_id: 123456789, scheduled_delivery_timestamp: NOW }), error('Scheduled delivery time must be in the future.')],
    ['an unknown message', () => ({ message_id: 123456789, scheduled_delivery_timestamp: T }), error('Invalid message(s)')],
    ['a note too long', (id) => ({ message_id: id, scheduled_delivery_timestamp: T, note: 'n'.repeat(1001) }), error('Maximum reminder note length: 1000 characters')],
    ['no message', () => ({ scheduled_delivery_timestamp: T }), error("Missing 'message_id' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'message_id' })],
    ['no time', (id) => ({ message_id: id }), error("Missing 'scheduled_delivery_timestamp' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'scheduled_delivery_timestamp' })],
    ['a time that is not an integer', (id) => ({ message_id: id, scheduled_delivery_timestamp: 'tomorrow' }), error('scheduled_delivery_timestamp is not valid JSON')],
  ])('refuses %s', async (_what, body, expected) => {
    const s = sim();
    const id = await toVerona(s, 'Test message');
    const res = await remind(s, hamlet, body(id));
    expect([res.status, res.body]).toEqual([400, expected]);
    expect(await reminders(s, hamlet)).toEqual([]);
  });

  it("refuses a message the user cannot see (another's direct message), as an unknown one", async () => {
    const s = sim();
    const id = await toOthello(s, 'between us');
    expect((await remind(s, cordelia, { message_id: id, scheduled_delivery_timestamp: T })).body).toEqual(error('Invalid message(s)'));
    // A note of exactly the limit is fine.
    expect((await remind(s, othello, { message_id: id, scheduled_delivery_timestamp: T, note: 'n'.repeat(1000) })).status).toBe(200);
  });

  it('takes its ID from the scheduled messages, and is neither listed nor deletable as one', async () => {
    const s = sim();
    const id = await toVerona(s, 'Test message');
    await call(s, hamlet, 'POST', '/scheduled_messages', { type: 'stream', to: VERONA, topic: 'x', content: 'later', scheduled_delivery_timestamp: T });
    expect((await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T })).body.reminder_id).toBe(2);
    const scheduled = (await call(s, hamlet, 'GET', '/scheduled_messages')).body.scheduled_messages as Record<string, any>[];
    expect(scheduled.map((m) => m.scheduled_message_id)).toEqual([1]);
    const res = await call(s, hamlet, 'DELETE', '/scheduled_messages/2');
    expect([res.status, res.body]).toEqual([404, error('Scheduled message does not exist')]);
    expect((await call(s, hamlet, 'DELETE', '/reminders/1')).body).toEqual(error('Reminder does not exist'));
  });
});

describe('GET /reminders and /register', () => {
  it('lists undelivered reminders earliest first, and /register has them under `reminders`', async () => {
    const s = sim();
    const id = await toVerona(s, 'Test message');
    await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T + 60 });
    await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T });
    const listed = await reminders(s, hamlet);
    expect(listed.map((r) => [r.reminder_id, r.scheduled_delivery_timestamp])).toEqual([
      [2, T],
      [1, T + 60],
    ]);
    expect((await register(s, hamlet, { fetch_event_types: ['reminders'] })).reminders).toEqual(listed);
    expect((await register(s, othello, { fetch_event_types: ['reminders'] })).reminders).toEqual([]);
  });
});

describe('DELETE /reminders/{reminder_id}', () => {
  it("deletes one's own reminder with a remove event; another user's, or a deleted one, does not exist", async () => {
    const s = sim();
    const id = await send(s, hamlet, { type: 'stream', to: 'Denmark', topic: 'test', content: 'hi' });
    const { reminder_id } = (await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T })).body;
    const other = await call(s, cordelia, 'DELETE', `/reminders/${reminder_id}`);
    expect([other.status, other.body]).toEqual([404, error('Reminder does not exist')]);
    const watch = watchEvents(s);
    expect((await call(s, hamlet, 'DELETE', `/reminders/${reminder_id}`)).body).toEqual({ result: 'success', msg: '' });
    expect(watch.take()).toEqual([{ event: { type: 'reminders', op: 'remove', reminder_id }, users: [hamlet] }]);
    expect(await reminders(s, hamlet)).toEqual([]);
    const again = await call(s, hamlet, 'DELETE', `/reminders/${reminder_id}`);
    expect([again.status, again.body]).toEqual([404, error('Reminder does not exist')]);
    // Nothing is delivered once deleted.
    expect(s.clock.set(T + 10).occurred.filter((o) => o.kind === 'scheduled_message')).toEqual([]);
  });
});

describe('delivery on the simulated clock', () => {
  it('Notification Bot sends the user a DM at the time, then the reminder is removed', async () => {
    const s = sim();
    const id = await toOthello(s, 'Test content');
    await remind(s, hamlet, { message_id: id, scheduled_delivery_timestamp: T });
    expect(s.clock.set(T - 1).occurred.filter((o) => o.kind === 'scheduled_message')).toEqual([]);
    const watch = watchEvents(s);
    const report = s.clock.advance(60);
    const sent = await lastMessage(s, hamlet);
    expect(report.occurred.filter((o) => o.kind === 'scheduled_message')).toEqual([{ at: T, kind: 'scheduled_message', scheduled_message_id: 1, message_id: sent.id, failure_message: null }]);
    expect(sent).toMatchObject({ sender_id: NOTIFICATION_BOT, type: 'private', content: dmText(id, 'Test content'), timestamp: T });
    expect((sent.display_recipient as { id: number }[]).map((u) => u.id)).toEqual([NOTIFICATION_BOT, hamlet]);
    expect(sent.flags).not.toContain('read');
    const events = watch.take();
    expect(events.map((e) => e.event.type)).toEqual(['message', 'reminders']);
    expect(events[1]).toEqual({ event: { type: 'reminders', op: 'remove', reminder_id: 1 }, users: [hamlet] });
    expect(await reminders(s, hamlet)).toEqual([]);
    // The message reminded of was not sent to anyone else.
    expect((await lastMessage(s, othello)).id).toBe(id);
  });

  it('words the reminder afresh at delivery, and uses the stored words once the message is gone', async () => {
    const s = sim();
    const kept = await toVerona(s, 'first');
    const gone = await toVerona(s, 'second');
    await remind(s, hamlet, { message_id: kept, scheduled_delivery_timestamp: T });
    await remind(s, hamlet, { message_id: gone, scheduled_delivery_timestamp: T + 1 });
    await call(s, hamlet, 'PATCH', `/messages/${kept}`, { content: 'first, edited' });
    await call(s, iago, 'DELETE', `/messages/${gone}`);
    s.clock.set(T + 1);
    const res = await call(s, hamlet, 'GET', '/messages', { anchor: 'newest', num_before: 2, num_after: 0, apply_markdown: 'false' });
    expect((res.body.messages as Record<string, any>[]).map((m) => m.content)).toEqual([channelText(kept, 'first, edited'), channelText(gone, 'second')]);
  });

  it('fails quietly for a deactivated user: marked failed, no message, no event', async () => {
    const s = sim();
    const id = await toVerona(s, 'Test message');
    await remind(s, othello, { message_id: id, scheduled_delivery_timestamp: T });
    await call(s, iago, 'DELETE', `/users/${othello}`);
    const before = (await lastMessage(s, iago)).id;
    const watch = watchEvents(s);
    expect(s.clock.set(T).occurred.filter((o) => o.kind === 'scheduled_message')).toEqual([{ at: T, kind: 'scheduled_message', scheduled_message_id: 1, message_id: null, failure_message: 'Account is deactivated' }]);
    expect(watch.take().filter((e) => e.event.type === 'reminders' || e.event.type === 'message')).toEqual([]);
    expect((await lastMessage(s, iago)).id).toBe(before);
    await call(s, iago, 'POST', `/users/${othello}/reactivate`);
    expect((await reminders(s, othello)).map((r) => r.failed)).toEqual([true]);
  });
});
