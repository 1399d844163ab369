/**
 * Event queues as plain data and back (control/snapshot.ts saves and restores them with the
 * state): everything but a parked poll, which belongs to a connection.
 */
import type { Engine } from '../core.ts';
import { resumeRandom } from '../deps.ts';
import { internals, type EventQueue, type QueueOptions, type QueuedEvent } from './queues.ts';
import { eventNarrowPredicate } from '../narrow/events.ts';

/** One queue as plain data: everything but the parked poll, which belongs to a connection. */
export interface QueueData {
  id: string;
  userId: number;
  options: Omit<QueueOptions, 'eventTypes'> & { eventTypes: string[] | null };
  timeoutSecs: number;
  events: QueuedEvent[];
  nextEventId: number;
  newestPrunedId: number;
  virtual: [string, QueuedEvent][];
  lastConnectionTime: number;
}

/** Every queue in allocation order, the last sweep, and where the queue-id source stands. */
export interface QueuesData {
  queues: QueueData[];
  lastGc: number;
  random: number[];
}

export function queuesData(engine: Engine): QueuesData {
  const queues = internals(engine);
  return {
    queues: [...queues.byId.values()].map((q) => ({
      id: q.id,
      userId: q.userId,
      options: { ...q.options, eventTypes: q.options.eventTypes === null ? null : [...q.options.eventTypes] },
      timeoutSecs: q.timeoutSecs,
      events: q.events,
      nextEventId: q.nextEventId,
      newestPrunedId: q.newestPrunedId,
      virtual: [...q.virtual],
      lastConnectionTime: q.lastConnectionTime,
    })),
    lastGc: queues.lastGc,
    random: queues.random.getState(),
  };
}

/** Queues as `queuesData` gave them, on an engine that has none yet (nobody is parked on them). */
export function restoreQueues(engine: Engine, data: QueuesData): void {
  const queues = internals(engine);
  queues.random = resumeRandom(data.random);
  queues.lastGc = data.lastGc;
  // Unknown until the clock step next looks: it then finds the restored queues' earliest expiry.
  queues.expiryHint = Number.NEGATIVE_INFINITY;
  for (const d of data.queues) {
    const options: QueueOptions = { ...d.options, eventTypes: d.options.eventTypes === null ? null : new Set(d.options.eventTypes) };
    const q: EventQueue = {
      id: d.id,
      userId: d.userId,
      options,
      accepts: eventNarrowPredicate(options.narrow),
      timeoutSecs: d.timeoutSecs,
      events: d.events,
      nextEventId: d.nextEventId,
      newestPrunedId: d.newestPrunedId,
      virtual: new Map(d.virtual),
      lastConnectionTime: d.lastConnectionTime,
      waiter: null,
    };
    queues.byId.set(q.id, q);
    const list = queues.byUser.get(q.userId);
    if (list) list.push(q);
    else queues.byUser.set(q.userId, [q]);
    if (options.allPublicStreams || options.narrow.length > 0) queues.realmWide.add(q);
  }
}
