/**
 * Every state-changing action returns the events Zulip would send, and to whom; `commit` hands
 * them to the event queues (queues.ts), which deliver each one to the queues of its users,
 * adapted to each queue's options and capabilities. Effects stay canonical (modern shapes, `""`
 * topics, full avatar URLs): per-queue variants are made at delivery, as Tornado does.
 */
import { sortedDistinct } from '../fast/id-lists.ts';
import { FLAG_SPACE, type StoredMessage } from '../messages/store.ts';

export interface Effect {
  /**
   * The event as sent. Delivery-only keys, removed before queuing as Zulip removes them:
   * `inaccessible_user: true` on a `realm_user` `add` (dropped for `user_list_incomplete`
   * queues), a top-level `deactivated: true` on a `user_group` rename (dropped for queues
   * without `include_deactivated_groups`), `for_archiving` / `for_unarchiving` on a `stream`
   * `delete` / `create` and `for_reactivation` on a `user_group` `add` (the queues that keep
   * archived channels / deactivated groups skip those when true).
   */
  event: Record<string, unknown> & { type: string };
  /** IDs of the users who receive the event. */
  users: number[];
  /** Per-recipient keys merged into that user's copy (e.g. `flags` of an `update_message`). */
  perUser?: ReadonlyMap<number, Record<string, unknown>>;
  /** Set on `message` events: the message is finalized per queue at delivery. */
  message?: MessageFanout;
}

/** What a `message` event needs at delivery (zerver/tornado/event_queue.py:process_message_event). */
export interface MessageFanout {
  stored: StoredMessage;
  /**
   * Each recipient's flag bits at send time, packed as the message's `userFlags` are (user id ×
   * FLAG_SPACE + bits, ascending user id), read with flagBitsAtSend. Users in `Effect.users`
   * missing here get `[]`.
   */
  flags: readonly number[];
  /** A public-channel message also reaches every queue with `all_public_streams` or a narrow. */
  publicChannel: boolean;
  /** `queue_id` and `local_id` of the send request: that queue gets `local_message_id`. */
  senderQueueId?: string | undefined;
  localId?: string | undefined;
}

/** A recipient's flag bits at send time (binary search of the packed rows), or null without a row. */
export function flagBitsAtSend(fanout: MessageFanout, userId: number): number | null {
  const rows = fanout.flags;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const row = rows[mid]!;
    const rowUser = Math.floor(row / FLAG_SPACE);
    if (rowUser === userId) return row - rowUser * FLAG_SPACE;
    if (rowUser < userId) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

export interface Outcome<T> {
  value: T;
  events: Effect[];
}

export function outcome<T>(value: T, events: Effect[] = []): Outcome<T> {
  return { value, events };
}

/**
 * Whether a route handler's answer is an Outcome (its events still to commit) rather than its
 * success fields: no response schema has both a top-level `value` and `events` (a test holds
 * them to it), and this runs once per request, so it reads two properties and allocates nothing.
 */
export function isOutcome(answer: unknown): answer is Outcome<unknown> {
  return typeof answer === 'object' && answer !== null && 'value' in answer && Array.isArray((answer as { events?: unknown }).events);
}

/** An outcome's events with another value (the route answers `{}` for an action's result). */
export function withValue<T>(done: Outcome<unknown>, value: T): Outcome<T> {
  return { value, events: done.events };
}

/** An outcome's value transformed, its events kept. */
export function mapOutcome<A, B>(done: Outcome<A>, f: (value: A) => B): Outcome<B> {
  return { value: f(done.value), events: done.events };
}

/**
 * Several actions of one request as one outcome: their events in the order the actions ran
 * (what `commit` after each would have published), and the request's value. Zulip sends a
 * request's events when its transaction commits, so they reach the queues together.
 */
export function combineOutcomes<T>(value: T, ...done: readonly Outcome<unknown>[]): Outcome<T> {
  if (done.length === 1) return { value, events: done[0]!.events };
  const events: Effect[] = [];
  for (const d of done) for (const e of d.events) events.push(e);
  return { value, events };
}

export function effect(event: Effect['event'], users: Iterable<number>): Effect {
  return { event, users: sortedDistinct(users) };
}
