/**
 * THE control route table: every endpoint of the control API under /__simulator, with what the
 * OpenAPI description says of it (openapi.ts derives the document from this table, so the two
 * cannot disagree) and a handler calling the simulator's in-process controls, so that HTTP and
 * in-process are one implementation.
 */
import type { Fixture } from '../../schemas/generated/types/chat/fixture.ts';
import type {
  ClockAdvanceRequest,
  ClockRealTimeRequest,
  ClockSetRequest,
  ClockState,
  Fault,
  FaultRequest,
  JournalFeed,
  JournalPage,
  LiveWatcher,
  Outbox,
  PushServiceRequest,
  PushServiceState,
  RateLimitRequest,
  RateLimitState,
  Snapshot,
} from '../../schemas/generated/types/control/control.ts';
import type { SimulatorClock } from '../clock-control.ts';
import type { PushServiceFailure } from '../engine/state.ts';
import { ControlError } from './errors.ts';
import type { JournalFilter } from './journal.ts';
import { DEFAULT_FEED_LIMIT, MAX_FEED_WAIT_MS, type FeedRequest } from './live-feed.ts';
import type { ControlSchemaName } from './validate.ts';

/**
 * 60000 → "60,000". Not toLocaleString('en'): its first call loads ICU's number formats, about 30 ms
 * of every start of the simulator for one line of this table.
 */
function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** Where the control API lives: a path Zulip never uses, outside /api/v1. */
export const CONTROL_PREFIX = '/__simulator';

/** What the control API acts on: the in-process controls of a simulator (index.ts's Simulator). */
export interface Controls {
  reset(options?: { fixture?: Fixture | string }): void;
  snapshot(): Snapshot;
  restore(snapshot: unknown): void;
  outbox(): Outbox;
  clearOutbox(): void;
  readonly faults: {
    add(spec: FaultRequest): Fault;
    list(): Fault[];
    remove(id: number): boolean;
    clear(): void;
  };
  pushService(): PushServiceState;
  setPushServiceFailure(failure: PushServiceFailure | null, options?: { times?: number }): void;
  readonly journal: {
    entries(filter?: JournalFilter): JournalPage['entries'];
    clear(): void;
    /** The live feed: requests completed since `cursor`, waiting up to `waitMs` for one. */
    feed(request: FeedRequest): Promise<JournalFeed>;
  };
  /** Whether Zulip's rate limits apply. */
  rateLimit(): RateLimitState;
  /** Apply them (with fresh buckets) or stop. */
  setRateLimit(enabled: boolean): void;
  readonly clock: SimulatorClock;
  /** The account the live page watches as: the realm owner, or the active user with email `as`. */
  liveWatcher(as?: string): LiveWatcher;
}

export type ControlMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ControlQueryParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

export interface ControlContext {
  controls: Controls;
  query: URLSearchParams;
  path: Record<string, string>;
  /** The JSON body, checked against the route's body schema; undefined when none was sent. */
  body: unknown;
  /** Aborted when the client goes away or the server closes (long-polls only). */
  signal?: AbortSignal | undefined;
}

export interface ControlRoute {
  method: ControlMethod;
  /** Under the control prefix, `{name}` for path parameters. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  query?: ControlQueryParam[];
  /** A path parameter's description, by name (each is a positive integer). */
  pathParams?: Record<string, string>;
  body?: { schema: ControlSchemaName; required: boolean; description: string };
  /** 200 with a document of `schema` (or, without one, any JSON object), 201 likewise, 204 with nothing. */
  response: { status: 200 | 201 | 204; description: string; schema?: ControlSchemaName };
  /** Refusals the route may answer besides 403 (every route): status → when. */
  errors?: Partial<Record<400 | 404, string>>;
  handler(ctx: ControlContext): unknown;
}

function clockState(clock: SimulatorClock): ClockState {
  return { now: clock.now(), following_real_time: clock.followingRealTime };
}

function integerQuery(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) throw new ControlError('BAD_REQUEST', `Invalid query parameter ${name}: "${raw}" is not a whole number`);
  return Number(raw);
}

function journalFilter(query: URLSearchParams): JournalFilter {
  const filter: JournalFilter = {};
  const route = query.get('route');
  if (route !== null) filter.route = route;
  const user = query.get('user');
  if (user !== null) filter.user = /^\d+$/.test(user) ? Number(user) : user;
  const status = query.get('status');
  if (status !== null) {
    if (!/^(?:[1-5]\d\d|[1-5]xx)$/i.test(status)) throw new ControlError('BAD_REQUEST', `Invalid query parameter status: "${status}" (an HTTP status such as 200, or a class such as 4xx)`);
    filter.status = status;
  }
  const after = integerQuery(query, 'after');
  if (after !== undefined) filter.after = after;
  const limit = integerQuery(query, 'limit');
  if (limit !== undefined) filter.limit = limit;
  return filter;
}

