/**
 * Event queues, as Zulip's Tornado keeps them (zerver/tornado/event_queue.py), on the simulated
 * clock: one queue per POST /register, owned by one user, holding events with per-queue IDs from
 * 0 until the client acknowledges them with the `last_event_id` of its next GET /events.
 *
 * `publish` (called by `commit` for every action) copies each event to every queue of every
 * listed user that accepts it, adapted to that queue's options and capabilities; a `message` is
 * finalized per queue here (rendered or raw content, gravatar, empty-topic name, flags,
 * local_message_id). Nothing here waits: a parked GET /events is the HTTP layer's business, which
 * hangs a `waiter` on the queue and is called back when events land.
 *
 * Lifetime: a queue nobody polls for its lifespan (600 s by default) is gone, checked exactly when
 * it is asked for, swept every 60 simulated seconds, and removed at its expiry when the clock step
 * (time.ts) passes it. Zulip bounds an unread queue by time only;
 * the simulator also drops one that holds MAX_QUEUED_EVENTS unacknowledged events (its client then
 * gets BAD_EVENT_QUEUE_ID and re-registers), so a stopped test clock cannot grow one without end.
 */
import type { Message } from '../../types/chat/message.ts';
import type { Engine } from './core.ts';
import { resumeRandom, seededRandom, type Random } from './deps.ts';
import { withoutPronounsType, type CustomProfileFieldDict } from './custom-profile-fields.ts';
import { ChatError } from './errors.ts';
import { flagBitsAtSend, type Effect, type MessageFanout } from './events.ts';
import { legacyDeleteMessageEvents } from './messages/delete.ts';
import { apiFlags, formatMessage } from './messages/format.ts';
import { eventNarrowPredicate, type EventNarrowPredicate, type EventNarrowTerm } from './narrow/events.ts';

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
  /** Deliver committed events (see the file comment). */
  publish(effects: readonly Effect[]): void;
}

/** Shown every event as it enters a queue (the test suite's contract checks it against its schema). */
export type QueuedEventObserver = (event: Readonly<QueuedEvent>) => void;

interface Internals extends EventQueues {
  engine: Engine;
  random: Random;
  observe: QueuedEventObserver | undefined;
}

export function createEventQueues(engine: Engine, seed: number | string, observe?: QueuedEventObserver): EventQueues {
  const queues: Internals = {
    engine,
    observe,
    // Queue IDs come from their own seeded stream, so registering never shifts the secrets
    // (API keys, tokens) the engine draws from its main one.
    random: seededRandom(`${String(seed)}/event-queues`),
    byId: new Map(),
    byUser: new Map(),
    realmWide: new Set(),
    lastGc: Number.NEGATIVE_INFINITY,
    expiryHint: Number.POSITIVE_INFINITY,
    publish(effects) {
      if (queues.byId.size === 0) return;
      const woken = new Set<EventQueue>();
      for (const e of effects) {
        if (e.message) deliverMessage(queues, e, e.message, woken);
        else deliverEvent(queues, e, woken);
      }
      for (const q of woken) wake(q);
    },
  };
  return queues;
}

