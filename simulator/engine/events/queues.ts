/**
 * Event queues, as Zulip's Tornado keeps them (zerver/tornado/event_queue.py), on the simulated
 * clock: one queue per POST /register, owned by one user, holding events with per-queue IDs from
 * 0 until the client acknowledges them with the `last_event_id` of its next GET /events.
 *
 * This file is a queue's life: allocation, access, polling, acknowledgement and expiry. What enters
 * a queue is delivery.ts (which also makes the set of queues, since `commit` reaches delivery
 * through it); queues as plain data for snapshots are snapshots.ts. Nothing here waits: a
 * parked GET /events is the HTTP layer's business, which hangs a `waiter` on the queue and is
 * called back when events land.
 *
 * Lifetime: a queue nobody polls for its lifespan (600 s by default) is gone, checked exactly when
 * it is asked for, swept every 60 simulated seconds, and removed at its expiry when the clock step
 * (time.ts) passes it. Zulip bounds an unread queue by time only;
 * the simulator also drops one that holds MAX_QUEUED_EVENTS unacknowledged events (its client then
 * gets BAD_EVENT_QUEUE_ID and re-registers), so a stopped test clock cannot grow one without end.
 */
import type { Engine } from '../core.ts';
import type { Random } from '../deps.ts';
import { ChatError } from '../errors.ts';
import type { Effect } from './effects.ts';
import { eventNarrowPredicate, type EventNarrowPredicate, type EventNarrowTerm } from '../narrow/events.ts';

export const DEFAULT_QUEUE_LIFESPAN_SECS = 600;
export const MAX_QUEUE_LIFESPAN_SECS = 7 * 24 * 60 * 60;
export const GC_INTERVAL_SECS = 60;
export const MAX_QUEUED_EVENTS = 10_000;

/** client_capabilities keys (zerver/views/events_register.py), each a boolean defaulting to false. */
export const CLIENT_CAPABILITIES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
] as const;
export type ClientCapability = (typeof CLIENT_CAPABILITIES)[number];
export type Capabilities = Readonly<Record<ClientCapability, boolean>>;

export function capabilities(given: Partial<Record<string, boolean>> = {}): Capabilities {
  const out = {} as Record<ClientCapability, boolean>;
  for (const key of CLIENT_CAPABILITIES) out[key] = given[key] === true;
  return out;
}

export interface QueueOptions {
  /** null: every event type. */
  eventTypes: ReadonlySet<string> | null;
  narrow: readonly EventNarrowTerm[];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  capabilities: Capabilities;
  /** Seconds without a poll before the queue is collected (0 → the default, capped at 7 days). */
  lifespanSecs: number;
  /** The registering client's name (`client` parameter or User-Agent). */
  clientName: string;
  /** False for old mobile apps: pronouns profile fields reach them as short text (default true). */
  pronounsFieldTypeSupported?: boolean;
}

export type QueuedEvent = Record<string, unknown> & { type: string; id: number };

export interface EventQueue {
  readonly id: string;
  readonly userId: number;
  readonly options: QueueOptions;
  readonly accepts: EventNarrowPredicate;
  readonly timeoutSecs: number;
  /** Unacknowledged events, oldest first. */
  events: QueuedEvent[];
  nextEventId: number;
  newestPrunedId: number;
  /** Compressed flag events held aside until the queue is read (zerver/tornado/event_queue.py:EventQueue), by `flags/<op>/<flag>`. */
  virtual: Map<string, QueuedEvent>;
  lastConnectionTime: number;
  /** The parked GET /events, called (once) when the poll must be answered. */
  waiter: (() => void) | null;
}

export interface EventQueues {
  readonly byId: Map<string, EventQueue>;
  readonly byUser: Map<number, EventQueue[]>;
  /** Queues that also see public-channel messages they are no recipient of. */
  readonly realmWide: Set<EventQueue>;
  lastGc: number;
  /**
   * No queue expires before this (parked queues counted too, so that releasing one cannot make it
   * wrong): the clock step looks at the queues only once the present reaches it.
   */
  expiryHint: number;
  /** Deliver committed events (delivery.ts). */
  publish(effects: readonly Effect[]): void;
}

