/**
 * A channel's stream_weekly_traffic is counted from the channel's message ids by a binary search
 * over time (channels.ts, store.ts countSentSince), not by reading every recent message. These
 * tests hold it to the figure recomputed the slow way, from every stored message, after any mix
 * of sends, moves between channels, deletions and clock advances.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulator, manualClock, type Simulator } from '../../simulator/index.ts';
import { ID } from './helpers.ts';

const DAY = 86_400;
const START = 1_700_134_020 + 3600;
const CHANNELS = ['Verona', 'Denmark', 'weekly-fresh'];

/** Zulip's figure, from scratch: messages of the last 28 days per week of age (at most four), two significant digits. */
function recomputed(s: Simulator, streamId: number, now: number): number | null {
  const stream = s.engine.state.streams.get(streamId)!;
  const age = now - stream.date_created;
  if (age < 7 * DAY) return null;
  const recent = s.engine.state.messages.messages.filter((m) => m.streamId === streamId && m.timestamp >= now - 28 * DAY).length;
  const perWeek = recent / (Math.min(age, 28 * DAY) / (7 * DAY));
  if (perWeek === 0) return 0;
  const factor = 10 ** (1 - Math.floor(Math.log10(perWeek)));
  return Math.round(Math.round(perWeek * factor) / factor);
}

type Op =
  | { kind: 'send'; channel: number; count: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'move'; pick: number; channel: number }
  | { kind: 'delete'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('send' as const), channel: fc.nat({ max: 2 }), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 12 * DAY }) }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), channel: fc.nat({ max: 2 }) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

async function setUp(): Promise<{ s: Simulator; clock: ReturnType<typeof manualClock>; ids: number[] }> {
  const clock = manualClock(START);
  const s = createSimulator({ seed: 1, clock });
  // A channel created now: younger than a week, then younger than four.
  const res = await s.request({ method: 'POST', path: '/api/v1/users/me/subscriptions', as: ID.iago, body: { subscriptions: [{ name: 'weekly-fresh' }] } });
  expect(res.status).toBe(200);
  const ids = CHANNELS.map((name) => s.engine.state.streams.get(s.engine.state.streamsByName.get(name.toLowerCase())!)!.id);
  return { s, clock, ids };
}

async function apply(s: Simulator, clock: ReturnType<typeof manualClock>, ids: number[], o: Op): Promise<void> {
  const stored = () => s.engine.state.messages.messages.filter((m) => m.streamId !== null);
  if (o.kind === 'advance') clock.advance(o.seconds);
  if (o.kind === 'send') {
    for (let i = 0; i < o.count; i++) {
      const res = await s.request({ method: 'POST', path: '/api/v1/messages', as: ID.iago, body: { type: 'stream', to: CHANNELS[o.channel], topic: 'traffic', content: 'hi' } });
      expect(res.status).toBe(200);
    }
  }
  if (o.kind === 'move') {
    const messages = stored();
    const m = messages[o.pick % messages.length]!;
    const res = await s.request({ method: 'PATCH', path: `/api/v1/messages/${m.id}`, as: ID.iago, body: { stream_id: ids[o.channel], propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false } });
    // Moving to the channel it is in already is a refusal; anything else an administrator may do.
    if (m.streamId !== ids[o.channel]) expect(res.body).toMatchObject({ result: 'success' });
  }
  if (o.kind === 'delete') {
    const messages = stored();
    const res = await s.request({ method: 'DELETE', path: `/api/v1/messages/${messages[o.pick % messages.length]!.id}`, as: ID.iago });
    expect(res.status).toBe(200);
  }
}

async function weekly(s: Simulator): Promise<Map<number, number | null>> {
  const res = await s.request({ method: 'GET', path: '/api/v1/streams', as: ID.iago });
  expect(res.status).toBe(200);
  return new Map(res.body.streams.map((c: { stream_id: number; stream_weekly_traffic: number | null }) => [c.stream_id, c.stream_weekly_traffic]));
}

describe('stream_weekly_traffic', () => {
  it('equals the figure recomputed from every message after sends, moves, deletions and clock advances', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const { s, clock, ids } = await setUp();
        for (const o of ops) {
          await apply(s, clock, ids, o);
          const shown = await weekly(s);
          for (const id of ids) expect(shown.get(id)).toBe(recomputed(s, id, clock.now()));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('counts a busy channel: 50 messages a day for five weeks is 350 a week, once the oldest week is out of the window', async () => {
    const { s, clock, ids } = await setUp();
    for (let day = 0; day < 35; day++) {
      await apply(s, clock, ids, { kind: 'send', channel: 2, count: 50 });
      clock.advance(DAY);
    }
    const shown = await weekly(s);
    // The last 28 days hold days 7..34 (the send on day 7 is exactly 28 days old: counted).
    expect(shown.get(ids[2]!)).toBe(350);
    expect(recomputed(s, ids[2]!, clock.now())).toBe(350);
  });
});
