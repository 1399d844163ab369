/**
 * The request pipeline, handle(request) → response, for every route of the table: match (404 /
 * 405 / OPTIONS / HEAD, route-match.ts), read the body (form-body.ts), authenticate, count
 * (route-rate-limit.ts), check the role, decode parameters, call the handler, add
 * `ignored_parameters_unsupported`, render the envelope. The node:http adapter and the
 * in-process `request()` both go through here, so they cannot disagree.
 */
import { installedContract, type Contract } from '../contract.ts';
import { ChatError, isChatError } from '../engine/errors.ts';
import { commit, type Engine } from '../engine/core.ts';
import { isOutcome } from '../engine/events/effects.ts';
import type { UserRecord } from '../engine/state.ts';
import { catchUp } from '../engine/time.ts';
import { authenticate, checkRouteRole, constantTimeEqual, createCredentialsReader, type BasicCredentials, type SecretsEqual } from './auth.ts';
import { bodyLength, errorResponse, internalErrorResponse, methodNotAllowedResponse, successResponse, type RawResponse } from './envelope.ts';
import { NO_BODY, NO_PARAMS, parseBody, toMap, type ParsedBody } from './form-body.ts';
import { decodeParams, type RawParams } from './params.ts';
import type { RateLimitConfig, RateLimiter, RateLimitKey } from './rate-limit.ts';
import { RawReply, Refusal, type Method, type Route, type UploadedFile } from './route.ts';
import { compileTables, matchUrl, type RouteTables, type UrlMatch } from './route-match.ts';
import { applyRateLimit, limiterPerEngine, rateLimitKeyOf, type RequestNote } from './route-rate-limit.ts';

// Where these lived before dispatch was split by job; importers keep working.
export { API_PREFIX, compileRoutes, decodePath, routePrefix, type RouteTable } from './route-match.ts';

export type { RawResponse } from './envelope.ts';

export interface RawRequest {
  method: string;
  /** Path with optional query string, e.g. '/api/v1/users?client_gravatar=false'. */
  url: string;
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>;
  body?: Buffer | string | undefined;
  /**
   * Aborted when the answer is wanted now: the client went away, or the server is shutting
   * down. A request held open (a long-poll) then answers at once with what it has.
   */
  signal?: AbortSignal | undefined;
  /** The client's address (node:http's socket.remoteAddress); undefined in-process. */
  remoteAddress?: string | undefined;
  /** Filled in as dispatch learns them: the route reached and who was authenticated (the journal reads it). */
  trace?: RequestTrace | undefined;
}

export interface RequestTrace {
  route?: Route;
  user?: UserRecord;
  /** The request's parameters as dispatch read them (the journal shows them): path segments, query, form fields, files. */
  path?: Readonly<Record<string, string>>;
  query?: ReadonlyMap<string, string>;
  body?: ReadonlyMap<string, string>;
  files?: ReadonlyMap<string, readonly UploadedFile[]>;
}

/** A request that reached a route and passed authentication, about to be decoded and handled. */
export interface RoutedCall {
  req: RawRequest;
  route: Route;
  user: UserRecord | undefined;
  /** Parameters as sent: path segments, query string, form fields. */
  raw: RawParams;
}

export interface DispatchOptions {
  /** Called with unexpected (non-ChatError) exceptions; default logs to stderr. */
  onUnexpectedError?: (error: unknown, req: RawRequest) => void;
  /** How API keys and passwords are compared. Default: constantTimeEqual. */
  secretsEqual?: SecretsEqual;
  /** How long a parked GET /events waits before its heartbeat, in ms (default 50 s). */
  longPollTimeoutMs?: () => number;
  /**
   * Told of every request that passed authentication and reached its route's handler, with the
   * user it acts as (undefined: nobody). The fuzzer checks with it that only active users act.
   */
  onHandled?: (route: Route, user: UserRecord | undefined) => void;
  /**
   * Called once a request is authenticated and allowed, before its parameters are decoded: may
   * take its time (latency) and answer instead of the route (faults). Undefined (not a promise of
   * it) when it has nothing to do: go on at once.
   */
  beforeHandler?: (call: RoutedCall) => RawResponse | undefined | Promise<RawResponse | undefined>;
  /**
   * Zulip's rate limiting (README: Rate limiting): true for Zulip's default rules, or rules to
   * replace per domain. Default off: no counting and no X-RateLimit-* headers.
   */
  rateLimit?: RateLimitConfig;
  /** Shown every response with the route that gave it (default: the installed contract, if any). */
  contract?: Contract | undefined;
}

