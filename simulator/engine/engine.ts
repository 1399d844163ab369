/**
 * Builds an engine from a fixture: state loaded and validated, profile values rendered, the
 * message history seeded. Actions live in per-resource modules (`users/users.ts`, `channels/channels.ts`,
 * `channels/subscriptions.ts`, `messages/…`) as `check*`/`do*` functions taking `(engine, actor, params)`
 * and returning an `Outcome`; the read helpers they share are in `core.ts`.
 */
import type { Fixture } from '../../schemas/generated/types/chat/fixture.ts';
import { createEngineCaches } from './fast/caches.ts';
import type { Engine } from './core.ts';
import { fixedClock, resumeRandom, seededRandom, type Clock, type Deps } from './deps.ts';
import { createEventQueues } from './events/delivery.ts';
import type { QueuedEventObserver } from './events/queues.ts';
import { restoreQueues, type QueuesData } from './events/snapshots.ts';
import { loadFixture, validateFixture } from './fixture.ts';
import { seedMessages } from './messages/seed.ts';
import { simulatedClock } from './simulated-clock.ts';
import type { State } from './state.ts';
import { renderProfileData } from './users/users.ts';

export interface EngineOptions {
  seed?: number | string;
  clock: Clock;
  /** The fixture is known to be valid (validateFixture passed it): skip checking it again. */
  validated?: boolean;
  /**
   * The fixture never changes (deeply frozen, or held by nobody else): the realm it makes is
   * built once per seed and moment of loading, and each engine gets its own copy of it.
   */
  immutable?: boolean;
  /** Shown every event as it enters a queue (see events/queues.ts). */
  observeEvents?: QueuedEventObserver | undefined;
}

/**
 * A realm as a fixture and a seed make it at the moment it is loaded, before anyone has used it:
 * its state and where the random source then stands. Engines get copies, never this state.
 */
interface PristineRealm {
  loadedAt: number;
  state: State;
  random: readonly number[];
}

/**
 * Immutable fixture → seed → its realm at the latest moment it was loaded. Building a realm
 * (rendering and seeding its message history) takes several times as long as copying one, and
 * a test suite builds the same realm again and again; the fixture cannot change, and the build
 * depends on nothing else (the engine is pure), so the copy is the realm a build would make.
 */
const pristineRealms = new WeakMap<Fixture, Map<number | string, PristineRealm>>();
/** Realms kept per fixture (about 100 KB each for the dev realm): the seeds built most recently. */
const SEEDS_KEPT = 16;

/** Build the realm: every clock reading while it is built answers `loadedAt`. */
function buildRealm(fixture: Fixture, seed: number | string, loadedAt: number, validated: boolean): PristineRealm {
  const deps: Deps = { clock: simulatedClock(fixedClock(loadedAt)), random: seededRandom(seed) };
  const engine = { state: loadFixture(validated ? fixture : validateFixture(fixture), deps), deps, caches: createEngineCaches() } as Engine;
  // Nobody listens yet: the queues only receive what building the realm would publish.
  engine.queues = createEventQueues(engine, seed);
  // Profile values may mention users and channels: render once everything exists.
  for (const user of engine.state.users.values()) if (user.profile_data.size > 0) renderProfileData(engine, user);
  // Messages need users, channels and subscriptions in place, so the history is seeded last.
  seedMessages(engine, fixture.messages);
  return { loadedAt, state: engine.state, random: Object.freeze(deps.random.getState()) };
}

/** The immutable fixture's realm loaded at `loadedAt`, copied: shares nothing with any other engine's. */
function copyOfSharedRealm(fixture: Fixture, seed: number | string, loadedAt: number, validated: boolean): PristineRealm {
  let bySeed = pristineRealms.get(fixture);
  if (!bySeed) pristineRealms.set(fixture, (bySeed = new Map()));
  let pristine = bySeed.get(seed);
  if (pristine?.loadedAt !== loadedAt) {
    pristine = buildRealm(fixture, seed, loadedAt, validated);
    bySeed.delete(seed);
    bySeed.set(seed, pristine);
    if (bySeed.size > SEEDS_KEPT) bySeed.delete(bySeed.keys().next().value!);
  }
  return { loadedAt, state: structuredClone(pristine.state), random: pristine.random };
}

export function createEngine(fixture: Fixture, options: EngineOptions): Engine {
  const seed = options.seed ?? 0;
  const clock = simulatedClock(options.clock);
  // The realm is loaded at one moment, the engine's first reading of its clock.
  const loadedAt = clock.now();
  const validated = options.validated ?? false;
  const realm = options.immutable ? copyOfSharedRealm(fixture, seed, loadedAt, validated) : buildRealm(fixture, seed, loadedAt, validated);
  const engine = { state: realm.state, deps: { clock, random: resumeRandom(realm.random) }, caches: createEngineCaches() } as Engine;
  engine.queues = createEventQueues(engine, seed, options.observeEvents);
  return engine;
}

/** Where an engine stands beyond its state: its clock, random sources and event queues (see snapshots). */
export interface EngineContinuation {
  /** The simulated present and the latest reading handed out (null: none yet) of the engine being continued. */
  clock: { present: number; latest: number | null };
  /** `deps.random.getState()` of the engine being continued. */
  random: readonly number[];
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
  const engine = { state, deps, caches: createEngineCaches() } as Engine;
  engine.queues = createEventQueues(engine, options.seed ?? 0, options.observeEvents);
  restoreQueues(engine, continuation.queues);
  return engine;
}
