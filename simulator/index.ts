/**
 * The simulator's public seam: build one from a fixture and a seed, call it in-process with
 * `request()` (the exact dispatch HTTP uses, without sockets), or `listen()` for real HTTP.
 */
import { readFileSync } from 'node:fs';
import type { Fixture } from '../schemas/generated/types/chat/fixture.ts';
import defaultFixture from './fixtures/dev-realm.json' with { type: 'json' };
import { createClockControl, type SimulatorClock } from './clock-control.ts';
import { steppingClock, type Clock } from './engine/deps.ts';
import { getUserByEmail, type Engine } from './engine/core.ts';
import { installedContract } from './contract.ts';
import { createEngine } from './engine/engine.ts';
import { prepareGuessScorer } from './engine/users/passwords.ts';
import { closeAllQueues } from './engine/events/queues.ts';
import { FixtureError, validateFixture } from './engine/fixture.ts';
import { setPushServiceFailure } from './engine/integrations/push.ts';
import type { PushServiceFailure } from './engine/state.ts';
import { API_PREFIX, createDispatcher, type Handle, type RawRequest } from './http/dispatch.ts';
import type { RawResponse } from './http/envelope.ts';
import { zulipHeartbeatDelays } from './http/long-poll.ts';
import { listenHttp, type HttpOptions, type Listening } from './http/node.ts';
import type { RateLimitConfig } from './http/rate-limit.ts';
import { routes } from './http/routes/index.ts';
import { createControlHandler } from './control/dispatch.ts';
import { createFaults } from './control/faults.ts';
import { createFrontDoor } from './control/front-door.ts';
import { createJournal, type JournalLimits } from './control/journal.ts';
import { createLiveFeed } from './control/live-feed.ts';
import { createRateLimitSwitch } from './control/rate-limit-switch.ts';
import { clearOutbox, readOutbox } from './control/outbox.ts';
import type { Controls } from './control/routes.ts';
import { engineFromSnapshot, takeSnapshot } from './control/snapshot.ts';
import { createWebhookDelivery, type WebhookDeliverer, type WebhookDeliveryOptions } from './delivery/webhook-delivery.ts';
import type { WebhookFetch } from './delivery/webhook-post.ts';
import { createLivePage } from './live/serve.ts';
import { liveWatcher } from './live/watcher.ts';
import type { Snapshot } from '../schemas/generated/types/control/control.ts';

export { FixtureError } from './engine/fixture.ts';
export type { Engine } from './engine/core.ts';
export { fixedClock, manualClock, steppingClock, type Clock, type ManualClock } from './engine/deps.ts';
export type { ClockReport, SimulatorClock, TimedOccurrence } from './clock-control.ts';
export { PUSH_SERVICE_FAILURES, type PushServiceFailure } from './engine/state.ts';
export { routes } from './http/routes/index.ts';
export { routePrefix } from './http/dispatch.ts';
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, SnapshotError } from './control/snapshot.ts';
export { ControlError } from './control/errors.ts';
export { CONTROL_PREFIX } from './control/routes.ts';
export type { JournalFilter, JournalLimits } from './control/journal.ts';
export type {
  Fault,
  FaultRequest,
  JournalEntry,
  LiveWatcher,
  Outbox,
  PushServiceState,
  Snapshot,
} from '../schemas/generated/types/control/control.ts';
export type { WebhookDeliveryOptions } from './delivery/webhook-delivery.ts';
export type { WebhookFetch } from './delivery/webhook-post.ts';
export { ZULIP_RATE_LIMITING_RULES, type RateLimitConfig, type RateLimitRule, type RateLimitRules } from './http/rate-limit.ts';

/** Objects and arrays frozen all the way down. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Zulip's development realm. Frozen (copy it with structuredClone to change it): the test suite
 * validates it, so createSimulator() trusts it without compiling the fixture schema, which was
 * half of the start-up.
 */
export const DEFAULT_FIXTURE: Fixture = deepFreeze(defaultFixture as unknown as Fixture);

/** The seed when none is given: `npm start`, `npm run simulator` and createSimulator() share it, so
 * the API keys one prints are the keys the other accepts. */
export const DEFAULT_SEED = 0;

