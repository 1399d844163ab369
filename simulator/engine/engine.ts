/**
 * Builds an engine from a fixture: state loaded and validated, profile values rendered, the
 * message history seeded. Actions live in per-resource modules (`users.ts`, `channels.ts`,
 * `subscriptions.ts`, `messages/…`) as `check*`/`do*` functions taking `(engine, actor, params)`
 * and returning an `Outcome`; the read helpers they share are in `core.ts`.
 */
import type { Fixture } from '../../types/chat/fixture.ts';
import type { Engine } from './core.ts';
import { seededRandom, type Clock, type Deps } from './deps.ts';
import { createEventQueues } from './event-queue.ts';
import { loadFixture } from './fixture.ts';
import { seedMessages } from './messages/seed.ts';
import { simulatedClock } from './simulated-clock.ts';
import { renderProfileData } from './users.ts';

export interface EngineOptions {
  seed?: number | string;
  clock: Clock;
}

export function createEngine(fixture: Fixture, options: EngineOptions): Engine {
  const deps: Deps = { clock: simulatedClock(options.clock), random: seededRandom(options.seed ?? 0) };
  const engine = { state: loadFixture(fixture, deps), deps } as Engine;
  engine.queues = createEventQueues(engine, options.seed ?? 0);
  // Profile values may mention users and channels: render once everything exists.
  for (const user of engine.state.users.values()) if (user.profile_data.size > 0) renderProfileData(engine, user);
  // Messages need users, channels and subscriptions in place, so the history is seeded last.
  seedMessages(engine, fixture.messages);
  return engine;
}
