/** Shared test seam: a simulator on the dev realm with a fixed clock, and compiled response schemas. */
import type { ValidateFunction } from 'ajv';
import { createSimulator, DEFAULT_FIXTURE, fixedClock, type Simulator, type SimulatorOptions } from '../../simulator/index.ts';
import { allocateQueue, capabilities as queueCapabilities, contents, type EventQueue, type QueueOptions } from '../../simulator/engine/events/queues.ts';
import type { Fixture } from '../../schemas/generated/types/chat/fixture.ts';
import { validatorFor } from '../contract/chat-contract.ts';

export const NOW = 1_700_100_000;

export function sim(options: SimulatorOptions = {}) {
  return createSimulator({ seed: 1, clock: fixedClock(NOW), ...options });
}

/** A deep copy of the dev fixture to modify in a test. */
export function devFixture(): Fixture {
  return structuredClone(DEFAULT_FIXTURE);
}

/** The dev realm before anyone has reported presence (its fixture has some users active and idle). */
export function devFixtureWithoutPresence(): Fixture {
  const fixture = devFixture();
  for (const user of fixture.users) delete user.presence;
  return fixture;
}

// The contract's compiled schemas (schemas/chat), for tests that check one object on its own.
export const validateUser = validatorFor('chat/user.schema.json')!;
export const validateOwnUser = validatorFor('chat/responses/get-own-user.schema.json')!;
export const validateChannel = validatorFor('chat/channel.schema.json')!;
export const validateEnvelope = validatorFor('chat/envelope.schema.json')!;

/** Throws with ajv's errors when `value` does not match. */
export function assertValid(validate: ValidateFunction, value: unknown): void {
  if (!validate(value)) throw new Error(JSON.stringify(validate.errors, null, 2));
}

// Dev-realm user ids (zilencer/management/commands/populate_db.py).
export const ID = {
  aaron: 6,
  zoe: 7,
  cordelia: 8,
  desdemona: 9,
  hamlet: 10,
  iago: 11,
  othello: 12,
  polonius: 13,
  prospero: 14,
  shiva: 15,
  defaultBot: 16,
  webhookBot: 17,
  outgoingBot: 18,
} as const;

export interface Delivered {
  /** The event as queued, without its per-queue `id`. */
  event: Record<string, any>;
  /** Who got exactly this event, ascending. */
  users: number[];
}

/**
 * One event queue for every active user of the realm (all event types, rendered content, the modern
 * capabilities), registered straight on the engine; `take()` reads and acknowledges them all and
 * groups identical events: each entry is one event and the users whose queues got it.
 */
export function watchEvents(s: Simulator, capabilities: Partial<Record<string, boolean>> = {}) {
  const engine = s.engine;
  const queues = new Map<number, EventQueue>();
  for (const user of engine.state.users.values()) {
    // System bots live in another realm upstream: no client of theirs polls this one.
    if (!user.is_active || user.is_system_bot) continue;
    const options: QueueOptions = {
      eventTypes: null,
      narrow: [],
      allPublicStreams: false,
      applyMarkdown: true,
      clientGravatar: false,
      slimPresence: false,
      capabilities: queueCapabilities({ bulk_message_deletion: true, empty_topic_name: true, user_settings_object: true, ...capabilities }),
      lifespanSecs: 0,
      clientName: 'test',
    };
    queues.set(user.id, allocateQueue(engine, user.id, options));
  }
  const read = (q: EventQueue): Record<string, any>[] => {
    const events = contents(q).map(({ id: _id, ...event }) => event);
    q.events = [];
    return events;
  };
  return {
    queueOf(userId: number): EventQueue {
      return queues.get(userId)!;
    },
    /** The events one user's queue got since the last read, in order (and acknowledged). */
    of(userId: number): Record<string, any>[] {
      return read(queues.get(userId)!);
    },
    /**
     * Every queue's events since the last read, grouped: one entry per event with the users who
     * got it, in an order that agrees with every user's own queue.
     */
    take(): Delivered[] {
      const groups = new Map<string, Delivered>();
      const after = new Map<string, Set<string>>();
      for (const [userId, q] of queues) {
        const seen = new Map<string, number>();
        let previous: string | undefined;
        for (const event of read(q)) {
          const json = JSON.stringify(event);
          const n = seen.get(json) ?? 0;
          seen.set(json, n + 1);
          const key = `${n}:${json}`;
          const group = groups.get(key);
          if (group) group.users.push(userId);
          else {
            groups.set(key, { event, users: [userId] });
            after.set(key, new Set());
          }
          if (previous !== undefined) after.get(previous)!.add(key);
          previous = key;
        }
      }
      // Topological order (each queue's order is a chain), ties by first appearance.
      const incoming = new Map([...groups.keys()].map((k) => [k, 0]));
      for (const next of after.values()) for (const k of next) incoming.set(k, incoming.get(k)! + 1);
      const order: string[] = [];
      const ready = [...groups.keys()].filter((k) => incoming.get(k) === 0);
      const rank = new Map([...groups.keys()].map((k, i) => [k, i]));
      while (ready.length > 0) {
        ready.sort((a, b) => rank.get(a)! - rank.get(b)!);
        const k = ready.shift()!;
        order.push(k);
        for (const next of after.get(k)!) {
          incoming.set(next, incoming.get(next)! - 1);
          if (incoming.get(next) === 0) ready.push(next);
        }
      }
      return order.map((k) => {
        const g = groups.get(k)!;
        g.users.sort((a, b) => a - b);
        return g;
      });
    },
  };
}
