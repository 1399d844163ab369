/**
 * A parked GET /events (zerver/tornado/event_queue.py:ClientDescriptor): the engine said "nothing yet", so the request
 * waits on the queue, with a real timer, until the first of
 *   - events land (the engine calls the queue's waiter): answered with every unacknowledged event;
 *   - another poll on the same queue, or DELETE /events: answered the same way;
 *   - the timer: a heartbeat is pushed into the queue, which answers it like any event;
 *   - the request's signal (the client went away, or the server is shutting down): the waiter is
 *     detached and the poll answers at once with what the queue holds; the queue lives on.
 * A parked answer always names its queue (`queue_id`).
 */
import type { Engine } from '../engine/core.ts';
import { pushHeartbeat } from '../engine/events/delivery.ts';
import { contents, type EventQueue } from '../engine/events/queues.ts';
import { seededRandom } from '../engine/deps.ts';
import type { ResponseOf } from './route.ts';

export function parkPoll(engine: Engine, queue: EventQueue, timeoutMs: number, signal: AbortSignal | undefined): Promise<ResponseOf<'get-events'>> {
  return new Promise((resolve) => {
    const answer = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', release);
      resolve({ events: contents(queue), queue_id: queue.id });
    };
    const release = (): void => {
      clearTimeout(timer);
      if (queue.waiter === answer) queue.waiter = null;
      // Unacknowledged events stay queued for the next poll, whoever reads this answer.
      resolve({ events: contents(queue), queue_id: queue.id });
    };
    queue.waiter = answer;
    const timer = setTimeout(() => pushHeartbeat(engine, queue), timeoutMs);
    if (signal?.aborted) release();
    else signal?.addEventListener('abort', release, { once: true });
  });
}

/** Zulip's heartbeat delay: 45 s plus 0–10 whole seconds, drawn from a seeded source. */
export function zulipHeartbeatDelays(seed: number | string): () => number {
  const random = seededRandom(`${String(seed)}/heartbeats`);
  return () => 45_000 + random.int(0, 10) * 1000;
}