/** What the HTTP server must know about a request before it reads the body. */
export interface RequestTraits {
  /** The route's own body limit in bytes (uploads); undefined: the server's general limit. */
  maxBodyBytes: number | undefined;
  /** The route's answer to a body over that limit; undefined: the server's 413. */
  bodyTooLarge: RawResponse | undefined;
  /** Held open until something happens (GET /events): no idle timeout, ended early on shutdown. */
  longPoll: boolean;
}

/** No ignored parameters: shared by every request that sends only what its route reads. */
const NONE_IGNORED: string[] = [];

/** The traits of most routes, shared: the server asks for them on every request. */
const ORDINARY: RequestTraits = Object.freeze({ maxBodyBytes: undefined, bodyTooLarge: undefined, longPoll: false });
const LONG_POLL: RequestTraits = Object.freeze({ maxBodyBytes: undefined, bodyTooLarge: undefined, longPoll: true });

export interface Handle {
  (req: RawRequest): Promise<RawResponse>;
  /**
   * The same answer, given at once when nothing has to be waited for, and a promise only when
   * something does (a long-poll, a multipart body, a handler or fault that takes its time). The
   * HTTP server calls this: a promise per request costs a microtask hop or two.
   */
  answer?(req: RawRequest): RawResponse | Promise<RawResponse>;
  /** The traits of the route a request line reaches (nothing is authenticated or parsed). */
  traits?(method: string, url: string): RequestTraits;
}

/**
 * A request line's method in upper case. Clients send it so: then it is the text as sent, where
 * toUpperCase is a call into the runtime, asked three times per request.
 */
function upperMethod(method: string): string {
  switch (method) {
    case 'GET':
    case 'POST':
    case 'PATCH':
    case 'DELETE':
    case 'PUT':
    case 'HEAD':
    case 'OPTIONS':
      return method;
    default:
      return method.toUpperCase();
  }
}

/** What may come at once or later; a promise is checked for, never assumed. */
export type Soon<T> = T | Promise<T>;

export function isPromise<T>(value: Soon<T>): value is Promise<T> {
  return value instanceof Promise;
}

export function createDispatcher(getEngine: () => Engine, routes: readonly Route[], options: DispatchOptions = {}): Handle {
  const tables = compileTables(routes);
  const settings: DispatchSettings = {
    secretsEqual: options.secretsEqual ?? constantTimeEqual,
    readCredentials: createCredentialsReader(),
    longPollTimeoutMs: options.longPollTimeoutMs ?? (() => 50_000),
    onHandled: options.onHandled,
    beforeHandler: options.beforeHandler,
    rateLimiter: options.rateLimit ? limiterPerEngine(options.rateLimit) : undefined,
  };
  const onUnexpected =
    options.onUnexpectedError ??
    ((error: unknown, req: RawRequest) => {
      console.error(`simulator: unexpected error on ${req.method} ${req.url}:`, error);
    });

  const contract = 'contract' in options ? options.contract : installedContract();

  const answer = (req: RawRequest): Soon<RawResponse> => {
    const note: RequestNote | undefined = settings.rateLimiter ? {} : undefined;
    const reached: Reached = { route: undefined };
    const failed = (error: unknown): RawResponse => {
      if (isChatError(error)) return errorResponse(error);
      onUnexpected(error, req);
      return internalErrorResponse();
    };
    const finish = (response: RawResponse): RawResponse => {
      // Every answer of a counted request says where its bucket stands, errors included (Zulip's middleware).
      if (note?.rateLimitHeaders) response = { ...response, headers: { ...response.headers, ...note.rateLimitHeaders } };
      if (!reached.injected) contract?.response(reached.route, response, req);
      // HEAD: the GET answer's headers (its length included), no body.
      if (upperMethod(req.method) !== 'HEAD' || response.dropConnection) return response;
      return { status: response.status, headers: { ...response.headers, 'content-length': String(bodyLength(response)) }, body: '' };
    };
    let response: Soon<RawResponse>;
    try {
      const engine = getEngine();
      // What came due while the clock moved by itself happens before the request is seen.
      catchUp(engine);
      response = dispatch(engine, tables, req, settings, note, reached);
    } catch (error) {
      response = failed(error);
    }
    return isPromise(response) ? response.then(finish, (error: unknown) => finish(failed(error))) : finish(response);
  };
  const handle: Handle = async function handle(req: RawRequest): Promise<RawResponse> {
    return answer(req);
  };
  handle.answer = answer;
  handle.traits = (method, url) => {
    const matched = matchUrl(tables, url);
    const upper = upperMethod(method);
    const route = matched?.entry.byMethod.get((upper === 'HEAD' ? 'GET' : upper) as Method);
    if (route?.maxBodyBytes === undefined && route?.bodyTooLarge === undefined) return route?.longPoll === true ? LONG_POLL : ORDINARY;
    const engine = getEngine();
    return {
      maxBodyBytes: route?.maxBodyBytes?.(engine),
      bodyTooLarge: route?.bodyTooLarge ? errorResponse(route.bodyTooLarge(engine)) : undefined,
      longPoll: route?.longPoll === true,
    };
  };
  return handle;
}