export interface SimulatorOptions {
  /** A fixture object, or a path to a fixture JSON file. Default: the dev realm. */
  fixture?: Fixture | string;
  seed?: number | string;
  /**
   * Time source. Default: a deterministic clock starting an hour after the fixture's latest
   * timestamp and advancing one second per reading, so runs repeat exactly (or the real clock,
   * with `realTime`). Whatever the source, `simulator.clock` moves time forward, never back.
   */
  clock?: Clock;
  /**
   * Follow real time from the start: the present is the real clock's (or `clock`'s, when given,
   * then passing at real speed), and what comes due happens on its own. Default false.
   */
  realTime?: boolean;
  /** The real clock, Unix seconds, for following real time (tests inject a fake). Default: Date.now() / 1000. */
  realClock?: () => number;
  /**
   * While following real time, how often (ms) the simulator catches up with the real clock
   * without waiting for a request. 0: never on its own (call `clock.tick()`). Default 1000.
   */
  realTimeTickMs?: number;
  /**
   * How long a GET /events with nothing to report waits before answering with a heartbeat, in
   * milliseconds (a number, or a function asked once per parked poll). Default: Zulip's 45–55 s.
   */
  longPollTimeoutMs?: number | (() => number);
  /**
   * Let clients that are not on this machine use the control API (/__simulator) over HTTP.
   * Default false: they get 403.
   */
  allowRemoteControl?: boolean;
  /** How much the request journal keeps (default 1,000 requests, the bodies of as many of the newest as fit in 256 KiB); false: nothing. */
  journal?: Partial<JournalLimits> | false;
  /**
   * Rate limiting as Zulip does it (docs/simulator-api.md: Rate limiting): true for Zulip's default rules, or
   * rules replacing some domains, e.g. `{ api_by_user: [[60, 5]] }`. Default off.
   */
  rateLimit?: RateLimitConfig;
  /**
   * The realm's URL, e.g. `http://localhost:9991`: `realm_url`/`realm_uri` in /server_settings and
   * /register, and every link the server builds (invitations, moved-message notices, logos).
   * Default: the fixture's (`http://zulip.testserver` for the dev realm). It outlives reset() and
   * restore(): it is where the server is, not part of its state.
   */
  realmUrl?: string;
  /**
   * Deliver outgoing webhooks as Zulip's worker does (simulator/delivery/): POST each message that
   * triggers an outgoing-webhook bot to its URL, and post the answer as the bot's message. true,
   * the fetch function to send them with, or options. Default: on from the first `listen()` (when
   * serving over HTTP), off in-process until then; false: never (they are only recorded).
   */
  deliverWebhooks?: boolean | WebhookFetch | WebhookDeliveryOptions;
}

export interface ResetOptions {
  fixture?: Fixture | string;
}

export type Credentials = string | number | { username: string; password: string } | null;

export interface SimRequest {
  method: string;
  /** '/api/v1/...', query string allowed. */
  path: string;
  /** A user (email or id: their own API key is used), explicit Basic credentials, or null for none. */
  as?: Credentials;
  query?: Record<string, unknown>;
  /** Form fields: strings as-is, anything else JSON-encoded (as clients send them). */
  body?: Record<string, unknown>;
  /** A JSON body instead (the control API's requests), sent as application/json. */
  json?: unknown;
  /** Files to upload: the request becomes multipart/form-data, `body` its other fields. */
  files?: Record<string, SimFile>;
  headers?: Record<string, string>;
  /** Abort to walk away from the request (a parked GET /events is then released). */
  signal?: AbortSignal;
}

/** A file part of a multipart request. */
export interface SimFile {
  filename: string;
  content: string | Uint8Array;
  /** Its Content-Type; none when omitted. */
  type?: string;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * The parsed JSON body ('' for empty bodies); an HTML page as text; a file's bytes as a Buffer.
   * Tests read it freely.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any JSON a route sends, read without casts
  body: any;
}

/**
 * A simulator in-process. Besides `request` and `listen`, the controls of the control API
 * (control/routes.ts), which HTTP clients reach under /__simulator: reset, snapshot and restore,
 * the outbox, faults, the push service and the request journal.
 */