/** Shown every event as it enters a queue (the test suite's contract checks it against its schema). */
export type QueuedEventObserver = (event: Readonly<QueuedEvent>) => void;

/** What the queue modules share beyond the public face of the queues. */
export interface Internals extends EventQueues {
  engine: Engine;
  random: Random;
  observe: QueuedEventObserver | undefined;
}

export function internals(engine: Engine): Internals {
  return engine.queues as Internals;
}

/** Zulip's queue IDs are uuid4 strings; these are drawn from the seeded source. */
function uuid4(random: Random): string {
  const hex = random.string(32, '0123456789abcdef').split('');
  hex[12] = '4';
  hex[16] = '89ab'[random.int(0, 3)]!;
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---------------------------------------------------------------- lifetime

function now(engine: Engine): number {
  return engine.deps.clock.now();
}

function isExpired(q: EventQueue, at: number): boolean {
  return q.waiter === null && at >= expiresAt(q);
}

/** When an unpolled queue's lifespan ends (a parked poll keeps it alive meanwhile). */
function expiresAt(q: EventQueue): number {
  return q.lastConnectionTime + q.timeoutSecs;
}

export function removeQueue(queues: EventQueues, q: EventQueue): void {
  if (!queues.byId.delete(q.id)) return;
  const list = queues.byUser.get(q.userId);
  if (list) {
    const rest = list.filter((x) => x !== q);
    if (rest.length > 0) queues.byUser.set(q.userId, rest);
    else queues.byUser.delete(q.userId);
  }
  queues.realmWide.delete(q);
}

/** The periodic sweep (Zulip's 60-second GC), run when the queue endpoints are used. */
export function collectGarbage(engine: Engine, at = now(engine)): void {
  const queues = engine.queues;
  if (at - queues.lastGc < GC_INTERVAL_SECS) return;
  queues.lastGc = at;
  for (const q of [...queues.byId.values()]) if (isExpired(q, at)) removeQueue(queues, q);
}

/**
 * When the next queue nobody is polling runs out of lifespan (the clock step's timer): exact when
 * that is by `until`, else possibly just a moment after `until` before which none expires.
 */
export function nextQueueExpiry(engine: Engine, until: number): number | undefined {
  const queues = engine.queues;
  if (queues.expiryHint > until) return queues.expiryHint === Number.POSITIVE_INFINITY ? undefined : queues.expiryHint;
  let next: number | undefined;
  let hint = Number.POSITIVE_INFINITY;
  for (const q of queues.byId.values()) {
    const at = expiresAt(q);
    if (at < hint) hint = at;
    if (q.waiter === null && (next === undefined || at < next)) next = at;
  }
  queues.expiryHint = hint;
  return next;
}

/** Every queue expired at `at` is gone, at once (the clock step; the 60-second sweep is for requests). */
export function expireQueues(engine: Engine, at: number): string[] {
  const gone: string[] = [];
  for (const q of [...engine.queues.byId.values()]) {
    if (!isExpired(q, at)) continue;
    removeQueue(engine.queues, q);
    gone.push(q.id);
  }
  return gone;
}

export function badEventQueueId(queueId: string): ChatError {
  return new ChatError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { extra: { queue_id: queueId } });
}

/** access_client_descriptor: unknown, expired and other users' queues all look the same. */
export function accessQueue(engine: Engine, userId: number, queueId: string, at = now(engine)): EventQueue {
  const q = engine.queues.byId.get(queueId);
  if (q && isExpired(q, at)) removeQueue(engine.queues, q);
  if (!q || q.userId !== userId || !engine.queues.byId.has(queueId)) throw badEventQueueId(queueId);
  return q;
}

export function allocateQueue(engine: Engine, userId: number, options: QueueOptions, at = now(engine)): EventQueue {
  const queues = internals(engine);
  let id = uuid4(queues.random);
  while (queues.byId.has(id)) id = uuid4(queues.random);
  const lifespan = options.lifespanSecs === 0 ? DEFAULT_QUEUE_LIFESPAN_SECS : options.lifespanSecs;
  const q: EventQueue = {
    id,
    userId,
    options,
    accepts: eventNarrowPredicate(options.narrow),
    timeoutSecs: Math.min(lifespan, MAX_QUEUE_LIFESPAN_SECS),
    events: [],
    nextEventId: 0,
    newestPrunedId: -1,
    virtual: new Map(),
    lastConnectionTime: at,
    waiter: null,
  };
  queues.byId.set(id, q);
  queues.expiryHint = Math.min(queues.expiryHint, expiresAt(q));
  const list = queues.byUser.get(userId);
  if (list) list.push(q);
  else queues.byUser.set(userId, [q]);
  if (options.allPublicStreams || options.narrow.length > 0) queues.realmWide.add(q);
  return q;
}