interface DispatchSettings {
  secretsEqual: SecretsEqual;
  /** What an Authorization header says (the header's text alone decides it: remembered per header). */
  readCredentials: (header: string) => BasicCredentials;
  longPollTimeoutMs: () => number;
  onHandled: DispatchOptions['onHandled'];
  beforeHandler: DispatchOptions['beforeHandler'];
  /** The limiter of an engine (a reset's new engine starts with empty buckets); undefined: off. */
  rateLimiter: ((engine: Engine) => RateLimiter) | undefined;
}


/** The route a request reached, told to the contract with its answer. */
interface Reached {
  route: Route | undefined;
  /** The answer is an injected fault (beforeHandler), not the simulator's. */
  injected?: boolean;
}

function dispatch(
  engine: Engine,
  tables: RouteTables,
  req: RawRequest,
  settings: DispatchSettings,
  note: RequestNote | undefined,
  reached: Reached,
): Soon<RawResponse> {
  const queryStart = req.url.indexOf('?');
  const query = queryStart < 0 ? NO_PARAMS : toMap(req.url.slice(queryStart + 1));
  const matched = matchUrl(tables, req.url);
  if (req.trace) req.trace.query = query;
  if (!matched) throw new ChatError('NOT_FOUND', 'Not Found');
  const method = upperMethod(req.method);
  if (method === 'OPTIONS') {
    return { status: 204, headers: { allow: [...matched.entry.allowed].sort().join(', ') }, body: '' };
  }
  const parsed = method === 'GET' || method === 'HEAD' ? NO_BODY : parseBody(req);
  const request: InFlight = { engine, req, matched, query, method, settings, note, reached };
  return isPromise(parsed) ? parsed.then((body) => routed(request, body)) : routed(request, parsed);
}

/** A request on its way through dispatch: what every stage after the body is read needs. */
interface InFlight {
  engine: Engine;
  req: RawRequest;
  matched: NonNullable<UrlMatch>;
  query: ReadonlyMap<string, string>;
  /** The request line's method, upper case. */
  method: string;
  settings: DispatchSettings;
  note: RequestNote | undefined;
  reached: Reached;
}

