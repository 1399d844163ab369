/**
 * Delivery: `publish` (called by `commit` for every action) copies each event to every queue of
 * every listed user that accepts it, adapted to that queue's options and capabilities, as
 * Tornado's process_notification does (zerver/tornado/event_queue.py); a `message` is finalized
 * per queue here (rendered or raw content, gravatar, empty-topic name, flags, local_message_id).
 *
 * The set of queues is made here, with its `publish`: core.ts's commit reaches delivery only
 * through it, so neither core.ts nor queues.ts (a queue's life) imports this file.
 */
import type { Message } from '../../../schemas/generated/types/chat/message.ts';
import type { Engine } from '../core.ts';
import { seededRandom } from '../deps.ts';
import { withoutPronounsType, type CustomProfileFieldDict } from '../users/profile-fields.ts';
import { flagBitsAtSend, type Effect, type MessageFanout } from './effects.ts';
import {
  MAX_QUEUED_EVENTS,
  removeQueue,
  wake,
  type EventQueue,
  type EventQueues,
  type Internals,
  type QueuedEvent,
  type QueuedEventObserver,
} from './queues.ts';
import { legacyDeleteMessageEvents } from '../messages/delete.ts';
import { apiFlags, formatMessage } from '../messages/format.ts';

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

/** The parked poll timed out: a heartbeat event (bypassing event_types) answers it. */
export function pushHeartbeat(engine: Engine, q: EventQueue): void {
  if (engine.queues.byId.get(q.id) !== q) return;
  push(engine.queues, q, { type: 'heartbeat' });
  wake(q);
}

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
  if (q.events.length > MAX_QUEUED_EVENTS && q.waiter === null) removeQueue(queues, q);
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
