/**
 * Every state-changing action returns the events Zulip would send, and to whom; `commit` hands
 * them to the event queues (event-queue.ts), which deliver each one to the queues of its users,
 * adapted to each queue's options and capabilities. Effects stay canonical (modern shapes, `""`
 * topics, full avatar URLs): per-queue variants are made at delivery, as Tornado does.
 */
import { sortedDistinct } from './id-lists.ts';
import { FLAG_SPACE, type StoredMessage } from './messages/store.ts';

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

export function effect(event: Effect['event'], users: Iterable<number>): Effect {
  return { event, users: sortedDistinct(users) };
}
