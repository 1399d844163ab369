// The deprecated bulk read endpoints (still served): mark all, a channel or a topic read, their
// answers, errors and events.
import { describe, expect, test } from 'vitest';
import { devFixture } from '../helpers.ts';
import { allReadSim, call, CORDELIA, error, HAMLET, OTHELLO, recordEvents, sendDm, sendTo, stillSim, unreadOf } from './helpers.ts';

const DENMARK = 4;
const readEvent = (messages: number[], all = false) => ({
  messages,
  all,
  type: 'update_message_flags',
  op: 'add',
  operation: 'add',
  flag: 'read',
});

async function someUnread() {
  const s = allReadSim();
  const ids = {
    castle: await sendTo(s, OTHELLO, 'Denmark', 'Castle'),
    castle2: await sendTo(s, OTHELLO, 'Denmark', 'castle'),
    moat: await sendTo(s, OTHELLO, 'Denmark', 'moat'),
    verona: await sendTo(s, OTHELLO, 'Verona', 'square'),
    dm: await sendDm(s, OTHELLO, [10]),
  };
  return { s, ids };
}

describe('POST /mark_all_as_read', () => {
  test('marks everything read and says so with an `all` event', async () => {
    const { s } = await someUnread();
    const events = recordEvents(s);
    const res = await call(s, 'POST', HAMLET, '/mark_all_as_read');
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '', complete: true }]);
    expect((await unreadOf(s, HAMLET)).count).toBe(0);
    expect(events.take()).toEqual([{ event: readEvent([], true), users: [10] }]);
  });

  test('the event goes out even when nothing was unread (clients reload anyway)', async () => {
    const s = allReadSim();
    const events = recordEvents(s);
    expect((await call(s, 'POST', HAMLET, '/mark_all_as_read')).body.complete).toBe(true);
    expect(events.take()).toEqual([{ event: readEvent([], true), users: [10] }]);
  });
});

describe('POST /mark_stream_as_read', () => {
  test("marks the user's messages of one channel read, and names them in the event", async () => {
    const { s, ids } = await someUnread();
    const events = recordEvents(s);
    const res = await call(s, 'POST', HAMLET, '/mark_stream_as_read', { stream_id: DENMARK });
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '' }]);
    expect(events.take()).toEqual([{ event: readEvent([ids.castle, ids.castle2, ids.moat]), users: [10] }]);
    const unread = await unreadOf(s, HAMLET);
    expect(unread.streams.map((g: { stream_id: number }) => g.stream_id)).toEqual([3]);
    expect(unread.count).toBe(2);
    // Nothing left: no event.
    await call(s, 'POST', HAMLET, '/mark_stream_as_read', { stream_id: DENMARK });
    expect(events.take()).toEqual([]);
  });

  const rows: [string, Record<string, unknown>, Record<string, unknown>, string?][] = [
    ['no stream_id', {}, error('REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", { var_name: 'stream_id' })],
    ['stream_id not an integer', { stream_id: '"4"' }, error('BAD_REQUEST', 'stream_id is not an integer')],
    ['an unknown channel', { stream_id: 999 }, error('BAD_REQUEST', 'Invalid channel ID')],
    ['a private channel one cannot read', { stream_id: 8 }, error('BAD_REQUEST', 'Invalid channel ID'), CORDELIA],
  ];
  test.each(rows)('%s', async (_name, body, expected, as) => {
    const res = await call(allReadSim(), 'POST', as ?? HAMLET, '/mark_stream_as_read', body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });

  test('an archived channel is no channel', async () => {
    const fixture = devFixture();
    fixture.streams.push({ id: 9, name: 'Elsinore', is_archived: true, subscribers: ['hamlet@zulip.com'] });
    const res = await call(stillSim(fixture), 'POST', HAMLET, '/mark_stream_as_read', { stream_id: 9 });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', 'Invalid channel ID')]);
  });
});

describe('POST /mark_topic_as_read', () => {
  test('marks one topic read, matching its name case-insensitively', async () => {
    const { s, ids } = await someUnread();
    const events = recordEvents(s);
    const res = await call(s, 'POST', HAMLET, '/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'CASTLE' });
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '' }]);
    expect(events.take()).toEqual([{ event: readEvent([ids.castle, ids.castle2]), users: [10] }]);
    expect((await unreadOf(s, HAMLET)).streams).toEqual([
      { stream_id: 3, topic: 'square', unread_message_ids: [ids.verona] },
      { stream_id: DENMARK, topic: 'moat', unread_message_ids: [ids.moat] },
    ]);
  });

  test('an empty topic_name marks the whole channel; the display name of the empty topic means that topic', async () => {
    const { s, ids } = await someUnread();
    const general = await sendTo(s, OTHELLO, 'Denmark', '');
    await call(s, 'POST', HAMLET, '/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'general chat' });
    expect((await unreadOf(s, HAMLET)).streams.map((g: { topic: string }) => g.topic)).toEqual(['square', 'Castle', 'moat']);
    expect(general).toBeGreaterThan(ids.dm);
    await call(s, 'POST', HAMLET, '/mark_topic_as_read', { stream_id: DENMARK, topic_name: '' });
    expect((await unreadOf(s, HAMLET)).streams.map((g: { topic: string }) => g.topic)).toEqual(['square']);
  });

  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['nothing given: topic_name is declared first', {}, error('REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument", { var_name: 'topic_name' })],
    ['no stream_id', { topic_name: 'castle' }, error('REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument", { var_name: 'stream_id' })],
    ['an unknown channel', { stream_id: 999, topic_name: 'castle' }, error('BAD_REQUEST', 'Invalid channel ID')],
    ['a topic with none of the user\'s messages', { stream_id: DENMARK, topic_name: 'dragons' }, error('BAD_REQUEST', "No such topic 'dragons'")],
  ];
  test.each(rows)('%s', async (_name, body, expected) => {
    const res = await call(allReadSim(), 'POST', HAMLET, '/mark_topic_as_read', body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });

  test("a topic only others received is no such topic for the user", async () => {
    const s = allReadSim();
    await sendTo(s, OTHELLO, 'Denmark', 'their own');
    // Cordelia can read Denmark's history but received none of it.
    const res = await call(s, 'POST', CORDELIA, '/mark_topic_as_read', { stream_id: DENMARK, topic_name: 'their own' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', "No such topic 'their own'")]);
  });
});
