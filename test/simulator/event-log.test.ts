// The engine keeps recent events for the later /events delivery, but never all of them: a
// simulator left running for days must not hold every message twice.
import { expect, test } from 'vitest';
import { commit, EVENT_LOG_LIMIT } from '../../simulator/engine/core.ts';
import { sim } from './helpers.ts';

test('the event log keeps the newest events and stays bounded', () => {
  const s = sim();
  const events = Array.from({ length: EVENT_LOG_LIMIT + 1 }, (_, i) => ({ event: { type: 'test', seq: i }, users: [10] }));
  expect(commit(s.engine, { value: 'done', events })).toBe('done');
  const log = s.engine.eventLog;
  expect(log.length).toBeLessThanOrEqual(EVENT_LOG_LIMIT);
  expect(log.length).toBeGreaterThanOrEqual(EVENT_LOG_LIMIT / 2);
  expect(log[log.length - 1]!.event).toEqual({ type: 'test', seq: EVENT_LOG_LIMIT });
  const seqs = log.map((e) => e.event.seq as number);
  expect(seqs).toEqual(Array.from({ length: log.length }, (_, i) => EVENT_LOG_LIMIT + 1 - log.length + i));
});
