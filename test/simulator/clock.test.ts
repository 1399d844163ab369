// The simulated clock (docs/control-api.md: Simulated time): read it, move it forward (never back), follow real
// time; on the way, what comes due runs in time order at its own moment: event queues expire,
// members become full members, scheduled messages go out.
import { describe, expect, it } from 'vitest';
import { isChatError } from '../../simulator/engine/errors.ts';
import { createSimulator, manualClock, type Simulator } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim } from './helpers.ts';
import { poll, register } from './events/helpers.ts';

const { hamlet, iago, othello } = ID;
const VERONA = 3;

function call(s: Simulator, as: number, method: string, path: string, params?: Record<string, unknown>) {
  const where = method === 'GET' ? 'query' : 'body';
  return s.request({ method, path: `/api/v1${path}`, as, ...(params ? { [where]: params } : {}) });
}

const schedule = (s: Simulator, at: number, content = 'hello') =>
  call(s, hamlet, 'POST', '/scheduled_messages', { type: 'channel', to: VERONA, topic: 'clock', content, scheduled_delivery_timestamp: at });

async function newest(s: Simulator): Promise<Record<string, any>> {
  const res = await call(s, othello, 'GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false });
  return res.body.messages.at(-1);
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isChatError(error)) return `${error.code}: ${error.msg}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('reading and moving the clock', () => {
  it('reads the present without moving a stepping clock, and moves it by N seconds or to a later time', () => {
    const s = createSimulator({ seed: 1 });
    const start = s.clock.now();
    expect(s.clock.now()).toBe(start);
    expect(s.clock.advance(90)).toEqual({ from: start, to: start + 90, occurred: [] });
    expect(s.clock.now()).toBe(start + 90);
    expect(s.clock.set(start + 1000)).toEqual({ from: start + 90, to: start + 1000, occurred: [] });
    // The stepping clock goes on stepping from there: the next reading is a second later.
    expect(s.engine.deps.clock.now()).toBe(start + 1001);
  });

  it('never goes backwards: an earlier time, a negative step or a non-number is refused and changes nothing', () => {
    const s = sim();
    s.clock.advance(60);
    expect(refusal(() => s.clock.set(NOW))).toBe(`BAD_REQUEST: The simulated clock never goes backwards: it reads ${NOW + 60}, later than ${NOW}.`);
    expect(refusal(() => s.clock.advance(-1))).toMatch(/^BAD_REQUEST: The simulated clock never goes backwards/);
    expect(refusal(() => s.clock.advance(Number.NaN))).toBe('BAD_REQUEST: The simulated time must be a finite number of seconds.');
    expect(s.clock.now()).toBe(NOW + 60);
    expect(s.clock.advance(0)).toEqual({ from: NOW + 60, to: NOW + 60, occurred: [] });
  });

  it("does not follow a source its owner sets back, and moves any source forward (a test's fixed clock too)", () => {
    const owned = manualClock(NOW);
    const s = sim({ clock: owned });
    owned.advance(100);
    expect(s.engine.deps.clock.now()).toBe(NOW + 100);
    owned.set(NOW);
    expect(s.engine.deps.clock.now()).toBe(NOW + 100);
    const fixed = sim();
    fixed.clock.advance(3600);
    expect(fixed.engine.deps.clock.now()).toBe(NOW + 3600);
  });
});

describe('what comes due runs in time order, each at its own moment', () => {
  it('expires an event queue at the end of its lifespan, not a second before', async () => {
    const s = sim();
    const { queue_id } = await register(s, hamlet);
    expect(s.clock.advance(599).occurred).toEqual([]);
    expect((await poll(s, hamlet, { queue_id, last_event_id: -1, dont_block: true })).status).toBe(200);
    expect(s.clock.advance(599).occurred).toEqual([]);
    expect(s.clock.advance(1).occurred).toEqual([{ at: NOW + 1199, kind: 'event_queues_expired', queue_ids: [queue_id] }]);
    const res = await poll(s, hamlet, { queue_id, last_event_id: -1, dont_block: true });
    expect(res.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('makes a new member a full member when the waiting period ends, with the user_group event', async () => {
    const fixture = devFixture();
    // The fixture's members joined with the realm, more than a day before NOW: full members already.
    fixture.realm.waiting_period_threshold = 1;
    const s = sim({ fixture });
    const res = await call(s, iago, 'POST', '/users', { email: 'newbie@zulip.com', password: 'pw-newbie-1', full_name: 'Newbie' });
    const userId = res.body.user_id as number;
    const full = s.engine.state.realm.system_groups['role:fullmembers']!;
    const { queue_id } = await register(s, othello, { event_types: ['user_group'], queue_lifespan_secs: 2 * 86_400 });
    expect(s.clock.advance(86_400 - 1).occurred).toEqual([]);
    expect(s.clock.advance(1).occurred).toEqual([{ at: NOW + 86_400, kind: 'full_members_promoted', user_ids: [userId] }]);
    const events = (await poll(s, othello, { queue_id, last_event_id: -1, dont_block: true })).body.events;
    expect(events).toEqual([{ type: 'user_group', op: 'add_members', group_id: full, user_ids: [userId], id: 0 }]);
    const group = await call(s, othello, 'GET', `/user_groups/${full}/members/${userId}`);
    expect(group.body.is_user_group_member).toBe(true);
  });

  it('promotes a member reactivated after the waiting period at once, and none while deactivated', async () => {
    const fixture = devFixture();
    fixture.realm.waiting_period_threshold = 1;
    const s = sim({ fixture });
    const userId = (await call(s, iago, 'POST', '/users', { email: 'newbie@zulip.com', password: 'pw-newbie-1', full_name: 'Newbie' })).body.user_id as number;
    expect(s.clock.advance(60).occurred).toEqual([]);
    await call(s, iago, 'DELETE', `/users/${userId}`);
    expect(s.clock.advance(2 * 86_400).occurred.filter((o) => o.kind === 'full_members_promoted')).toEqual([]);
    await call(s, iago, 'POST', `/users/${userId}/reactivate`);
    expect(s.clock.advance(1).occurred).toEqual([{ at: NOW + 2 * 86_400 + 60, kind: 'full_members_promoted', user_ids: [userId] }]);
  });

  it('expires each queue at its own end, a newer one first when the older was polled, and a long-parked one once released', async () => {
    const s = sim({ longPollTimeoutMs: 60_000 });
    const older = (await register(s, hamlet)).queue_id;
    s.clock.advance(300);
    const newer = (await register(s, othello)).queue_id;
    s.clock.advance(200);
    await poll(s, hamlet, { queue_id: older, last_event_id: -1, dont_block: true });
    expect(s.clock.advance(400).occurred).toEqual([{ at: NOW + 900, kind: 'event_queues_expired', queue_ids: [newer] }]);
    expect(s.clock.advance(200).occurred).toEqual([{ at: NOW + 1100, kind: 'event_queues_expired', queue_ids: [older] }]);

    const parked = (await register(s, iago)).queue_id;
    const walkAway = new AbortController();
    const waiting = poll(s, iago, { queue_id: parked, last_event_id: -1 }, walkAway.signal);
    expect(s.clock.advance(700).occurred).toEqual([]);
    walkAway.abort();
    expect((await waiting).status).toBe(200);
    expect(s.clock.advance(0).occurred).toEqual([{ at: NOW + 1800, kind: 'event_queues_expired', queue_ids: [parked] }]);
  });

  it('runs a queue expiry, a promotion and scheduled messages in the order of their moments', async () => {
    const fixture = devFixture();
    fixture.realm.waiting_period_threshold = 1;
    const s = sim({ fixture });
    await call(s, iago, 'POST', '/users', { email: 'newbie@zulip.com', password: 'pw-newbie-1', full_name: 'Newbie' });
    await schedule(s, NOW + 86_400 + 5, 'after the promotion');
    await schedule(s, NOW + 30, 'before the expiry');
    await register(s, othello);
    const kinds = s.clock.advance(2 * 86_400).occurred.map((o) => [o.at - NOW, o.kind]);
    expect(kinds).toEqual([
      [30, 'scheduled_message'],
      [600, 'event_queues_expired'],
      [86_400, 'full_members_promoted'],
      [86_405, 'scheduled_message'],
    ]);
  });

  it('delivers on a request after a manual clock jumped, at the message time rather than late', async () => {
    const owned = manualClock(NOW);
    const s = sim({ clock: owned });
    await schedule(s, NOW + 60);
    owned.advance(7200);
    expect(await newest(s)).toMatchObject({ content: 'hello', timestamp: NOW + 60 });
  });

  it('is deterministic: the same requests and moves give the same state', async () => {
    const run = async () => {
      const s = createSimulator({ seed: 3 });
      await schedule(s, s.clock.now() + 120, 'one');
      await schedule(s, s.clock.now() + 60, 'two');
      s.clock.advance(30);
      await call(s, othello, 'POST', '/messages', { type: 'stream', to: 'Verona', topic: 'clock', content: 'between' });
      s.clock.advance(600);
      return JSON.stringify(s.snapshot());
    };
    expect(await run()).toBe(await run());
  });
});

describe('following real time', () => {
  function fakeReal(start: number) {
    let t = start;
    return { read: () => t, move: (seconds: number) => (t += seconds) };
  }

  it('starts at the real time and keeps up with it; what came due runs on tick() or the next request', async () => {
    const real = fakeReal(1_800_000_000.25);
    const s = createSimulator({ seed: 1, realTime: true, realClock: real.read, realTimeTickMs: 0 });
    expect(s.clock.followingRealTime).toBe(true);
    expect(s.clock.now()).toBe(1_800_000_000.25);
    real.move(10);
    expect(s.clock.now()).toBe(1_800_000_010.25);
    await schedule(s, 1_800_000_070);
    real.move(59);
    expect(s.clock.tick().occurred).toEqual([]);
    real.move(1);
    expect(s.clock.tick().occurred).toEqual([expect.objectContaining({ at: 1_800_000_070, kind: 'scheduled_message' })]);
    await schedule(s, 1_800_000_100, 'by request');
    real.move(100);
    expect(await newest(s)).toMatchObject({ content: 'by request', timestamp: 1_800_000_100 });
  });

  it('switches on from the simulated present without a jump, jumps ahead when advanced, and stops where it is', () => {
    const real = fakeReal(2_000_000_000);
    const s = sim({ realClock: real.read, realTimeTickMs: 0 });
    s.clock.followRealTime(true);
    expect(s.clock.now()).toBe(NOW);
    real.move(30);
    expect(s.clock.now()).toBe(NOW + 30);
    s.clock.advance(3600);
    real.move(5);
    expect(s.clock.now()).toBe(NOW + 3635);
    s.clock.followRealTime(false);
    expect(s.clock.followingRealTime).toBe(false);
    real.move(1000);
    expect(s.clock.now()).toBe(NOW + 3635);
    s.clock.advance(5);
    expect(s.clock.now()).toBe(NOW + 3640);
  });

  it('sends a due message on its own and wakes a waiting poll, with no request to prompt it', async () => {
    const real = fakeReal(1_800_000_000);
    const s = createSimulator({ seed: 1, realTime: true, realClock: real.read, realTimeTickMs: 5 });
    try {
      const { queue_id } = await register(s, othello, { event_types: ['message'] });
      await schedule(s, 1_800_000_030, 'on time');
      const waiting = poll(s, othello, { queue_id, last_event_id: -1 });
      real.move(30);
      const res = await waiting;
      expect(res.body.events).toEqual([expect.objectContaining({ type: 'message', message: expect.objectContaining({ content: 'on time', timestamp: 1_800_000_030 }) })]);
    } finally {
      s.clock.followRealTime(false);
    }
  });

  it('never refuses a request or a move because real time passed while it was being handled', async () => {
    let t = 1_800_000_000;
    // Every reading is a millisecond later, as a busy wall clock is.
    const s = createSimulator({ seed: 1, realTime: true, realClock: () => (t += 0.001), realTimeTickMs: 0 });
    expect((await call(s, hamlet, 'GET', '/users/me')).status).toBe(200);
    expect(s.clock.advance(0).occurred).toEqual([]);
    expect(s.clock.tick().occurred).toEqual([]);
  });

  it('keeps following after a reset', () => {
    const real = fakeReal(1_900_000_000);
    const s = sim({ realClock: real.read, realTimeTickMs: 0 });
    s.clock.followRealTime(true);
    s.reset();
    real.move(7);
    expect(s.clock.followingRealTime).toBe(true);
    expect(s.clock.now()).toBe(NOW + 7);
  });
});
