// POST /messages/flags: which flags may change and how, messages one never received (historical
// rows), messages one may not read, marking unread outside one's channels, the event to the user
// alone, and Zulip's errors in Zulip's order.
import { describe, expect, test } from 'vitest';
import {
  allReadSim,
  call,
  CORDELIA,
  error,
  flagsOf,
  HAMLET,
  IAGO,
  idsIn,
  OTHELLO,
  recordEvents,
  sendDm,
  sendTo,
  unreadOf,
} from './helpers.ts';

const flags = (s: ReturnType<typeof allReadSim>, as: string, body: Record<string, unknown>) => call(s, 'POST', as, '/messages/flags', body);
const ok = (messages: number[], ignored: number[] = []) => ({
  result: 'success',
  msg: '',
  messages,
  ignored_because_not_subscribed_channels: ignored,
});
const DENMARK = 4;

describe('changing flags', () => {
  test('starring: the response echoes the request, the message shows the flag, the user alone hears of it', async () => {
    const s = allReadSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'stars');
    const events = recordEvents(s);
    const res = await flags(s, HAMLET, { messages: [id], op: 'add', flag: 'starred' });
    expect([res.status, res.body]).toEqual([200, ok([id])]);
    expect(await flagsOf(s, HAMLET, id)).toEqual(['starred']);
    expect(await flagsOf(s, IAGO, id)).toEqual([]);
    expect(events.take()).toEqual([
      { event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false }, users: [10] },
    ]);
  });

  test('messages that already have the value are skipped: not in the event, and no event when none changed', async () => {
    const s = allReadSim();
    const a = await sendTo(s, OTHELLO, 'Denmark', 'stars');
    const b = await sendTo(s, OTHELLO, 'Denmark', 'stars');
    await flags(s, HAMLET, { messages: [a], op: 'add', flag: 'starred' });
    const events = recordEvents(s);
    const res = await flags(s, HAMLET, { messages: [a, b], op: 'add', flag: 'starred' });
    expect(res.body).toEqual(ok([a, b]));
    expect(events.take().map((e) => e.event.messages)).toEqual([[b]]);
    const again = await flags(s, HAMLET, { messages: [a, b], op: 'add', flag: 'starred' });
    expect(again.body).toEqual(ok([a, b]));
    expect(events.take()).toEqual([]);
  });

  test('collapsed can be set and cleared; removing starred from an unstarred message does nothing', async () => {
    const s = allReadSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'long');
    await flags(s, HAMLET, { messages: [id], op: 'add', flag: 'collapsed' });
    expect(await flagsOf(s, HAMLET, id)).toEqual(['collapsed']);
    await flags(s, HAMLET, { messages: [id], op: 'remove', flag: 'collapsed' });
    expect(await flagsOf(s, HAMLET, id)).toEqual([]);
    const events = recordEvents(s);
    expect((await flags(s, HAMLET, { messages: [id], op: 'remove', flag: 'starred' })).status).toBe(200);
    expect(events.take()).toEqual([]);
  });

  test('marking read and unread moves the message in and out of the unread state', async () => {
    const s = allReadSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'news', 'Big news @**King Hamlet**');
    expect((await unreadOf(s, HAMLET)).streams).toEqual([{ stream_id: DENMARK, topic: 'news', unread_message_ids: [id] }]);
    await flags(s, HAMLET, { messages: [id], op: 'add', flag: 'read' });
    expect(await unreadOf(s, HAMLET)).toEqual({ pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false });
    const events = recordEvents(s);
    await flags(s, HAMLET, { messages: [id], op: 'remove', flag: 'read' });
    expect(await flagsOf(s, HAMLET, id)).toEqual(['mentioned']);
    expect(events.take()).toEqual([
      {
        event: {
          type: 'update_message_flags',
          op: 'remove',
          operation: 'remove',
          flag: 'read',
          messages: [id],
          all: false,
          message_details: { [id]: { type: 'stream', stream_id: DENMARK, topic: 'news', unmuted_stream_msg: true, mentioned: true } },
        },
        users: [10],
      },
    ]);
    expect(await unreadOf(s, HAMLET)).toMatchObject({ mentions: [id], count: 1 });
  });

  test('message_details of direct messages name the other participants (none for a note to self)', async () => {
    const s = allReadSim();
    const one = await sendDm(s, HAMLET, [11]);
    const self = await sendDm(s, HAMLET, [10]);
    const group = await sendDm(s, HAMLET, [8, 11]);
    await flags(s, HAMLET, { messages: [one, self, group], op: 'add', flag: 'read' });
    const events = recordEvents(s);
    await flags(s, HAMLET, { messages: [group, self, one], op: 'remove', flag: 'read' });
    expect(events.take()[0]!.event.message_details).toEqual({
      [one]: { type: 'private', user_ids: [11] },
      [self]: { type: 'private', user_ids: [] },
      [group]: { type: 'private', user_ids: [8, 11] },
    });
  });
});