// ---------------------------------------------------------------- reading

function isEmpty(q: EventQueue): boolean {
  return q.events.length === 0 && q.virtual.size === 0;
}

/** EventQueue.contents: held (virtual) events merged in by ID; then every unacknowledged event. */
export function contents(q: EventQueue): QueuedEvent[] {
  if (q.virtual.size > 0) {
    const merged: QueuedEvent[] = [];
    const held = [...q.virtual.values()].sort((a, b) => a.id - b.id);
    let i = 0;
    for (const e of q.events) {
      while (i < held.length && held[i]!.id < e.id) merged.push(held[i++]!);
      merged.push(e);
    }
    while (i < held.length) merged.push(held[i++]!);
    q.virtual.clear();
    q.events = merged;
  }
  return [...q.events];
}

function prune(q: EventQueue, through: number): void {
  let n = 0;
  while (n < q.events.length && q.events[n]!.id <= through) {
    q.newestPrunedId = q.events[n]!.id;
    n++;
  }
  if (n > 0) q.events.splice(0, n);
}

/** Answer the parked poll, if any (it reads the queue's contents itself). */
export function wake(q: EventQueue): void {
  const waiter = q.waiter;
  q.waiter = null;
  waiter?.();
}

export interface GetEventsParams {
  queueId: string | undefined;
  lastEventId: number | undefined;
  dontBlock: boolean;
  /** Options for a queue created by this very call (no queue_id, dont_block: zerver/tornado/views.py:get_events_backend). */
  newQueue?: () => QueueOptions;
}

export type GetEventsResult = { events: QueuedEvent[]; queueId?: string } | { park: EventQueue };

/** fetch_events (zerver/tornado/event_queue.py), in its order; `park` means: wait for events on that queue. */
export function getEvents(engine: Engine, userId: number, p: GetEventsParams): GetEventsResult {
  const at = now(engine);
  collectGarbage(engine, at);
  let q: EventQueue;
  let created = false;
  if (p.queueId === undefined) {
    if (!p.dontBlock || !p.newQueue) throw ChatError.badRequest("Missing 'queue_id' argument");
    q = allocateQueue(engine, userId, p.newQueue(), at);
    created = true;
  } else {
    if (p.lastEventId === undefined) throw ChatError.badRequest("Missing 'last_event_id' argument");
    q = accessQueue(engine, userId, p.queueId, at);
    if (p.lastEventId < q.newestPrunedId) {
      throw ChatError.badRequest(`An event newer than ${p.lastEventId} has already been pruned!`);
    }
    prune(q, p.lastEventId);
    if (q.newestPrunedId !== p.lastEventId) throw ChatError.badRequest(`Event ${p.lastEventId} was not in this queue`);
    // A second poll on the queue finishes the first one.
    wake(q);
  }
  // Every poll counts as activity (Zulip refreshes only on parking; see zerver/tornado/event_queue.py).
  q.lastConnectionTime = at;
  if (!isEmpty(q) || p.dontBlock) return created ? { events: contents(q), queueId: q.id } : { events: contents(q) };
  return { park: q };
}

/** DELETE /events: the parked poll is answered with what the queue holds, then the queue goes. */
export function deleteQueue(engine: Engine, userId: number, queueId: string): void {
  const at = now(engine);
  collectGarbage(engine, at);
  const q = accessQueue(engine, userId, queueId, at);
  removeQueue(engine.queues, q);
  wake(q);
}

/** Answer every parked poll and forget every queue (the simulator is being reset). */
export function closeAllQueues(engine: Engine): void {
  const all = [...engine.queues.byId.values()];
  for (const q of all) removeQueue(engine.queues, q);
  for (const q of all) wake(q);
}