/** The route the method picks: authenticate, count, check the role, then the hook and the handler. */
function routed(request: InFlight, parsed: ParsedBody): Soon<RawResponse> {
  const { engine, req, matched, settings, note, reached } = request;
  const body = parsed.fields;
  const trace = req.trace;
  if (trace) {
    trace.path = matched.params;
    trace.body = body;
    trace.files = parsed.files;
  }
  let method = request.method;
  // Legacy method override: a POST form field `method` picks the handler, compared as sent
  // (Django's method names are upper case, so `patch` matches nothing and answers 405).
  if (method === 'POST' && body.has('method')) method = body.get('method')!;
  if (method === 'HEAD') method = 'GET';
  const { entry } = matched;
  const route = entry.byMethod.get(method as Method);
  if (!route) return methodNotAllowedResponse(entry.allowed);
  if (req.trace) req.trace.route = route;
  reached.route = route;

  const header = req.headers.authorization;
  let user: UserRecord | undefined;
  if (route.auth === 'dev') {
    if (!engine.state.realm.dev_auth_enabled) throw ChatError.badRequest('DevAuthBackend not enabled.');
  } else if (route.auth !== 'none') {
    // An empty header is still a header: Zulip parses it and answers "Invalid authorization header".
    if (header !== undefined) user = authenticate(engine, settings.readCredentials(header), route, settings.secretsEqual);
    else if (route.auth !== 'optional') {
      if ((req.headers.accept ?? '').includes('text/html')) {
        const queryStart = req.url.indexOf('?');
        const rawPath = queryStart < 0 ? req.url : req.url.slice(0, queryStart);
        return { status: 302, headers: { location: `/login/?next=${encodeURIComponent(rawPath)}` }, body: '' };
      }
      throw ChatError.unauthorized();
    }
    if (user && req.trace) req.trace.user = user;
  }
  const limiter = note && settings.rateLimiter?.(engine);
  if (limiter) {
    // Zulip counts a call once its credentials are checked, before the view's own checks.
    const key = rateLimitKeyOf(route, user, req);
    if (key) applyRateLimit(engine, limiter, key, note!);
  }
  if (user) {
    checkRouteRole(route, user);
    route.guard?.(engine, user);
  }

  const call: RoutedCall = { req, route, user, raw: { path: matched.params, query: request.query, body, files: parsed.files } };
  // The hook may take its time (latency) or answer instead (a fault); undefined, not a promise
  // of it, when it has nothing to do, and the request runs on without a pause.
  const hook = settings.beforeHandler?.(call);
  if (hook === undefined) return handled(request, call, limiter);
  if (!isPromise(hook)) return hook ? injected(reached, hook) : handled(request, call, limiter);
  return hook.then((instead) => (instead ? injected(reached, instead) : handled(request, call, limiter)));
}

/** A fault the test asked for answers instead of the route: its body is no route's to check. */
function injected(reached: Reached, instead: RawResponse): RawResponse {
  reached.route = undefined;
  reached.injected = true;
  return instead;
}

/** Decode the parameters, call the handler, wrap its answer in the envelope. */
function handled(request: InFlight, call: RoutedCall, limiter: RateLimiter | undefined): Soon<RawResponse> {
  const { engine, req, settings, note } = request;
  const { route, user, raw } = call;
  // Added to, not built from a list: the Set constructor walks its argument as an iterable.
  const used = new Set<string>();
  used.add('client');
  const params = decodeParams(route.params, raw, used);
  // Password attempts count per username, once the parameters are read (Zulip's authenticate()).
  const passwordKey: RateLimitKey | undefined =
    limiter && route.rateLimit === 'password' ? { domain: 'authenticate_by_username', entity: String(params.username) } : undefined;
  if (passwordKey) applyRateLimit(engine, limiter!, passwordKey, note!);
  settings.onHandled?.(route, user);
  const fields = route.handler({
    engine,
    user,
    params,
    headers: req.headers,
    secretsEqual: settings.secretsEqual,
    signal: req.signal,
    longPollTimeoutMs: settings.longPollTimeoutMs,
  });
  const envelope = (answer: Awaited<typeof fields>): RawResponse => {
    // A successful login clears the username's record.
    if (passwordKey) limiter!.clear(passwordKey);
    if (answer instanceof RawReply) return answer.response;
    if (answer instanceof Refusal) {
      commit(engine, answer.done);
      throw answer.error;
    }
    // The one place a route's events are committed: once its handler has answered (Zulip sends
    // a request's events when its transaction commits, send_event_on_commit), so a handler that
    // throws publishes nothing of what it had done.
    const fields = isOutcome(answer) ? commit(engine, answer) : answer;
    const { body, query } = raw;
    // Most requests send only parameters their route reads: no list to make, sort or write.
    let ignored: string[] | undefined;
    for (const k of body.keys()) if (!used.has(k)) (ignored ??= []).push(k);
    for (const k of query.keys()) if (!used.has(k)) (ignored ??= []).push(k);
    return successResponse(fields as object, ignored === undefined ? NONE_IGNORED : [...new Set(ignored)].sort());
  };
  return isPromise(fields) ? fields.then(envelope) : envelope(fields);
}