export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getControlOpenApi',
    summary: 'This description of the control API (OpenAPI 3.1)',
    description: 'The OpenAPI 3.1 document of every control endpoint, derived from the same table that serves them.',
    response: { status: 200, description: 'The OpenAPI document.' },
    // Filled in by dispatch.ts, which holds the document (it is built from this very table).
    handler: () => undefined,
  },
  {
    method: 'POST',
    path: '/reset',
    operationId: 'reset',
    summary: 'Reset to the fixture',
    description:
      "Back to the fixture's state, as the simulator started: same seed (same API keys), fresh clock; parked polls are answered and every event queue is forgotten. Faults and the journal are cleared too. With a body `{\"fixture\": …}`, that fixture instead, for this reset only.",
    body: { schema: 'ResetRequest', required: false, description: 'Optional: another fixture.' },
    response: { status: 204, description: 'Reset.' },
    errors: { 400: 'The fixture is invalid (INVALID_FIXTURE: every problem with its JSON pointer); nothing changed.' },
    handler: ({ controls, body }) => controls.reset(body === undefined ? {} : (body as { fixture?: Fixture })),
  },
  {
    method: 'GET',
    path: '/snapshot',
    operationId: 'getSnapshot',
    summary: 'The whole state as JSON',
    description: 'The simulated server as one versioned JSON document: its state, event queues and where its random sources stand. PUT it back (here or to another simulator of the same version) to continue from it.',
    response: { status: 200, description: 'The snapshot.', schema: 'Snapshot' },
    handler: ({ controls }) => controls.snapshot(),
  },
  {
    method: 'PUT',
    path: '/snapshot',
    operationId: 'restoreSnapshot',
    summary: 'Restore a snapshot',
    description: 'Replace the whole state with a snapshot: every later request is answered as the simulator that took it would have answered (given the same clock). Parked polls of the replaced state are answered. Faults and the journal are left as they are.',
    body: { schema: 'Snapshot', required: true, description: 'A snapshot, as GET /snapshot gives it.' },
    response: { status: 204, description: 'Restored.' },
    errors: { 400: 'Not a snapshot, another format version, or a state this simulator cannot hold (INVALID_SNAPSHOT, saying what is wrong); nothing changed.' },
    handler: ({ controls, body }) => controls.restore(body),
  },
  {
    method: 'GET',
    path: '/outbox',
    operationId: 'getOutbox',
    summary: 'What the server sent out',
    description: 'Emails, push notifications, Notification Bot messages and the requests outgoing-webhook bots would have been sent, oldest first. Nothing leaves the simulator.',
    response: { status: 200, description: 'The outbox.', schema: 'Outbox' },
    handler: ({ controls }) => controls.outbox(),
  },
  {
    method: 'DELETE',
    path: '/outbox',
    operationId: 'clearOutbox',
    summary: 'Forget the outbox',
    description: "Forget the recorded emails, pushes and webhook requests (Notification Bot's messages are messages of the organization: they stay).",
    response: { status: 204, description: 'Cleared.' },
    handler: ({ controls }) => controls.clearOutbox(),
  },
  {
    method: 'GET',
    path: '/faults',
    operationId: 'listFaults',
    summary: 'Active faults',
    description: 'Every active fault, oldest first, with how many requests it caught and how many it will still catch.',
    response: { status: 200, description: 'The faults.', schema: 'FaultList' },
    handler: ({ controls }) => ({ faults: controls.faults.list() }),
  },
  {
    method: 'POST',
    path: '/faults',
    operationId: 'addFault',
    summary: 'Add a fault',
    description:
      'Make requests to a route (of a user, with given parameters) answer a chosen error, wait, or lose their connection, for `times` requests or until deleted. Faults act after authentication, before the route; the first active fault that catches a request acts on it.',
    body: { schema: 'FaultRequest', required: true, description: 'The fault.' },
    response: { status: 201, description: 'The fault, with its id.', schema: 'Fault' },
    errors: { 400: 'An invalid fault (BAD_REQUEST, naming the field), e.g. a route that is none of the API.' },
    handler: ({ controls, body }) => controls.faults.add(body as FaultRequest),
  },
  {
    method: 'DELETE',
    path: '/faults',
    operationId: 'clearFaults',
    summary: 'Delete every fault',
    description: 'Every request is answered normally again.',
    response: { status: 204, description: 'Cleared.' },
    handler: ({ controls }) => controls.faults.clear(),
  },
  {
    method: 'DELETE',
    path: '/faults/{id}',
    operationId: 'deleteFault',
    summary: 'Delete a fault',
    description: 'Delete one fault by its id.',
    pathParams: { id: 'The id POST /faults answered.' },
    response: { status: 204, description: 'Deleted.' },
    errors: { 404: 'No active fault has that id (NOT_FOUND).' },
    handler: ({ controls, path }) => {
      if (!controls.faults.remove(Number(path.id))) throw new ControlError('NOT_FOUND', `No active fault ${path.id}`);
    },
  },
  {
    method: 'GET',
    path: '/push-service',
    operationId: 'getPushService',
    summary: 'The simulated push service',
    description: 'Whether the simulated push service fails, how, and for how many more pushes.',
    response: { status: 200, description: 'Its state.', schema: 'PushServiceState' },
    handler: ({ controls }) => controls.pushService(),
  },
  {
    method: 'PUT',
    path: '/push-service',
    operationId: 'setPushService',
    summary: 'Make the push service fail, or work',
    description: "Make pushes fail with one of Zulip's push-service errors (every push, or the next `times`), or work again (`failure: null`). Part of the state: snapshots keep it.",
    body: { schema: 'PushServiceRequest', required: true, description: 'The failure, or null.' },
    response: { status: 200, description: 'Its state now.', schema: 'PushServiceState' },
    errors: { 400: 'An invalid request (BAD_REQUEST).' },
    handler: ({ controls, body }) => {
      const request = body as PushServiceRequest;
      controls.setPushServiceFailure(request.failure, request.times === undefined ? {} : { times: request.times });
      return controls.pushService();
    },
  },
  {
    method: 'GET',
    path: '/clock',
    operationId: 'getClock',
    summary: 'The simulated clock',
    description: 'The simulated present, and whether time follows the real clock.',
    response: { status: 200, description: 'The clock.', schema: 'ClockState' },
    handler: ({ controls }) => clockState(controls.clock),
  },
  {
    method: 'POST',
    path: '/clock/advance',
    operationId: 'advanceClock',
    summary: 'Move time forward',
    description:
      'Move the simulated clock forward by `seconds`, running in time order, each at its own moment, whatever comes due on the way: event queues nobody polled expire, members become full members, scheduled messages are sent.',
    body: { schema: 'ClockAdvanceRequest', required: true, description: 'How far.' },
    response: { status: 200, description: 'Where the clock went and what happened.', schema: 'ClockReport' },
    errors: { 400: 'A negative or non-finite number of seconds (BAD_REQUEST).' },
    handler: ({ controls, body }) => controls.clock.advance((body as ClockAdvanceRequest).seconds),
  },
  {
    method: 'POST',
    path: '/clock/set',
    operationId: 'setClock',
    summary: 'Move time to a moment',
    description: 'Move the simulated clock forward to `time` (Unix seconds), running what comes due on the way. Time never goes back: an earlier moment is refused.',
    body: { schema: 'ClockSetRequest', required: true, description: 'The moment.' },
    response: { status: 200, description: 'Where the clock went and what happened.', schema: 'ClockReport' },
    errors: { 400: 'A moment before the present (BAD_REQUEST: "The simulated clock never goes backwards…").' },
    handler: ({ controls, body }) => controls.clock.set((body as ClockSetRequest).time),
  },
  {
    method: 'POST',
    path: '/clock/tick',
    operationId: 'tickClock',
    summary: 'Run what is due',
    description: "Run what the clock's own movement (real time, a stepping or manual clock) has brought due, without moving it.",
    response: { status: 200, description: 'What happened.', schema: 'ClockReport' },
    handler: ({ controls }) => controls.clock.tick(),
  },
  {
    method: 'PUT',
    path: '/clock/real-time',
    operationId: 'followRealTime',
    summary: 'Follow real time, or stop',
    description: 'Follow the real clock from the simulated present on (time passes at real speed; advancing still jumps ahead), or stop time where it is.',
    body: { schema: 'ClockRealTimeRequest', required: true, description: 'Whether to follow.' },
    response: { status: 200, description: 'The clock now.', schema: 'ClockState' },
    handler: ({ controls, body }) => {
      controls.clock.followRealTime((body as ClockRealTimeRequest).follow);
      return clockState(controls.clock);
    },
  },
  {
    method: 'GET',
    path: '/journal',
    operationId: 'getJournal',
    summary: 'The request journal',
    description: 'Every request to the API and its response, in arrival order (control requests are not journaled). The journal keeps the latest 1,000 requests (by default) and 256 KiB of their bodies (by default), each body up to 1 MiB: past that budget the oldest entries keep everything but their bodies, marked `body_dropped` (the newest entry always keeps its own).',
    query: [
      { name: 'route', description: 'Only this route: `METHOD /pattern` as the route table writes it (`POST /messages`), or `/pattern` for every method.', schema: { type: 'string' } },
      { name: 'user', description: 'Only requests authenticated as this user: id or email.', schema: { type: 'string' } },
      { name: 'status', description: 'Only answers with this status (`200`) or class (`4xx`).', schema: { type: 'string', pattern: '^([1-5][0-9][0-9]|[1-5]xx)$' } },
      { name: 'after', description: 'Only entries after this sequence number.', schema: { type: 'integer', minimum: 0 } },
      { name: 'limit', description: 'At most this many entries (the oldest first).', schema: { type: 'integer', minimum: 0 } },
    ],
    response: { status: 200, description: 'The entries.', schema: 'JournalPage' },
    errors: { 400: 'A query parameter that is not what it should be (BAD_REQUEST).' },
    handler: ({ controls, query }) => ({ entries: controls.journal.entries(journalFilter(query)) }),
  },
  {
    method: 'GET',
    path: '/journal/feed',
    operationId: 'getJournalFeed',
    summary: 'The journal, live (long-poll)',
    description:
      'The requests that completed (answered or dropped) since `cursor`, in the order they completed: answered at once when there are some, else when the next one completes, when the control API changes something (reset, restore, the clock, faults, rate limits), or after `wait_ms`. Without `cursor`, the latest `limit` at once. Pass the answer\'s `cursor` back to go on. What the live page (GET /) shows its Journal from, without polling.',
    query: [
      { name: 'cursor', description: 'The `cursor` of the previous answer.', schema: { type: 'integer', minimum: 0 } },
      { name: 'limit', description: `At most this many entries (default ${DEFAULT_FEED_LIMIT}).`, schema: { type: 'integer', minimum: 1 } },
      { name: 'wait_ms', description: `How long to wait for a completion (default 25,000; at most ${withThousands(MAX_FEED_WAIT_MS)}; 0: answer at once).`, schema: { type: 'integer', minimum: 0 } },
    ],
    response: { status: 200, description: 'What completed, the new cursor and the clock.', schema: 'JournalFeed' },
    errors: { 400: 'A query parameter that is not a whole number (BAD_REQUEST).' },
    handler: async ({ controls, query, signal }) => {
      const cursor = integerQuery(query, 'cursor');
      const limit = integerQuery(query, 'limit');
      const waitMs = integerQuery(query, 'wait_ms') ?? 25_000;
      if (limit === 0) throw new ControlError('BAD_REQUEST', 'Invalid query parameter limit: at least 1');
      return controls.journal.feed({ ...(cursor === undefined ? {} : { cursor }), ...(limit === undefined ? {} : { limit }), waitMs: Math.min(waitMs, MAX_FEED_WAIT_MS), signal });
    },
  },
  {
    method: 'DELETE',
    path: '/journal',
    operationId: 'clearJournal',
    summary: 'Forget the journal',
    description: 'Forget every recorded request (sequence numbers go on from where they were).',
    response: { status: 204, description: 'Cleared.' },
    handler: ({ controls }) => controls.journal.clear(),
  },
  {
    method: 'GET',
    path: '/rate-limit',
    operationId: 'getRateLimit',
    summary: 'Whether rate limits apply',
    description: "Whether the simulator applies Zulip's rate limits: those it was started with (`--rate-limit`), or Zulip's defaults.",
    response: { status: 200, description: 'The state.', schema: 'RateLimitState' },
    handler: ({ controls }) => controls.rateLimit(),
  },
  {
    method: 'PUT',
    path: '/rate-limit',
    operationId: 'setRateLimit',
    summary: 'Turn rate limits on or off',
    description: "Apply Zulip's rate limits from now on (every bucket starts empty) or stop applying them (answers carry no X-RateLimit-* headers).",
    body: { schema: 'RateLimitRequest', required: true, description: 'On or off.' },
    response: { status: 200, description: 'The state now.', schema: 'RateLimitState' },
    handler: ({ controls, body }) => {
      controls.setRateLimit((body as RateLimitRequest).enabled);
      return controls.rateLimit();
    },
  },
  {
    method: 'GET',
    path: '/live/watcher',
    operationId: 'getLiveWatcher',
    summary: 'The account the live page watches as',
    description:
      "The user whose API key the live page (GET /) uses for the chat API's register and events: the realm owner (the owner with the lowest id; an administrator if there is none), or the active user given by `as`. It carries an API key, so, like every control endpoint, it answers loopback clients only unless remote control is allowed.",
    query: [{ name: 'as', description: 'Watch as this user instead: the id or an email (delivery or API email) of an active account, bots included.', schema: { type: 'string' } }],
    response: { status: 200, description: 'The account and its API key.', schema: 'LiveWatcher' },
    errors: { 404: 'No active user has that id or email (NOT_FOUND).' },
    handler: ({ controls, query }) => controls.liveWatcher(query.get('as') ?? undefined),
  },
];
