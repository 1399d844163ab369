/**
 * The simulated clock's controls, for the in-process API (`simulator.clock`) and anything that
 * exposes them further (a control API over HTTP calls these, never the engine's clock directly).
 * The engine owns the time source and the step that moves it (engine/time.ts); this layer adds
 * what a pure engine may not do: read the real clock and keep a timer, so that while the
 * simulation follows real time, what comes due happens without waiting for a request.
 */
import type { Clock } from './engine/deps.ts';
import type { Engine } from './engine/core.ts';
import { advanceClock, advanceClockBy, catchUp, clockNow, type ClockReport } from './engine/time.ts';

export type { ClockReport, TimedOccurrence } from './engine/time.ts';

export interface SimulatorClock {
  /** The simulated present in Unix seconds (looking does not move a stepping clock). */
  now(): number;
  /** Move forward `seconds` (not negative), running whatever comes due on the way, in time order. */
  advance(seconds: number): ClockReport;
  /** Move forward to `time` (Unix seconds, not before the present), likewise. */
  set(time: number): ClockReport;
  /** Run what the clock's own movement (real time, a stepping or manual clock) has brought due. */
  tick(): ClockReport;
  /**
   * Follow the real clock from the present on (time then passes at real speed, and advancing
   * still jumps ahead), or stop following it (time stands until moved).
   */
  followRealTime(on: boolean): void;
  readonly followingRealTime: boolean;
}

export interface ClockControlOptions {
  /** The real clock, Unix seconds: the one place the wall clock is read. Default: Date.now() / 1000. */
  realClock?: () => number;
  /**
   * While following real time, how often (ms) the present catches up with the real clock on its
   * own, so that scheduled messages go out and waiting polls hear of them. 0: only on requests
   * and tick(). Default 1000.
   */
  tickMs?: number;
  /** Called after every move of the clock, once what came due has run (webhook retries hang on it). */
  afterStep?: () => void;
}

export interface ClockControl extends SimulatorClock {
  /** The engine was replaced (a reset): it keeps following real time if the old one did. */
  rebind(): void;
  /** The real clock as a time source (for an engine that starts out on real time). */
  readonly realSource: Clock;
}

/** A clock that stands where it was set: time stops when real time is no longer followed. */
function standing(t: number): Clock {
  return { now: () => t, peek: () => t };
}

export function createClockControl(getEngine: () => Engine, options: ClockControlOptions = {}): ClockControl {
  const readReal = options.realClock ?? (() => Date.now() / 1000);
  const real: Clock = { now: readReal, peek: readReal };
  const tickMs = options.tickMs ?? 1000;
  let following = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  const afterStep = options.afterStep;
  const stepped = (report: ClockReport): ClockReport => {
    afterStep?.();
    return report;
  };

  function tick(): ClockReport {
    return stepped(catchUp(getEngine()));
  }

  function startTimer(): void {
    if (tickMs <= 0 || timer !== undefined) return;
    timer = setInterval(() => {
      try {
        tick();
      } catch (error) {
        console.error('simulator: the clock tick failed:', error);
      }
    }, tickMs);
    // A simulation that follows real time never keeps a process alive by itself.
    timer.unref?.();
  }

  function stopTimer(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  function follow(engine: Engine): void {
    if (engine.deps.clock.source !== real) engine.deps.clock.setSource(real);
  }

  return {
    now: () => clockNow(getEngine()),
    advance: (seconds) => stepped(advanceClockBy(getEngine(), seconds)),
    set(time) {
      return stepped(advanceClock(getEngine(), time));
    },
    tick,
    get followingRealTime() {
      return following;
    },
    followRealTime(on) {
      const engine = getEngine();
      if (on) {
        follow(engine);
        following = true;
        startTimer();
        return;
      }
      if (!following) return;
      // Whatever came due up to now happens before time stops.
      catchUp(engine);
      engine.deps.clock.setSource(standing(clockNow(engine)));
      following = false;
      stopTimer();
    },
    rebind() {
      if (following) follow(getEngine());
    },
    realSource: real,
  };
}
