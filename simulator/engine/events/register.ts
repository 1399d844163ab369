/**
 * POST /register (zerver/lib/events.py:do_events_register): check the
 * request, allocate the queue, and answer its ID with the initial state of the wanted fetch types.
 * The engine is synchronous, so no event can arrive between the snapshot and the queue: the
 * answer's `last_event_id` is always -1.
 */
import { getStreamById, isGuest, type Engine } from '../core.ts';
import { ChatError } from '../errors.ts';
import { allocateQueue, capabilities, collectGarbage, type QueueOptions } from './queues.ts';
import { initialState } from './initial-state.ts';
import { checkEventNarrow, type EventNarrowTerm } from '../narrow/events.ts';
import type { UserRecord } from '../state.ts';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../realm/server-version.ts';
import type { RegisterQueueResponse } from '../../../schemas/generated/types/chat/responses/register-queue.ts';

export interface RegisterParams {
  /** null: the user's default (a bot's default_all_public_streams, false for everyone else). */
  allPublicStreams: boolean | null;
  applyMarkdown: boolean;
  clientCapabilities: Partial<Record<string, boolean>>;
  /** null: true for an authenticated user. */
  clientGravatar: boolean | null;
  eventTypes: readonly string[] | null;
  fetchEventTypes: readonly string[] | null;
  includeSubscribers: boolean | 'partial';
  narrow: readonly EventNarrowTerm[];
  queueLifespanSecs: number;
  slimPresence: boolean;
  /** Days of presence history in the initial state (null: the server's default). */
  presenceHistoryLimitDays: number | null;
  clientName: string;
  /** False for old mobile apps, which the route tells by their User-Agent (user-agent.ts). */
  pronounsFieldTypeSupported: boolean;
}

/** The register-style options a queue is created with (also by GET /events, zerver/tornado/views.py:get_events_backend). */
export function queueOptions(engine: Engine, user: UserRecord, p: Omit<RegisterParams, 'fetchEventTypes' | 'includeSubscribers' | 'presenceHistoryLimitDays'>): QueueOptions {
  const allPublicStreams = p.allPublicStreams ?? user.default_all_public_streams;
  if (allPublicStreams && isGuest(user)) throw ChatError.badRequest('User not authorized for this query');
  // A bot with a default events channel gets that channel when it asks for no narrow.
  const defaultStream = user.default_events_register_stream_id === null ? undefined : getStreamById(engine, user.default_events_register_stream_id);
  const narrow: readonly EventNarrowTerm[] = p.narrow.length === 0 && defaultStream ? [['stream', defaultStream.name]] : p.narrow;
  checkEventNarrow(narrow);
  return {
    eventTypes: p.eventTypes === null ? null : new Set(p.eventTypes),
    narrow,
    allPublicStreams,
    applyMarkdown: p.applyMarkdown,
    clientGravatar: p.clientGravatar ?? true,
    slimPresence: p.slimPresence,
    capabilities: capabilities(p.clientCapabilities),
    lifespanSecs: p.queueLifespanSecs,
    clientName: p.clientName,
    pronounsFieldTypeSupported: p.pronounsFieldTypeSupported,
  };
}

export function registerQueue(engine: Engine, user: UserRecord, p: RegisterParams): RegisterQueueResponse {
  const options = queueOptions(engine, user, p);
  collectGarbage(engine);
  const queue = allocateQueue(engine, user.id, options);
  const fetchTypes = p.fetchEventTypes ?? p.eventTypes;
  const wanted = fetchTypes === null ? null : new Set(fetchTypes);
  const listed = p.eventTypes === null ? null : new Set(p.eventTypes);
  const state = initialState({
    engine,
    user,
    clientGravatar: options.clientGravatar,
    includeSubscribers: p.includeSubscribers,
    slimPresence: p.slimPresence,
    presenceHistoryLimitDays: p.presenceHistoryLimitDays,
    capabilities: options.capabilities,
    pronounsFieldTypeSupported: p.pronounsFieldTypeSupported,
    want: (type) => wanted === null || wanted.has(type),
    listedEventType: (type) => listed !== null && listed.has(type),
  });
  // The fetch types' builders each type their own keys loosely; the schema (checked on every
  // response in the test suite) holds the assembled object to its shape.
  return {
    queue_id: queue.id,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: ZULIP_FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    ...state,
    last_event_id: -1,
  } as RegisterQueueResponse;
}