describe('messages one never received', () => {
  test('starring a public channel message one was not subscribed to creates a historical row', async () => {
    const s = allReadSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'before');
    // Cordelia is not subscribed to Denmark, but its history is public.
    expect(await flagsOf(s, CORDELIA, id)).toEqual(['read', 'historical']);
    const events = recordEvents(s);
    const res = await flags(s, CORDELIA, { messages: [id], op: 'add', flag: 'starred' });
    expect(res.body).toEqual(ok([id]));
    expect(await flagsOf(s, CORDELIA, id)).toEqual(['read', 'starred', 'historical']);
    expect(events.take().map((e) => [e.event.messages, e.users])).toEqual([[[id], [8]]]);
    const starred = await call(s, 'POST', CORDELIA, '/register', { fetch_event_types: ['starred_messages'] });
    expect(starred.body.starred_messages).toContain(id);
    // A historical row is a row: the message is among her starred messages, and matches is:starred.
    expect(await idsIn(s, CORDELIA, [['is', 'starred']])).toContain(id);
    const matches = await s.request({ method: 'GET', path: '/api/v1/messages/matches_narrow', as: CORDELIA, query: { msg_ids: JSON.stringify([id]), narrow: JSON.stringify([['is', 'starred']]) } });
    expect(Object.keys(matches.body.messages)).toEqual([String(id)]);
  });

  test('marking such a message read is a no-op, as is unstarring it', async () => {
    const s = allReadSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'before');
    const events = recordEvents(s);
    expect((await flags(s, CORDELIA, { messages: [id], op: 'add', flag: 'read' })).body).toEqual(ok([id]));
    expect((await flags(s, CORDELIA, { messages: [id], op: 'remove', flag: 'starred' })).body).toEqual(ok([id]));
    expect(events.take()).toEqual([]);
    expect(await flagsOf(s, CORDELIA, id)).toEqual(['read', 'historical']);
  });

  test('after subscribing, marking an older message unread makes it unread (a historical row)', async () => {
    const s = allReadSim();
    const id = await sendTo(s, OTHELLO, 'Denmark', 'before');
    expect((await call(s, 'POST', CORDELIA, '/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] })).status).toBe(200);
    await flags(s, CORDELIA, { messages: [id], op: 'remove', flag: 'read' });
    expect(await flagsOf(s, CORDELIA, id)).toEqual(['historical']);
    expect((await unreadOf(s, CORDELIA)).streams).toEqual([{ stream_id: DENMARK, topic: 'before', unread_message_ids: [id] }]);
  });

  test('marking unread in a channel one is not subscribed to is skipped, and the channel reported', async () => {
    const s = allReadSim();
    const denmark = await sendTo(s, OTHELLO, 'Denmark', 'x');
    const verona = await sendTo(s, OTHELLO, 'Verona', 'y');
    await flags(s, CORDELIA, { messages: [verona], op: 'add', flag: 'read' });
    const events = recordEvents(s);
    const res = await flags(s, CORDELIA, { messages: [denmark, verona], op: 'remove', flag: 'read' });
    expect([res.status, res.body]).toEqual([200, ok([denmark, verona], [DENMARK])]);
    expect(await flagsOf(s, CORDELIA, denmark)).toEqual(['read', 'historical']);
    expect(await flagsOf(s, CORDELIA, verona)).toEqual([]);
    expect(events.take().map((e) => e.event.messages)).toEqual([[verona]]);
  });

  test('read on messages one cannot read (or that do not exist) is a silent no-op', async () => {
    const s = allReadSim();
    const dm = await sendDm(s, HAMLET, [11]);
    const secret = await sendTo(s, IAGO, 'core team', 'plans');
    const res = await flags(s, CORDELIA, { messages: [dm, secret, 999_999], op: 'add', flag: 'read' });
    expect([res.status, res.body]).toEqual([200, ok([dm, secret, 999_999])]);
  });

  const inaccessible: [string, (s: ReturnType<typeof allReadSim>) => Promise<number>][] = [
    ['a missing message', async () => 999_999],
    ['a direct message of others', (s) => sendDm(s, HAMLET, [11])],
    ['a private channel message', (s) => sendTo(s, IAGO, 'core team', 'plans')],
  ];
  test.each(inaccessible)('starring %s: Invalid message(s), and nothing changes', async (_name, make) => {
    const s = allReadSim();
    const mine = await sendTo(s, OTHELLO, 'Verona', 'fine');
    const bad = await make(s);
    const events = recordEvents(s);
    const res = await flags(s, CORDELIA, { messages: [mine, bad], op: 'add', flag: 'starred' });
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', 'Invalid message(s)')]);
    expect(await flagsOf(s, CORDELIA, mine)).toEqual([]);
    expect(events.take()).toEqual([]);
  });
});

describe('errors', () => {
  const rows: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['unknown flag', { messages: [1], op: 'add', flag: 'xyz' }, error('BAD_REQUEST', "Invalid flag: 'xyz'")],
    ['a flag the API does not show', { messages: [1], op: 'add', flag: 'is_private' }, error('BAD_REQUEST', "Invalid flag: 'is_private'")],
    ['the push bookkeeping flag', { messages: [1], op: 'add', flag: 'active_mobile_push_notification' }, error('BAD_REQUEST', "Invalid flag: 'active_mobile_push_notification'")],
    ['the legacy derived flag', { messages: [1], op: 'add', flag: 'wildcard_mentioned' }, error('BAD_REQUEST', "Invalid flag: 'wildcard_mentioned'")],
    ['mentioned', { messages: [1], op: 'add', flag: 'mentioned' }, error('BAD_REQUEST', "Flag not editable: 'mentioned'")],
    ['has_alert_word', { messages: [1], op: 'remove', flag: 'has_alert_word' }, error('BAD_REQUEST', "Flag not editable: 'has_alert_word'")],
    ['historical', { messages: [1], op: 'add', flag: 'historical' }, error('BAD_REQUEST', "Flag not editable: 'historical'")],
    ['group_mentioned', { messages: [1], op: 'add', flag: 'group_mentioned' }, error('BAD_REQUEST', "Flag not editable: 'group_mentioned'")],
    ['force_collapse', { messages: [1], op: 'add', flag: 'force_collapse' }, error('BAD_REQUEST', "Flag not editable: 'force_collapse'")],
    ['an unknown operation', { messages: [1], op: 'toggle', flag: 'read' }, error('BAD_REQUEST', "Invalid message flag operation: 'toggle'")],
    ['the flag is checked before the operation', { messages: [1], op: 'toggle', flag: 'xyz' }, error('BAD_REQUEST', "Invalid flag: 'xyz'")],
    ['flags are checked before the messages', { messages: [999_999], op: 'add', flag: 'mentioned' }, error('BAD_REQUEST', "Flag not editable: 'mentioned'")],
    ['no flag', { messages: [1], op: 'add' }, error('REQUEST_VARIABLE_MISSING', "Missing 'flag' argument", { var_name: 'flag' })],
    ['no messages', { op: 'add', flag: 'read' }, error('REQUEST_VARIABLE_MISSING', "Missing 'messages' argument", { var_name: 'messages' })],
    ['no op', { messages: [1], flag: 'read' }, error('REQUEST_VARIABLE_MISSING', "Missing 'op' argument", { var_name: 'op' })],
    ['flag is declared first', {}, error('REQUEST_VARIABLE_MISSING', "Missing 'flag' argument", { var_name: 'flag' })],
    ['messages not a list', { messages: 5, op: 'add', flag: 'read' }, error('BAD_REQUEST', 'messages is not a list')],
    ['messages not integers', { messages: ['a'], op: 'add', flag: 'read' }, error('BAD_REQUEST', 'messages[0] is not an integer')],
    ['messages not JSON', { messages: '[1,', op: 'add', flag: 'read' }, error('BAD_REQUEST', 'messages is not valid JSON')],
  ];
  test.each(rows)('%s', async (_name, body, expected) => {
    const res = await flags(allReadSim(), HAMLET, body);
    expect([res.status, res.body]).toEqual([400, expected]);
  });
});
