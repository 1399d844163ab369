// The simulated clock (README: Simulated time): read it, move it forward (never back), follow real
// time; on the way, what comes due runs in time order at its own moment: event queues expire,
// members become full members, scheduled messages go out.
import { describe, expect, it } from 'vitest';
import { isChatError } from '../../simulator/engine/errors.ts';
import { createSimulator, manualClock, type Simulator } from '../../simulator/index.ts';
import { ID, NOW, devFixture, sim } from './helpers.ts';
import { poll, register } from './events/helpers.ts';

const { hamlet, iago, othello } = ID;

function call(s: Simulator, as: number, method: string, path: string, params?: Record<string, unknown>) {
  const where = method === 'GET' ? 'query' : 'body';
  return s.request({ method, path: `/api/v1${path}`, as, ...(params ? { [where]: params } : {}) });
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

});

describe('following real time', () => {
  function fakeReal(start: number) {
    let t = start;
    return { read: () => t, move: (seconds: number) => (t += seconds) };
  }

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
