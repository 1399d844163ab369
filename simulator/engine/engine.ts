/**
 * Builds an engine from a fixture: state loaded and validated, profile values rendered, the
 * message history seeded. Actions live in per-resource modules (`users.ts`, `channels.ts`,
 * `subscriptions.ts`, `messages/…`) as `check*`/`do*` functions taking `(engine, actor, params)`
 * and returning an `Outcome`; the read helpers they share are in `core.ts`.
 */
import type { Fixture } from '../../types/chat/fixture.ts';
import type { Engine } from './core.ts';
import { resumeRandom, seededRandom, type Clock, type Deps } from './deps.ts';
import { createEventQueues, restoreQueues, type QueuedEventObserver, type QueuesData } from './event-queue.ts';
import { loadFixture, validateFixture } from './fixture.ts';
import { seedMessages } from './messages/seed.ts';
import { simulatedClock } from './simulated-clock.ts';
import type { State } from './state.ts';
import { renderProfileData } from './users.ts';

export interface EngineOptions {
  seed?: number | string;
  clock: Clock;
  /** The fixture is known to be valid (validateFixture passed it): skip checking it again. */
  validated?: boolean;
  /** Shown every event as it enters a queue (see event-queue.ts). */
  observeEvents?: QueuedEventObserver | undefined;
}

export function createEngine(fixture: Fixture, options: EngineOptions): Engine {
  const deps: Deps = { clock: simulatedClock(options.clock), random: seededRandom(options.seed ?? 0) };
  const engine = { state: loadFixture(options.validated ? fixture : validateFixture(fixture), deps), deps } as Engine;
  engine.queues = createEventQueues(engine, options.seed ?? 0, options.observeEvents);
  // Profile values may mention users and channels: render once everything exists.
  for (const user of engine.state.users.values()) if (user.profile_data.size > 0) renderProfileData(engine, user);
  // Messages need users, channels and subscriptions in place, so the history is seeded last.
  seedMessages(engine, fixture.messages);
  return engine;
}

/** Where an engine stands beyond its state: its clock, random sources and event queues (see snapshots). */
export interface EngineContinuation {
  /** The simulated present and the latest reading handed out (null: none yet) of the engine being continued. */
  clock: { present: number; latest: number | null };
  /** `deps.random.getState()` of the engine being continued. */
  random: number[];
  queues: QueuesData;
}

/** Where the engine's simulated clock stands, for a continuation. */
export function clockPosition(engine: Engine): EngineContinuation['clock'] {
  const latest = engine.deps.clock.latest();
  return { present: engine.deps.clock.peek(), latest: Number.isFinite(latest) ? latest : null };
}

/**
 * An engine that continues another: its state (as decoded from a snapshot), its random source's
 * position and its event queues, on the given time source, moved forward to the continued
 * engine's present if it is behind (simulated time never goes back). The same calls then give the
 * same answers.
 */
export function resumeEngine(state: State, continuation: EngineContinuation, options: EngineOptions): Engine {
  const clock = simulatedClock(options.clock);
  clock.moveTo(continuation.clock.present);
  const latest = continuation.clock.latest;
  // What the continued engine handed out stays handed out: nothing runs before it.
  if (latest !== null) clock.pinned(latest, () => undefined);
  const deps: Deps = { clock, random: resumeRandom(continuation.random) };
  const engine = { state, deps } as Engine;
  engine.queues = createEventQueues(engine, options.seed ?? 0, options.observeEvents);
  restoreQueues(engine, continuation.queues);
  return engine;
}
