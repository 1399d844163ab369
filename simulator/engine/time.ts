/**
 * Moving the simulated clock: the one step that takes time forward and runs, in time order,
 * everything that comes due on the way, each at its own moment (the clock reads that moment while
 * it runs, and its events are committed before the next one runs). What is time-driven:
 *
 * - event queues nobody polled for their lifespan are gone (events/queues.ts);
 * - members past the realm's waiting period join role:fullmembers (groups/system-groups.ts);
 * - scheduled messages are sent, or fail (messages/scheduled.ts).
 *
 * At the same moment they run in that order. The step is called with a target by whoever moves
 * time (the simulator's clock controls) and with the clock's own present before every request
 * (`catchUp`), so a clock that moves by itself (a stepping clock, a test's manual clock, the real
 * clock) delivers what came due as a running Zulip server would have.
 */
import { commit, type Engine } from './core.ts';
import { ChatError } from './errors.ts';
import { outcome, type Outcome } from './events/effects.ts';
import { expireQueues, nextQueueExpiry } from './events/queues.ts';
import { deliverNextScheduledMessage, nextScheduledDelivery, type ScheduledDelivery } from './messages/scheduled.ts';
import { nextFullMemberPromotion, promoteFullMembers } from './groups/system-groups.ts';

/** One thing that happened on the way, at the moment it happened. */
export type TimedOccurrence =
  | { at: number; kind: 'event_queues_expired'; queue_ids: string[] }
  | { at: number; kind: 'full_members_promoted'; user_ids: number[] }
  | ({ at: number; kind: 'scheduled_message' } & ScheduledDelivery);

export interface ClockReport {
  /** The present before and after the step, Unix seconds. */
  from: number;
  to: number;
  /** What ran, in the order it ran. */
  occurred: TimedOccurrence[];
}

interface TimedWork {
  /**
   * The earliest moment something of this kind is due, if anything is waiting: exact when it is
   * by `until`; past `until`, any moment before which nothing is due (so a cheap bound will do).
   */
  next(engine: Engine, until: number): number | undefined;
  /** Do what is due at the present (the clock reads it), with its events. */
  run(engine: Engine, at: number): Outcome<TimedOccurrence | undefined>;
}

/** In the order they run when due at the same moment. */
const TIMED_WORK: readonly TimedWork[] = [
  {
    next: nextQueueExpiry,
    run(engine, at) {
      const queueIds = expireQueues(engine, at);
      return outcome(queueIds.length > 0 ? { at, kind: 'event_queues_expired', queue_ids: queueIds } : undefined);
    },
  },
  {
    next: nextFullMemberPromotion,
    run(engine, at) {
      const { value: userIds, events } = promoteFullMembers(engine, at);
      return outcome(userIds.length > 0 ? { at, kind: 'full_members_promoted', user_ids: userIds } : undefined, events);
    },
  },
  {
    next: nextScheduledDelivery,
    run(engine, at) {
      const delivered = deliverNextScheduledMessage(engine);
      return delivered ? outcome({ at, kind: 'scheduled_message', ...delivered.value }, delivered.events) : outcome(undefined);
    },
  },
];

/** The present, without taking a reading (a stepping clock does not step). */
export function clockNow(engine: Engine): number {
  return engine.deps.clock.peek();
}

function earliestDue(engine: Engine, until: number): { work: TimedWork; at: number } | undefined {
  let found: { work: TimedWork; at: number } | undefined;
  for (const work of TIMED_WORK) {
    const at = work.next(engine, until);
    if (at !== undefined && at <= until && (!found || at < found.at)) found = { work, at };
  }
  return found;
}

/** Finite seconds, or the refusal every clock move gives. */
function checkFinite(value: number): void {
  if (!Number.isFinite(value)) throw ChatError.badRequest('The simulated time must be a finite number of seconds.');
}

/**
 * Move the clock forward to `target` (Unix seconds), running whatever comes due up to and
 * including it, in time order. Time never goes back: a target before the present is refused.
 */
export function advanceClock(engine: Engine, target: number): ClockReport {
  checkFinite(target);
  const from = engine.deps.clock.peek();
  if (target < from) {
    throw ChatError.badRequest(`The simulated clock never goes backwards: it reads ${from}, later than ${target}.`);
  }
  return step(engine, from, target);
}

/** Move the clock forward by `seconds` from the present (which a real-time source keeps moving). */
export function advanceClockBy(engine: Engine, seconds: number): ClockReport {
  checkFinite(seconds);
  if (seconds < 0) throw ChatError.badRequest(`The simulated clock never goes backwards: it cannot advance by ${seconds} seconds.`);
  const from = engine.deps.clock.peek();
  return step(engine, from, from + seconds);
}

/** Run what the clock's own movement has brought due (before each request, and on real-time ticks). */
export function catchUp(engine: Engine): ClockReport {
  const present = engine.deps.clock.peek();
  return step(engine, present, present);
}

/**
 * How far each engine's timed work has been run: up to the end of its last step. Something that
 * was due earlier but only became due since (a member reactivated after the waiting period) runs
 * at this moment, not back in the past.
 */
const settled = new WeakMap<Engine, number>();

function step(engine: Engine, from: number, target: number): ClockReport {
  const clock = engine.deps.clock;
  const occurred: TimedOccurrence[] = [];
  const floor = settled.get(engine) ?? Number.NEGATIVE_INFINITY;
  // Each run can make more work (a failure's notice is a message, not new timed work), so the
  // earliest due thing is looked up afresh every time.
  for (let due = earliestDue(engine, target); due; due = earliestDue(engine, target)) {
    // Nothing runs earlier than a moment the engine has already handed out or already settled.
    const at = Math.max(due.at, clock.latest(), floor);
    clock.moveTo(at);
    const work = due.work;
    const happened = clock.pinned(at, () => commit(engine, work.run(engine, at)));
    if (happened) occurred.push(happened);
    else if ((work.next(engine, at) ?? Infinity) <= at) throw new Error(`simulated clock: due work at ${at} made no progress`);
  }
  clock.moveTo(target);
  const to = clock.peek();
  settled.set(engine, to);
  return { from, to, occurred };
}