export interface Simulator extends Controls {
  request(req: SimRequest): Promise<SimResponse>;
  readonly engine: Engine;
  /**
   * The whole simulated server as one JSON document (versioned; see control/snapshot.ts): state,
   * event queues and where the random sources stand. `restore` continues from it exactly.
   */
  snapshot(): Snapshot;
  /**
   * Continue from a snapshot (this simulator's or another's, of the same format version): every
   * later request is answered as the snapshotted simulator would have answered it, given the same
   * clock. Parked polls of the state being replaced are answered. Throws SnapshotError (state
   * untouched) when the snapshot cannot be restored. Faults and the journal stay as they are.
   */
  restore(snapshot: unknown): void;
  /**
   * Back to the fixture's state (same seed, fresh clock, still following real time if it was);
   * parked polls are answered, queues forgotten, faults and the journal cleared. With a fixture (an object, or a path to a JSON
   * file), that fixture instead, for this reset only; a bad one throws FixtureError and changes
   * nothing.
   */
  reset(options?: ResetOptions): void;
  /** The simulated clock: read it, advance it, set it later, follow real time (docs/control-api.md: Simulated time). */
  readonly clock: SimulatorClock;
  /**
   * Outgoing-webhook delivery (SimulatorOptions.deliverWebhooks). `settled()` resolves once no
   * delivery is under way and none is due (a retry waiting for the simulated clock is not).
   */
  readonly webhooks: { readonly enabled: boolean; settled(): Promise<void> };
  /** Real HTTP; options: the body limit, timeouts, connection cap (see http/node.ts). Turns webhook delivery on unless told not to. */
  listen(port?: number, host?: string, options?: HttpOptions): Promise<Listening>;
  /** Use this realm URL from now on (see SimulatorOptions.realmUrl), e.g. the address listen() got. */
  setRealmUrl(url: string): void;
  /** The raw dispatcher (what the HTTP server calls): the control API and the chat API. */
  handle: Handle;
  /**
   * Make the simulated push service fail (`admin_action_required`, `failed_to_connect`,
   * `server_error`) from now on, or for the next `times` pushes only; or work again (null).
   * Pushes that got through are in `outbox().pushes`.
   */
  setPushServiceFailure(failure: PushServiceFailure | null, options?: { times?: number }): void;
}

/** In-process, a fault's dropped connection: the request rejects with this (as a socket reset would). */
export class ConnectionDropped extends Error {
  readonly code = 'ECONNRESET';
  constructor(method: string, path: string) {
    super(`simulator: ${method} ${path}: the connection was dropped (a fault)`);
    this.name = 'ConnectionDropped';
  }
}

export function loadFixtureFile(file: string): Fixture {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new FixtureError([{ pointer: '', message: `cannot read JSON: ${(error as Error).message}` }], file);
  }
  return validateFixture(data, file);
}

/** An http(s) origin, as Zulip's realm_url is (no path, no trailing slash); throws otherwise. */
export function checkRealmUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const origin = parsed && /^https?:$/.test(parsed.protocol) ? parsed.origin : 'null';
  if (!parsed || origin === 'null' || url.replace(/\/+$/, '').toLowerCase() !== origin.toLowerCase()) {
    throw new TypeError(`realmUrl must be an http(s) address without a path, like http://localhost:9991; got ${JSON.stringify(url)}`);
  }
  return origin;
}

function defaultClock(fixture: Fixture): Clock {
  let latest = fixture.realm.date_created ?? 1_700_000_000;
  for (const m of fixture.messages) latest = Math.max(latest, m.timestamp);
  for (const s of fixture.streams) latest = Math.max(latest, s.date_created ?? 0);
  return steppingClock(Math.floor(latest) + 3600, 1);
}

/** Form-encode values the way clients do: strings raw, everything else as JSON. */
export function encodeForm(values: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form.toString();
}

