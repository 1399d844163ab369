// Short forms for the event-system tests: register a queue and poll it through the in-process API.
import type { Credentials, Simulator } from '../../../simulator/index.ts';

export async function register(s: Simulator, as: Credentials, body: Record<string, unknown> = {}) {
  const res = await s.request({ method: 'POST', path: '/api/v1/register', as, body });
  if (res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return res.body as { queue_id: string; last_event_id: number } & Record<string, any>;
}

export function poll(s: Simulator, as: Credentials, query: Record<string, unknown>, signal?: AbortSignal) {
  return s.request({ method: 'GET', path: '/api/v1/events', as, query, ...(signal ? { signal } : {}) });
}

/** Events available right now (dont_block), acknowledging nothing. */
export async function pending(s: Simulator, as: Credentials, queueId: string, lastEventId = -1) {
  const res = await poll(s, as, { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
  if (res.status !== 200) throw new Error(`poll failed: ${JSON.stringify(res.body)}`);
  return res.body.events as Record<string, any>[];
}

export function send(s: Simulator, as: Credentials, body: Record<string, unknown>) {
  return s.request({ method: 'POST', path: '/api/v1/messages', as, body });
}

/** Resolves to 'pending' if the promise has not settled after the microtasks of one turn. */
export async function settledYet(promise: Promise<unknown>): Promise<'settled' | 'pending'> {
  const marker = Symbol('pending');
  const result = await Promise.race([promise.then(() => 'settled' as const), new Promise((r) => setTimeout(() => r(marker), 20))]);
  return result === marker ? 'pending' : 'settled';
}
