/** The real-time event system (zerver/views/events_register.py, zerver/tornado/views.py): POST /register, GET /events, DELETE /events. */
import { ChatError } from '../../engine/errors.ts';
import { deleteQueue, getEvents } from '../../engine/events/queues.ts';
import type { EventNarrowTerm } from '../../engine/narrow/events.ts';
import { queueOptions, registerQueue } from '../../engine/events/register.ts';
import { clientName } from '../../engine/messages/send.ts';
import { pronounsFieldTypeSupported } from '../../engine/events/user-agent.ts';
import { parkPoll } from '../long-poll.ts';
import { boolOrNull, intOrNull, nonNegative, stringListOrNull } from '../checks.ts';
import { defineRoute, paramList } from '../define-route.ts';
import type { Route, RouteContext } from '../route.ts';

/** `Json[list[list[str]]]`, each term an `[operator, operand]` pair (dict terms are not accepted here). */
function eventNarrow(value: unknown, name: string): EventNarrowTerm[] {
  if (!Array.isArray(value)) throw ChatError.badRequest(`${name} is not a list`);
  return value.map((term: unknown, i) => {
    if (!Array.isArray(term)) throw ChatError.badRequest(`${name}[${i}] is not a list`);
    term.forEach((part, j) => {
      if (typeof part !== 'string') throw ChatError.badRequest(`${name}[${i}][${j}] is not a string`);
    });
    if (term.length !== 2) throw ChatError.badRequest(`${name}[${i}] should have exactly 2 items`);
    return [term[0] as string, term[1] as string] as const;
  });
}

/** /register's `Json[NarrowT] | None`: JSON null stands for no narrow. */
function eventNarrowOrNull(value: unknown, name: string): EventNarrowTerm[] {
  return value === null ? [] : eventNarrow(value, name);
}

/** The ClientCapabilities TypedDict: every value a boolean; unknown keys are let through unread. */
function clientCapabilities(value: Record<string, unknown>, name: string): Record<string, boolean> {
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'boolean') throw ChatError.badRequest(`${name}["${key}"] is not a boolean`);
  }
  return value as Record<string, boolean>;
}

function requestClient(ctx: { params: { client: string | undefined }; headers: RouteContext['headers'] }): string {
  return clientName(ctx.params.client, ctx.headers['user-agent']);
}

/** The register parameters, alphabetically (Zulip parses them in that order: first error wins). */
const registerParams = paramList([
  { name: 'all_public_streams', type: 'json', default: null, validate: boolOrNull },
  { name: 'apply_markdown', type: 'bool', default: false },
  { name: 'client_capabilities', type: 'json_object', default: { notification_settings_null: false }, validate: clientCapabilities },
  { name: 'client_gravatar', type: 'json', default: null, validate: boolOrNull },
  { name: 'event_types', type: 'json', default: null, validate: stringListOrNull },
  { name: 'fetch_event_types', type: 'json', default: null, validate: stringListOrNull },
  // A plain string, not JSON: `true`, `false` or `partial`.
  { name: 'include_subscribers', type: 'string', default: 'false', oneOf: ['true', 'false', 'partial'] },
  { name: 'narrow', type: 'json', default: [], validate: eventNarrowOrNull },
  { name: 'presence_history_limit_days', type: 'json', default: null, validate: intOrNull },
  { name: 'queue_lifespan_secs', type: 'int', default: 0 },
  { name: 'slim_presence', type: 'bool', default: false },
  { name: 'client', type: 'string' },
]);

/** Capabilities a queue-creating GET /events takes as top-level booleans. */
const QUEUE_CAPABILITY_PARAMS = [
  'bulk_message_deletion',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
] as const;

/** get_events_backend's parameters: the queue's, then those of a queue it creates (zerver/tornado/views.py). */
const getEventsParams = paramList([
  { name: 'last_event_id', type: 'int' },
  { name: 'queue_id', type: 'string' },
  { name: 'apply_markdown', type: 'bool', default: false },
  { name: 'client_gravatar', type: 'bool', default: false },
  { name: 'slim_presence', type: 'bool', default: false },
  { name: 'all_public_streams', type: 'bool', default: false },
  { name: 'event_types', type: 'json', default: null, validate: stringListOrNull },
  { name: 'dont_block', type: 'bool', default: false },
  { name: 'narrow', type: 'json', default: [], validate: eventNarrow },
  { name: 'lifespan_secs', type: 'int', default: 0, validate: nonNegative },
  ...QUEUE_CAPABILITY_PARAMS.map((name) => ({ name, type: 'bool', default: false }) as const),
  { name: 'pronouns_field_type_supported', type: 'bool', default: true },
  { name: 'client', type: 'string' },
]);

export const eventRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/register',
    response: 'register-queue',
    auth: 'user',
    summary: 'Register an event queue and fetch the initial state',
    params: registerParams,
    handler(ctx) {
      const p = ctx.params;
      const include = p.include_subscribers;
      return registerQueue(ctx.engine, ctx.user, {
        allPublicStreams: p.all_public_streams,
        applyMarkdown: p.apply_markdown,
        clientCapabilities: p.client_capabilities,
        clientGravatar: p.client_gravatar,
        eventTypes: p.event_types,
        fetchEventTypes: p.fetch_event_types,
        includeSubscribers: include === 'partial' ? 'partial' : include === 'true',
        narrow: p.narrow,
        queueLifespanSecs: p.queue_lifespan_secs,
        slimPresence: p.slim_presence,
        presenceHistoryLimitDays: p.presence_history_limit_days,
        clientName: requestClient(ctx),
        pronounsFieldTypeSupported: pronounsFieldTypeSupported(ctx.headers['user-agent']),
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/events',
    response: 'get-events',
    auth: 'user',
    rateLimit: 'events',
    longPoll: true,
    summary: 'Events of a queue: at once when there are some, else after a long poll',
    params: getEventsParams,
    async handler(ctx) {
      const { engine, params: p } = ctx;
      const user = ctx.user;
      const result = getEvents(engine, user.id, {
        queueId: p.queue_id,
        lastEventId: p.last_event_id,
        dontBlock: p.dont_block,
        newQueue: () => {
          const caps: Record<string, boolean> = {};
          for (const c of QUEUE_CAPABILITY_PARAMS) caps[c] = p[c];
          return queueOptions(engine, user, {
            allPublicStreams: p.all_public_streams,
            applyMarkdown: p.apply_markdown,
            clientCapabilities: caps,
            clientGravatar: p.client_gravatar,
            eventTypes: p.event_types,
            narrow: p.narrow,
            queueLifespanSecs: p.lifespan_secs,
            slimPresence: p.slim_presence,
            clientName: requestClient(ctx),
            pronounsFieldTypeSupported: p.pronouns_field_type_supported,
          });
        },
      });
      if ('park' in result) return parkPoll(engine, result.park, ctx.longPollTimeoutMs(), ctx.signal);
      return result.queueId === undefined ? { events: result.events } : { events: result.events, queue_id: result.queueId };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/events',
    response: 'empty',
    auth: 'user',
    rateLimit: 'events',
    summary: 'Delete an event queue',
    // Python sends it in the form body, zulip-js in the query string: both are read.
    params: [{ name: 'queue_id', type: 'string', required: true }],
    handler(ctx) {
      deleteQueue(ctx.engine, ctx.user.id, ctx.params.queue_id);
      return {};
    },
  }),
];
