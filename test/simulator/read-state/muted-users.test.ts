// Muted users: POST/DELETE /users/me/muted_users/{id} with each of Zulip's errors, the `muted_users`
// event (to the muter alone, with the simulated clock's timestamps) and /register's `muted_users`,
// and what muting does to read state: the muted user's messages are marked read at once, and their
// later messages arrive read, mentions included, until unmuted.
import { describe, expect, test } from 'vitest';
import { register } from '../events/helpers.ts';
import { clockedSim } from '../messages/helpers.ts';
import { allReadSim, call, error, flagsOf, HAMLET, IAGO, NOW, OTHELLO, recordEvents, sendDm, sendTo, stillSim, unreadOf } from './helpers.ts';

const { hamlet, iago, othello, prospero, notificationBot, defaultBot, nagiosBot } = {
  hamlet: 10,
  iago: 11,
  othello: 12,
  prospero: 14,
  notificationBot: 4,
  defaultBot: 16,
  nagiosBot: 2,
};
type Sim = ReturnType<typeof stillSim>;
const mute = (s: Sim, as: string, id: number | string) => call(s, 'POST', as, `/users/me/muted_users/${id}`);
const unmute = (s: Sim, as: string, id: number | string) => call(s, 'DELETE', as, `/users/me/muted_users/${id}`);
const success = { result: 'success', msg: '' };

/** Every message id the user has unread, from /register's unread_msgs. */
async function unreadIds(s: Sim, as: string): Promise<number[]> {
  const unread = await unreadOf(s, as);
  const ids = [...unread.pms, ...unread.huddles, ...unread.streams].flatMap((g: { unread_message_ids: number[] }) => g.unread_message_ids);
  return ids.sort((a, b) => a - b);
}

describe('POST and DELETE /users/me/muted_users/{id}', () => {
  test('muting answers success and tells the muter alone, with the time of the mute', async () => {
    const s = allReadSim();
    const events = recordEvents(s);
    const res = await mute(s, HAMLET, othello);
    expect([res.status, res.body]).toEqual([200, success]);
    expect(events.take()).toEqual([{ event: { type: 'muted_users', muted_users: [{ id: othello, timestamp: NOW }] }, users: [hamlet] }]);
    const state = await register(s, HAMLET, { fetch_event_types: ['muted_users'] });
    expect(state.muted_users).toEqual([{ id: othello, timestamp: NOW }]);
    expect((await register(s, OTHELLO, { fetch_event_types: ['muted_users'] })).muted_users).toEqual([]);
  });

  test('the list keeps each mute with its own time, oldest first; unmuting drops one and sends the rest', async () => {
    const { s, advance, now } = clockedSim();
    const first = now();
    await mute(s, HAMLET, prospero);
    advance(90);
    await mute(s, HAMLET, iago);
    const state = await register(s, HAMLET, { fetch_event_types: ['muted_users'] });
    expect(state.muted_users).toEqual([
      { id: prospero, timestamp: first },
      { id: iago, timestamp: first + 90 },
    ]);
    const events = recordEvents(s);
    const res = await unmute(s, HAMLET, prospero);
    expect([res.status, res.body]).toEqual([200, success]);
    expect(events.take()).toEqual([{ event: { type: 'muted_users', muted_users: [{ id: iago, timestamp: first + 90 }] }, users: [hamlet] }]);
  });

  test('bots, deactivated users and system bots can be muted', async () => {
    const s = stillSim();
    await call(s, 'DELETE', IAGO, `/users/${prospero}`);
    for (const id of [defaultBot, prospero, notificationBot, nagiosBot]) {
      const res = await mute(s, HAMLET, id);
      expect([id, res.status, res.body]).toEqual([id, 200, success]);
    }
  });

  test.each([
    ['muting oneself', 'POST', hamlet, 'Cannot mute self'],
    ['muting nobody', 'POST', 999, 'No such user'],
    ['unmuting nobody', 'DELETE', 999, 'No such user'],
    ['unmuting someone not muted', 'DELETE', othello, 'User is not muted'],
    ['unmuting oneself', 'DELETE', hamlet, 'User is not muted'],
  ])('%s is refused', async (_name, method, id, msg) => {
    const s = stillSim();
    const events = recordEvents(s);
    const res = await call(s, method, HAMLET, `/users/me/muted_users/${id}`);
    expect([res.status, res.body]).toEqual([400, error('BAD_REQUEST', msg)]);
    expect(events.take()).toEqual([]);
  });

  test('muting twice is refused and keeps the first time', async () => {
    const { s, advance, now } = clockedSim();
    const first = now();
    await mute(s, HAMLET, othello);
    advance(60);
    const again = await mute(s, HAMLET, othello);
    expect([again.status, again.body]).toEqual([400, error('BAD_REQUEST', 'User already muted')]);
    expect((await register(s, HAMLET, { fetch_event_types: ['muted_users'] })).muted_users).toEqual([{ id: othello, timestamp: first }]);
  });

  test('an id that is not a number is no route at all', async () => {
    const s = stillSim();
    const res = await mute(s, HAMLET, 'othello');
    expect(res.status).toBe(404);
  });
});

describe('what muting does to read state', () => {
  test("muting marks the muted user's unread messages read, telling the muter before the new list", async () => {
    const s = allReadSim();
    const fromOthello = [await sendTo(s, OTHELLO, 'Denmark', 'plans'), await sendDm(s, OTHELLO, [hamlet])];
    const fromIago = await sendTo(s, IAGO, 'Denmark', 'plans');
    expect(await unreadIds(s, HAMLET)).toEqual([...fromOthello, fromIago]);
    const events = recordEvents(s);
    await mute(s, HAMLET, othello);
    expect(events.take()).toEqual([
      {
        event: { messages: fromOthello, all: false, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read' },
        users: [hamlet],
      },
      { event: { type: 'muted_users', muted_users: [{ id: othello, timestamp: NOW }] }, users: [hamlet] },
    ]);
    expect(await unreadIds(s, HAMLET)).toEqual([fromIago]);
    // Othello's messages stay unread for everyone else.
    expect(await flagsOf(s, IAGO, fromOthello[0]!)).not.toContain('read');
  });

  test("a muted sender's new messages arrive read for the muter alone, mentions included; after unmuting they are unread again", async () => {
    const s = allReadSim();
    await mute(s, HAMLET, othello);
    const events = recordEvents(s);
    const mention = await sendTo(s, OTHELLO, 'Denmark', 'plans', '@**King Hamlet** look');
    const dm = await sendDm(s, OTHELLO, [hamlet]);
    const delivered = events.take().filter((e) => e.event.type === 'message');
    const toHamlet = delivered.filter((e) => e.users.includes(hamlet)).map((e) => e.event.flags);
    expect(toHamlet).toEqual([['read', 'mentioned'], ['read']]);
    expect(await flagsOf(s, IAGO, mention)).not.toContain('read');
    const unread = await unreadOf(s, HAMLET);
    expect([unread.count, unread.mentions]).toEqual([0, []]);

    await unmute(s, HAMLET, othello);
    expect(await flagsOf(s, HAMLET, dm)).toContain('read');
    const later = await sendDm(s, OTHELLO, [hamlet]);
    expect(await unreadIds(s, HAMLET)).toEqual([later]);
  });

  test('a muted bot or system bot speaks read', async () => {
    const s = allReadSim();
    await mute(s, HAMLET, defaultBot);
    const id = await sendDm(s, 'default-bot@zulip.com', [hamlet], 'beep');
    expect(await flagsOf(s, HAMLET, id)).toContain('read');
    expect(await unreadIds(s, HAMLET)).toEqual([]);
  });
});
