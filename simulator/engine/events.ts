/**
 * Every state-changing action returns the events Zulip would send, and to whom. A later issue
 * delivers them through /register and /events; for now they are returned to the caller (and kept
 * in the engine's event log for tests).
 */
export interface Effect {
  event: Record<string, unknown> & { type: string };
  /** IDs of the users who receive the event. */
  users: number[];
}

export interface Outcome<T> {
  value: T;
  events: Effect[];
}

export function outcome<T>(value: T, events: Effect[] = []): Outcome<T> {
  return { value, events };
}

export function effect(event: Effect['event'], users: Iterable<number>): Effect {
  return { event, users: [...new Set(users)].sort((a, b) => a - b) };
}