/** A multipart/form-data body, encoded by the platform as fetch would send it. */
export async function encodeMultipart(
  fields: Record<string, unknown>,
  files: Record<string, SimFile>,
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  for (const [field, file] of Object.entries(files)) {
    form.append(field, new Blob([file.content], file.type === undefined ? {} : { type: file.type }), file.filename);
  }
  const request = new Request('http://simulator.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/** A response body as a test reads it: JSON parsed, other text as text, file bytes as a Buffer. */
function readBody(res: RawResponse): unknown {
  if (res.bytes) return Buffer.from(res.bytes);
  if (res.body === '') return '';
  const type = res.headers['content-type'] ?? '';
  // Django's 405 keeps its HTML content type over Zulip's JSON body.
  if (type.startsWith('application/json') || res.body.startsWith('{')) return JSON.parse(res.body);
  return res.body;
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  // Fixtures known to be valid and never to change, so neither checked nor built again (each
  // engine gets a copy of the realm built once): the frozen built-in one, and those read (and
  // checked) from a file here, which nobody else holds.
  const checked = new WeakSet<Fixture>([DEFAULT_FIXTURE]);
  const fromFile = (file: string): Fixture => {
    const read = loadFixtureFile(file);
    checked.add(read);
    return read;
  };
  const fixture = typeof options.fixture === 'string' ? fromFile(options.fixture) : (options.fixture ?? DEFAULT_FIXTURE);
  const seed = options.seed ?? DEFAULT_SEED;
  let engine: Engine;
  let delivery: WebhookDeliverer | null = null;
  const contract = installedContract();
  const observeEvents = contract && ((event: Readonly<Record<string, unknown>>) => contract.event(event));
  const clock = createClockControl(() => engine, {
    ...(options.realClock ? { realClock: options.realClock } : {}),
    ...(options.realTimeTickMs !== undefined ? { tickMs: options.realTimeTickMs } : {}),
    // Webhook retries wait for the simulated clock.
    afterStep: () => delivery?.runDue(),
  });
  const baseClock = (from: Fixture): Clock => options.clock ?? (options.realTime ? clock.realSource : defaultClock(from));
  let realmUrl = options.realmUrl === undefined ? undefined : checkRealmUrl(options.realmUrl);
  const withRealmUrl = (next: Engine): Engine => {
    if (realmUrl !== undefined) next.state.realm.url = realmUrl;
    return next;
  };
  const build = (from: Fixture = fixture): Engine => {
    const next = withRealmUrl(createEngine(from, { seed, clock: baseClock(from), validated: checked.has(from), immutable: checked.has(from), observeEvents }));
    prepareGuessScorer(next.state.realm);
    return next;
  };
  engine = build();
  if (options.realTime) clock.followRealTime(true);
  const replaceEngine = (next: Engine): void => {
    const previous = engine;
    engine = next;
    if (delivery) {
      delivery.reset();
      next.onOutgoingWebhook = delivery.observe;
    }
    clock.rebind();
    closeAllQueues(previous);
  };
  const timeout = options.longPollTimeoutMs;
  const longPollTimeoutMs = typeof timeout === 'number' ? () => timeout : (timeout ?? zulipHeartbeatDelays(seed));
  const faults = createFaults(routes);
  const journal = options.journal === false ? null : createJournal(options.journal);
  const onUnexpectedError = (error: unknown, req: RawRequest): void => {
    console.error(`simulator: unexpected error on ${req.method} ${req.url}:`, error);
  };
  const rateLimits = createRateLimitSwitch(
    (rateLimit) => createDispatcher(() => engine, routes, { longPollTimeoutMs, beforeHandler: faults.intercept, onUnexpectedError, contract, ...(rateLimit ? { rateLimit } : {}) }),
    options.rateLimit || undefined,
  );
  const api = rateLimits.handle;
  const feed = createLiveFeed((seq) => journal?.entries({ after: seq }) ?? []);
  journal?.onSettled(feed.completed);

  function authorization(as: Credentials | undefined): string | undefined {
    if (as === undefined || as === null) return undefined;
    if (typeof as === 'object') return basicAuth(as.username, as.password);
    const user = typeof as === 'number' ? engine.state.users.get(as) : getUserByEmail(engine, as);
    if (!user) throw new Error(`simulator.request: no user ${String(as)}`);
    return basicAuth(user.delivery_email, user.api_key);
  }

  const simulator: Simulator = {
    get engine() {
      return engine;
    },
    handle: api,
    async request(req) {
      let url = req.path.startsWith('/') ? req.path : `${API_PREFIX}/${req.path}`;
      if (req.query && Object.keys(req.query).length > 0) {
        url += (url.includes('?') ? '&' : '?') + encodeForm(req.query);
      }
      const headers: Record<string, string | undefined> = {};
      for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
      const auth = authorization(req.as);
      if (auth !== undefined && headers.authorization === undefined) headers.authorization = auth;
      let body: string | Buffer | undefined;
      if (req.files) {
        const multipart = await encodeMultipart(req.body ?? {}, req.files);
        body = multipart.body;
        headers['content-type'] ??= multipart.contentType;
      } else if (req.json !== undefined) {
        body = JSON.stringify(req.json);
        headers['content-type'] ??= 'application/json';
      } else if (req.body) {
        body = encodeForm(req.body);
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
      }
      const res = await simulator.handle({ method: req.method.toUpperCase(), url, headers, body, signal: req.signal });
      if (res.dropConnection) throw new ConnectionDropped(req.method.toUpperCase(), url);
      return { status: res.status, headers: res.headers, body: readBody(res) };
    },
    snapshot() {
      return takeSnapshot(engine) as Snapshot;
    },
    restore(snapshot) {
      // The time source goes on as it was (the real clock, a test's clock); the snapshot's present
      // is reached if the source is behind it.
      replaceEngine(withRealmUrl(engineFromSnapshot(snapshot, engine.state, { clock: engine.deps.clock.source, seed, observeEvents })));
    },
    reset(resetOptions = {}) {
      const given = resetOptions.fixture;
      replaceEngine(build(given === undefined ? fixture : typeof given === 'string' ? fromFile(given) : given));
      faults.clear();
      journal?.clear();
    },
    outbox() {
      return readOutbox(engine, delivery ? delivery.outcomeOf : undefined);
    },
    clearOutbox() {
      clearOutbox(engine);
    },
    faults: { add: faults.add, list: faults.list, remove: faults.remove, clear: faults.clear },
    pushService() {
      return { ...engine.state.pushService };
    },
    setPushServiceFailure(failure, pushOptions = {}) {
      setPushServiceFailure(engine, failure, pushOptions.times ?? null);
    },
    clock,
    journal: {
      entries: (filter) => journal?.entries(filter) ?? [],
      clear: () => journal?.clear(),
      async feed(request) {
        const page = await feed.read(request);
        return { cursor: page.cursor, entries: page.entries, completed_at: page.completedAt, clock: { now: clock.now(), following_real_time: clock.followingRealTime }, control_changes: page.controlChanges };
      },
    },
    rateLimit: () => ({ enabled: rateLimits.enabled() }),
    setRateLimit: (enabled) => rateLimits.set(enabled),
    liveWatcher(as) {
      return liveWatcher(engine, as);
    },
    webhooks: {
      get enabled() {
        return delivery !== null;
      },
      settled: () => delivery?.settled() ?? Promise.resolve(),
    },
    listen(port = 0, host = '127.0.0.1', httpOptions = {}) {
      if (options.deliverWebhooks === undefined) deliverWebhooks({});
      return listenHttp(simulator.handle, port, host, httpOptions);
    },
    setRealmUrl(url) {
      realmUrl = checkRealmUrl(url);
      withRealmUrl(engine);
    },
  };
  function deliverWebhooks(deliveryOptions: WebhookDeliveryOptions): void {
    if (delivery) return;
    delivery = createWebhookDelivery({ getEngine: () => engine, handle: (req) => simulator.handle(req) }, deliveryOptions);
    engine.onOutgoingWebhook = delivery.observe;
  }
  const setting = options.deliverWebhooks;
  if (setting !== undefined && setting !== false) deliverWebhooks(setting === true ? {} : typeof setting === 'function' ? { fetch: setting } : setting);
  const access = { allowRemoteControl: options.allowRemoteControl === true };
  simulator.handle = createFrontDoor({
    api,
    control: createControlHandler(simulator, { ...access, onChange: feed.controlChanged }),
    livePage: createLivePage(access),
    journal,
    onUnexpectedError,
  });
  return simulator;
}
