/**
 * The simulated clock over the control API (/__simulator/clock…), the same controls as
 * `sim.clock`; and the clock in snapshots: a restored simulator continues from the snapshot's
 * present, never earlier.
 */
import { describe, expect, it } from 'vitest';
import { CONTROL_PREFIX, createSimulator, fixedClock, manualClock, type Simulator } from '../../../simulator/index.ts';

const T = 1_700_200_000;
const DENMARK = 4;

const control = (s: Simulator, method: string, path: string, json?: unknown) =>
  s.request({ method, path: `${CONTROL_PREFIX}${path}`, ...(json === undefined ? {} : { json }) });
const schedule = (s: Simulator, at: number) =>
  s.request({
    method: 'POST',
    path: '/api/v1/scheduled_messages',
    as: 'hamlet@zulip.com',
    body: { type: 'stream', to: DENMARK, topic: 'later', content: 'Now it is time', scheduled_delivery_timestamp: at },
  });

describe('the clock over HTTP', () => {
  it('reads the present, advances it and runs what comes due on the way, in order', async () => {
    const s = createSimulator({ seed: 2, clock: fixedClock(T) });
    const id = (await schedule(s, T + 600)).body.scheduled_message_id as number;
    expect((await control(s, 'GET', '/clock')).body).toEqual({ now: T, following_real_time: false });
    const moved = await control(s, 'POST', '/clock/advance', { seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      from: T,
      to: T + 3600,
      occurred: [{ at: T + 600, kind: 'scheduled_message', scheduled_message_id: id, message_id: expect.any(Number), failure_message: null }],
    });
    const sent = s.engine.state.messages.messages.at(-1)!;
    expect([sent.content, sent.timestamp]).toEqual(['Now it is time', T + 600]);
    expect((await control(s, 'POST', '/clock/set', { time: T + 7200 })).body).toMatchObject({ from: T + 3600, to: T + 7200 });
    expect((await control(s, 'POST', '/clock/tick')).body).toEqual({ from: T + 7200, to: T + 7200, occurred: [] });
  });

  it('never goes back: an earlier moment or a negative step is refused with why, and nothing moves', async () => {
    const s = createSimulator({ seed: 2, clock: fixedClock(T) });
    const back = await control(s, 'POST', '/clock/set', { time: T - 1 });
    expect(back.status).toBe(400);
    expect(back.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: `The simulated clock never goes backwards: it reads ${T}, later than ${T - 1}.` });
    expect((await control(s, 'POST', '/clock/advance', { seconds: -5 })).body.msg).toBe('Invalid ClockAdvanceRequest: seconds: must be >= 0');
    expect(s.clock.now()).toBe(T);
  });

  it('follows real time from the present, and stops where it is', async () => {
    let real = T + 50_000;
    const s = createSimulator({ seed: 2, clock: fixedClock(T), realClock: () => real, realTimeTickMs: 0 });
    expect((await control(s, 'PUT', '/clock/real-time', { follow: true })).body).toEqual({ now: T, following_real_time: true });
    real += 30;
    expect((await control(s, 'GET', '/clock')).body).toEqual({ now: T + 30, following_real_time: true });
    expect((await control(s, 'PUT', '/clock/real-time', { follow: false })).body).toEqual({ now: T + 30, following_real_time: false });
    real += 30;
    expect(s.clock.now()).toBe(T + 30);
  });
});

describe('the clock in snapshots', () => {
  it("a restored simulator continues at the snapshot's present, and what was scheduled goes out there as in the original", async () => {
    const original = createSimulator({ seed: 2, clock: manualClock(T) });
    await schedule(original, T + 100_000);
    original.clock.advance(86_400);
    const snapshot = JSON.parse(JSON.stringify(original.snapshot()));
    expect(snapshot.clock).toEqual({ present: T + 86_400, latest: expect.any(Number) });

    const restored = createSimulator({ seed: 2, clock: manualClock(T) });
    restored.restore(snapshot);
    expect(restored.clock.now()).toBe(T + 86_400);
    const a = original.clock.advance(20_000);
    const b = restored.clock.advance(20_000);
    expect(b).toEqual(a);
    expect(restored.engine.state.messages.messages.at(-1)).toEqual(original.engine.state.messages.messages.at(-1));
  });

  it('restored event queues expire at the end of their lifespan, as the originals do', async () => {
    const original = createSimulator({ seed: 2, clock: manualClock(T) });
    const { queue_id: queueId } = (await original.request({ method: 'POST', path: '/api/v1/register', as: 'hamlet@zulip.com', body: {} })).body;
    const restored = createSimulator({ seed: 2, clock: manualClock(T) });
    restored.restore(JSON.parse(JSON.stringify(original.snapshot())));
    const expired = (s: Simulator) => s.clock.advance(700).occurred;
    expect(expired(restored)).toEqual([{ at: T + 600, kind: 'event_queues_expired', queue_ids: [queueId] }]);
    expect(expired(original)).toEqual([{ at: T + 600, kind: 'event_queues_expired', queue_ids: [queueId] }]);
  });

  it('a simulator whose time is already later keeps its time (time never goes back)', async () => {
    const snapshot = createSimulator({ seed: 2, clock: fixedClock(T) }).snapshot();
    const later = createSimulator({ seed: 2, clock: fixedClock(T + 999) });
    later.restore(snapshot);
    expect(later.clock.now()).toBe(T + 999);
  });
});
