/**
 * The simulated clock: the injected time source plus every move the simulator made, never going
 * backwards. Whoever injects the source keeps it (a test's manual clock, a stepping clock, the real
 * clock fed in by the server layer); the engine moves time only by adding to an offset, so any
 * source can be advanced, and a source that is switched (to follow real time, or to stop) takes
 * over from the present without a jump.
 */
import type { Clock } from './deps.ts';

export interface SimulatedClock extends Clock {
  /** A reading: the source's time plus the offset, never earlier than an earlier reading. */
  now(): number;
  /** The present without taking a reading from a source whose readings have effects. */
  peek(): number;
  /** The latest reading handed out (what the engine has already seen). */
  latest(): number;
  /** Move the present forward to `t` (nothing when it is already there or later). */
  moveTo(t: number): void;
  /** Every reading answers `t` while `run` runs: a due task happens at its own moment. */
  pinned<T>(t: number, run: () => T): T;
  /** Take time from another source from now on, continuing from the present. */
  setSource(source: Clock): void;
  readonly source: Clock;
}

export function simulatedClock(initial: Clock): SimulatedClock {
  let source = initial;
  let offset = 0;
  let last = Number.NEGATIVE_INFINITY;
  let pin: number | undefined;
  const look = (): number => (source.peek ? source.peek() : source.now()) + offset;
  const present = (): number => Math.max(last, look());
  return {
    get source() {
      return source;
    },
    now() {
      if (pin !== undefined) return pin;
      const t = source.now() + offset;
      // A source set back by its owner does not take the simulation back with it.
      last = Math.max(last, t);
      return last;
    },
    peek() {
      return pin ?? present();
    },
    latest() {
      return last;
    },
    moveTo(t) {
      if (t > present()) offset += t - look();
    },
    pinned(t, run) {
      const outer = pin;
      pin = t;
      try {
        return run();
      } finally {
        pin = outer;
        last = Math.max(last, t);
      }
    },
    setSource(next) {
      const p = present();
      source = next;
      offset = 0;
      offset = p - look();
    },
  };
}