function internals(engine: Engine): Internals {
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

function remove(queues: EventQueues, q: EventQueue): void {
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
  for (const q of [...queues.byId.values()]) if (isExpired(q, at)) remove(queues, q);
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
    remove(engine.queues, q);
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
  if (q && isExpired(q, at)) remove(engine.queues, q);
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
  remove(engine.queues, q);
  wake(q);
}

/** The parked poll timed out: a heartbeat event (bypassing event_types) answers it. */
export function pushHeartbeat(engine: Engine, q: EventQueue): void {
  if (engine.queues.byId.get(q.id) !== q) return;
  push(engine.queues, q, { type: 'heartbeat' });
  wake(q);
}

/** Answer every parked poll and forget every queue (the simulator is being reset). */
export function closeAllQueues(engine: Engine): void {
  const all = [...engine.queues.byId.values()];
  for (const q of all) remove(engine.queues, q);
  for (const q of all) wake(q);
}

// ---------------------------------------------------------------- delivery

/** update_message_flags events that Zulip compresses: not mark-all, not remove-read (zerver/tornado/event_queue.py:EventQueue). */
function compressionKey(event: Record<string, unknown>): string | null {
  if (event.type !== 'update_message_flags' || event.all === true) return null;
  const op = String(event.op ?? event.operation);
  const flag = String(event.flag);
  if (op === 'remove' && flag === 'read') return null;
  return `flags/${op}/${flag}`;
}

function push(queues: EventQueues, q: EventQueue, event: Record<string, unknown>): void {
  const queued = { ...event, id: q.nextEventId++ } as QueuedEvent;
  (queues as Internals).observe?.(queued);
  const key = compressionKey(queued);
  if (key !== null) {
    const held = q.virtual.get(key);
    if (!held) q.virtual.set(key, { ...queued, messages: [...((queued.messages as number[] | undefined) ?? [])] });
    else {
      held.id = queued.id;
      (held.messages as number[]).push(...((queued.messages as number[] | undefined) ?? []));
      if ('timestamp' in queued) held.timestamp = queued.timestamp;
    }
    return;
  }
  q.events.push(queued);
  if (q.events.length > MAX_QUEUED_EVENTS && q.waiter === null) remove(queues, q);
}

/** ClientDescriptor.accepts_event, for everything but messages. */
function acceptsType(q: EventQueue, event: Record<string, unknown>): boolean {
  const types = q.options.eventTypes;
  const type = event.type as string;
  if (types !== null) {
    if (!types.has(type)) return false;
    if (type === 'muted_topics' && types.has('user_topic')) return false;
  }
  const caps = q.options.capabilities;
  if (type === 'typing' && 'stream_id' in event) return caps.stream_typing_notifications;
  if (caps.user_settings_object && (type === 'update_display_settings' || type === 'update_global_notifications')) return false;
  if (type === 'user_group') {
    if (event.op === 'remove') return !caps.include_deactivated_groups;
    // Reactivation: clients that keep deactivated groups never lost it (process_user_group_creation_event).
    if (event.op === 'add' && event.for_reactivation === true) return !caps.include_deactivated_groups;
    const data = event.data as Record<string, unknown> | undefined;
    if (event.op === 'update' && data !== undefined && 'deactivated' in data) return caps.include_deactivated_groups;
  }
  if (type === 'stream') {
    // Archiving sends both (do_deactivate_stream): clients that show archived channels take the
    // is_archived update, the others the delete; unarchiving likewise the update or the create.
    if (event.op === 'delete' && event.for_archiving === true) return !caps.archived_channels;
    if (event.op === 'create' && event.for_unarchiving === true) return !caps.archived_channels;
    if (event.op === 'update' && event.property === 'is_archived') return caps.archived_channels;
  }
  return true;
}

/**
 * Keys that only route an event between queues (Zulip's Internal*Event fields, read by Tornado's
 * process_*_event): no client ever sees them.
 */
const ROUTING_KEYS: Readonly<Record<string, string>> = {
  'stream/create': 'for_unarchiving',
  'stream/delete': 'for_archiving',
  'user_group/add': 'for_reactivation',
};

function emptyTopicName(queues: Internals, q: EventQueue, topic: unknown): unknown {
  return topic === '' && !q.options.capabilities.empty_topic_name ? queues.engine.state.realm.realm_empty_topic_display_name : topic;
}

function without(event: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = event;
  return rest;
}

function withoutRoutingKey(event: Record<string, unknown>): Record<string, unknown> {
  const key = ROUTING_KEYS[`${String(event.type)}/${String(event.op)}`];
  return key !== undefined && key in event ? without(event, key) : event;
}

/** The copies of one event a queue gets (zero, one, or one per message ID for old deleters). */
function variantsFor(queues: Internals, q: EventQueue, event: Record<string, unknown>): Record<string, unknown>[] {
  const caps = q.options.capabilities;
  switch (event.type) {
    case 'delete_message': {
      const copy = 'topic' in event ? { ...event, topic: emptyTopicName(queues, q, event.topic) } : event;
      return caps.bulk_message_deletion ? [copy] : legacyDeleteMessageEvents(copy);
    }
    case 'update_message': {
      if (event.subject !== '' && event.orig_subject !== '') return [event];
      const copy = { ...event };
      if ('orig_subject' in copy) copy.orig_subject = emptyTopicName(queues, q, copy.orig_subject);
      if ('subject' in copy) copy.subject = emptyTopicName(queues, q, copy.subject);
      return [copy];
    }
    case 'typing':
      return 'topic' in event ? [{ ...event, topic: emptyTopicName(queues, q, event.topic) }] : [event];
    case 'user_topic':
      return [{ ...event, topic_name: emptyTopicName(queues, q, event.topic_name) }];
    case 'update_message_flags': {
      const details = event.message_details as Record<string, Record<string, unknown>> | undefined;
      if (!details) return [event];
      const rewritten: Record<string, Record<string, unknown>> = {};
      for (const [id, d] of Object.entries(details)) {
        rewritten[id] = d.type === 'stream' && 'topic' in d ? { ...d, topic: emptyTopicName(queues, q, d.topic) } : d;
      }
      return [{ ...event, message_details: rewritten }];
    }
    case 'realm_user':
      if (event.op === 'add' && 'inaccessible_user' in event) {
        return event.inaccessible_user === true && caps.user_list_incomplete ? [] : [without(event, 'inaccessible_user')];
      }
      return [event];
    case 'user_group':
      if (event.op === 'update' && 'deactivated' in event) {
        return event.deactivated === true && !caps.include_deactivated_groups ? [] : [without(event, 'deactivated')];
      }
      return [withoutRoutingKey(event)];
    case 'stream':
      return [withoutRoutingKey(event)];
    case 'custom_profile_fields':
      if (q.options.pronounsFieldTypeSupported !== false) return [event];
      return [{ ...event, fields: withoutPronounsType(event.fields as CustomProfileFieldDict[]) }];
    case 'presence':
      if (caps.simplified_presence_events && 'presences' in event) return [{ type: 'presence', presences: event.presences }];
      return [without(q.options.slimPresence ? without(event, 'email') : event, 'presences')];
    default:
      return [event];
  }
}

function deliverEvent(queues: Internals, e: Effect, woken: Set<EventQueue>): void {
  for (const userId of e.users) {
    const list = queues.byUser.get(userId);
    if (!list) continue;
    const extra = e.perUser?.get(userId);
    const event = extra ? { ...e.event, ...extra } : e.event;
    for (const q of list) {
      if (!acceptsType(q, event)) continue;
      for (const variant of variantsFor(queues, q, event)) push(queues, q, variant);
      if (q.waiter) woken.add(q);
    }
  }
}

/** process_message_event: realm-wide queues first (flags []), then each recipient's queues. */
function deliverMessage(queues: Internals, e: Effect, m: MessageFanout, woken: Set<EventQueue>): void {
  const targets = new Map<EventQueue, number | null>();
  if (m.publicChannel) for (const q of queues.realmWide) targets.set(q, null);
  for (const userId of e.users) {
    const list = queues.byUser.get(userId);
    if (!list) continue;
    const bits = flagBitsAtSend(m, userId);
    for (const q of list) targets.set(q, bits);
  }
  if (targets.size === 0) return;
  // One payload per flavour and one flag list per distinct flag set, shared between queues.
  const payloads = new Map<number, Message>();
  const flagLists = new Map<number, string[]>();
  for (const [q, bits] of targets) {
    const types = q.options.eventTypes;
    if (types !== null && !types.has('message')) continue;
    const emptyTopic = q.options.capabilities.empty_topic_name;
    const flavour = (q.options.applyMarkdown ? 1 : 0) | (q.options.clientGravatar ? 2 : 0) | (emptyTopic ? 4 : 0);
    let message = payloads.get(flavour);
    if (!message) {
      message = formatMessage(queues.engine, m.stored, {
        applyMarkdown: q.options.applyMarkdown,
        clientGravatar: q.options.clientGravatar,
        allowEmptyTopicName: emptyTopic,
      });
      payloads.set(flavour, message);
    }
    const key = bits ?? -1;
    let flags = flagLists.get(key);
    if (!flags) {
      flags = bits === null ? [] : apiFlags(bits);
      flagLists.set(key, flags);
    }
    if (!q.accepts(message, flags)) continue;
    const event: Record<string, unknown> = { type: 'message', message, flags };
    if (m.senderQueueId !== undefined && m.localId !== undefined && q.id === m.senderQueueId) event.local_message_id = m.localId;
    push(queues, q, event);
    if (q.waiter) woken.add(q);
  }
}

// ---------------------------------------------------------------- snapshots

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
