/**
 * handle(request) → response, for every route of the table: match (404 / 405 / OPTIONS / HEAD),
 * authenticate, check the role, decode parameters, call the handler, add
 * `ignored_parameters_unsupported`, render the envelope. The node:http adapter and the
 * in-process `request()` both go through here, so they cannot disagree.
 */
import { installedContract, type Contract } from '../contract.ts';
import { ChatError, isChatError } from '../engine/errors.ts';
import type { Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';
import { catchUp, clockNow } from '../engine/time.ts';
import { authenticate, checkRouteRole, constantTimeEqual, createCredentialsReader, type BasicCredentials, type SecretsEqual } from './auth.ts';
import {
  bodyLength,
  errorResponse,
  internalErrorResponse,
  methodNotAllowedResponse,
  successResponse,
  type RawResponse,
} from './envelope.ts';
import { decodeParams, type RawParams } from './params.ts';
import {
  createRateLimiter,
  rateLimitedError,
  rateLimitHeaders,
  type RateLimitConfig,
  type RateLimiter,
  type RateLimitKey,
} from './rate-limit.ts';
import { RawReply, type Method, type Route, type UploadedFile } from './route.ts';

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
}

/** A request that reached a route and passed authentication, about to be decoded and handled. */
export interface RoutedCall {
  req: RawRequest;
  route: Route;
  user: UserRecord | undefined;
  /** Parameters as sent: path segments, query string, form fields. */
  raw: RawParams;
}

export const API_PREFIX = '/api/v1';

/** Where a route's path starts: under /api/v1, or at the site root (file downloads). */
export function routePrefix(route: Route): string {
  return route.outsideApi ? '' : API_PREFIX;
}

interface CompiledPattern {
  pattern: string;
  regex: RegExp | null;
  names: string[];
  byMethod: Map<string, Route>;
  /** Methods in route-definition order, HEAD appended after GET's presence (Django's order). */
  allowed: string[];
}

export interface RouteTable {
  staticPaths: Map<string, CompiledPattern>;
  dynamic: CompiledPattern[];
}

/** Compile the table once: static paths in a map, parameterised ones as anchored regexes. */
export function compileRoutes(routes: readonly Route[]): RouteTable {
  const byPattern = new Map<string, CompiledPattern>();
  // A route answers at its path and at each alias path alike.
  for (const [path, route] of routes.flatMap((r) => [r.path, ...(r.aliasPaths ?? [])].map((p) => [p, r] as const))) {
    let entry = byPattern.get(path);
    if (!entry) {
      const names: string[] = [];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        const spec = route.params.find((p) => p.name === name && p.in === 'path');
        if (!spec) throw new Error(`route ${route.method} ${path}: path parameter ${name} is not declared`);
        if (spec.type === 'int') return '(\\d+)';
        return spec.spansSegments ? '(.+)' : '([^/]+)';
      });
      entry = {
        pattern: path,
        regex: names.length > 0 ? new RegExp(`^${source}$`) : null,
        names,
        byMethod: new Map(),
        allowed: [],
      };
      byPattern.set(path, entry);
    }
    if (entry.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${path}`);
    entry.byMethod.set(route.method, route);
    entry.allowed.push(route.method);
  }
  const all = [...byPattern.values()];
  for (const e of all) if (e.byMethod.has('GET')) e.allowed.push('HEAD');
  return {
    staticPaths: new Map(all.filter((e) => !e.regex).map((e) => [e.pattern, e])),
    dynamic: all.filter((e) => e.regex),
  };
}

function matchPath(table: RouteTable, path: string): UrlMatch {
  const fixed = table.staticPaths.get(path);
  if (fixed) return { entry: fixed, params: {} };
  for (const entry of table.dynamic) {
    const m = entry.regex!.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    entry.names.forEach((name, i) => {
      params[name] = m[i + 1]!;
    });
    return { entry, params };
  }
  return null;
}

/**
 * The path as Django routes it: %-escapes decoded first (PATH_INFO), so `/users/%31%30` is
 * user 10 and `/users/iago%40zulip.com` an email. Escapes that are not UTF-8 stay as written
 * (Django's repercent_broken_unicode), so they reach a route as text instead of failing.
 */
export function decodePath(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.toUpperCase();
      }
    });
  }
}

/** No parameters: shared by every request without a query or a body (nothing writes to them). */
const NO_PARAMS: ReadonlyMap<string, string> = new Map();
const NO_FILES: ReadonlyMap<string, UploadedFile[]> = new Map();
const NONE_IGNORED: string[] = [];
/** The body of a GET or HEAD, which Zulip never reads. */
const NO_BODY: ParsedBody = { fields: NO_PARAMS, files: NO_FILES };

function toMap(search: URLSearchParams): Map<string, string> {
  // Django's QueryDict.get answers the last value of a repeated key.
  const out = new Map<string, string>();
  for (const [k, v] of search) out.set(k, v);
  return out;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Django's QueryDict: the raw form bytes are UTF-8, and a body that is not valid UTF-8 is read
 * as ISO-8859-1 instead (each byte one character) before the %-escapes are decoded.
 */
function formText(body: Buffer): string {
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    return body.toString('latin1');
  }
}

/** A request body: its form fields, and (multipart only) its files, apart as Django keeps them. */
interface ParsedBody {
  fields: ReadonlyMap<string, string>;
  files: ReadonlyMap<string, UploadedFile[]>;
}

/**
 * Django's MultiPartParser.sanitize_file_name: directories dropped, unprintable characters
 * removed; a part left without a name (or named `.`/`..`) is skipped, null.
 */
function djangoFileName(raw: string): string | null {
  const base = raw.slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1);
  // Python's str.isprintable(): no control, format, unassigned or separator characters but the space.
  const name = base.replace(/[\p{C}\p{Z}]/gu, (ch) => (ch === ' ' ? ch : ''));
  return name === '' || name === '.' || name === '..' ? null : name;
}

/**
 * Which parts of a multipart body declare their own Content-Type, in order. The platform's parser
 * gives a file part without one the type text/plain; Django leaves it empty and Zulip then guesses
 * the type from the file name (Python's requests, and so the Python client, sends no type).
 */
function partsDeclaringType(body: Buffer | string, contentType: string): boolean[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return [];
  const text = typeof body === 'string' ? body : body.toString('latin1');
  const parts = text.split(`--${boundary[1] ?? boundary[2]}`).slice(1);
  const out: boolean[] = [];
  for (const part of parts) {
    if (part.startsWith('--')) break;
    const end = part.indexOf('\r\n\r\n');
    out.push(/^content-type[ \t]*:/im.test(end < 0 ? part : part.slice(0, end)));
  }
  return out;
}

/** A request body's parameters: at once, but for multipart bodies, which the platform parses asynchronously. */
function parseBody(req: RawRequest): ParsedBody | Promise<ParsedBody> {
  if (req.body === undefined || req.body.length === 0) return { fields: NO_PARAMS, files: NO_FILES };
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { fields: toMap(new URLSearchParams(typeof req.body === 'string' ? req.body : formText(req.body))), files: NO_FILES };
  }
  if (type.startsWith('multipart/form-data')) return parseMultipart(req.body, req.headers['content-type']!);
  // Zulip never reads JSON (or any other) bodies on API endpoints: parameters look missing.
  return { fields: NO_PARAMS, files: NO_FILES };
}

/** zulip-js posts FormData; the platform's own multipart parser reads it. */
async function parseMultipart(body: Buffer | string, contentType: string): Promise<ParsedBody> {
  let form: FormData;
  try {
    form = await new Request('http://simulator.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  } catch {
    throw ChatError.badRequest('Malformed multipart body');
  }
  const fields = new Map<string, string>();
  const files = new Map<string, UploadedFile[]>();
  const typed = partsDeclaringType(body, contentType);
  let index = -1;
  for (const [field, value] of form) {
    index++;
    if (typeof value === 'string') {
      fields.set(field, value);
      continue;
    }
    // File parts go to Django's request.FILES: only routes that declare a file parameter see them.
    const filename = djangoFileName(value.name);
    if (filename === null) continue;
    const partType = typed[index] === false ? '' : value.type;
    const file: UploadedFile = { field, filename, contentType: partType, bytes: new Uint8Array(await value.arrayBuffer()) };
    const sent = files.get(field);
    if (sent) sent.push(file);
    else files.set(field, [file]);
  }
  return { fields, files };
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

/** What may come at once or later; a promise is checked for, never assumed. */
export type Soon<T> = T | Promise<T>;

export function isPromise<T>(value: Soon<T>): value is Promise<T> {
  return value instanceof Promise;
}

export function createDispatcher(getEngine: () => Engine, routes: readonly Route[], options: DispatchOptions = {}): Handle {
  const tables: RouteTables = {
    api: compileRoutes(routes.filter((r) => !r.outsideApi)),
    site: compileRoutes(routes.filter((r) => r.outsideApi)),
    lastUrl: undefined,
    lastMatch: null,
  };
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
      if (req.method.toUpperCase() !== 'HEAD' || response.dropConnection) return response;
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
    const upper = method.toUpperCase();
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

type UrlMatch = { entry: CompiledPattern; params: Readonly<Record<string, string>> } | null;

/**
 * The route pattern a URL reaches (under /api/v1, or at the site root), and its path parameters.
 * The server asks for a request's traits before it reads the body and dispatches it after, and
 * clients repeat URLs: the last URL's match is kept (it depends on the URL alone).
 */
function matchUrl(tables: RouteTables, url: string): UrlMatch {
  if (url === tables.lastUrl) return tables.lastMatch;
  const queryStart = url.indexOf('?');
  // Zulip's URL patterns are exact: `/users/` is not `/users`.
  const decoded = decodePath(queryStart < 0 ? url : url.slice(0, queryStart));
  const match = decoded.startsWith(`${API_PREFIX}/`) ? matchPath(tables.api, decoded.slice(API_PREFIX.length)) : matchPath(tables.site, decoded);
  tables.lastUrl = url;
  tables.lastMatch = match;
  return match;
}

/** Routes under /api/v1, and the few served from the site root (file downloads). */
interface RouteTables {
  api: RouteTable;
  site: RouteTable;
  lastUrl: string | undefined;
  lastMatch: UrlMatch;
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

/** What dispatch learns about a request that the answer carries whatever it is. */
interface RequestNote {
  rateLimitHeaders?: Record<string, string>;
}

function limiterPerEngine(config: RateLimitConfig): (engine: Engine) => RateLimiter {
  const rules = config as Exclude<RateLimitConfig, false>;
  // Built once now, so that a wrong configuration fails when the simulator is created.
  createRateLimiter(rules);
  const limiters = new WeakMap<Engine, RateLimiter>();
  return (engine) => {
    let limiter = limiters.get(engine);
    if (!limiter) limiters.set(engine, (limiter = createRateLimiter(rules)));
    return limiter;
  };
}

/**
 * The client's address as Zulip reads it: X-Real-IP (set by Zulip's nginx, trusted), else the
 * socket's peer; in-process requests come from loopback.
 */
function clientAddress(req: RawRequest): string {
  return req.headers['x-real-ip'] ?? req.remoteAddress ?? '127.0.0.1';
}

/** The bucket a request counts in before its parameters are read, or undefined when it counts in none. */
function rateLimitKeyOf(route: Route, user: UserRecord | undefined, req: RawRequest): RateLimitKey | undefined {
  if (route.rateLimit === 'exempt' || route.rateLimit === 'password') return undefined;
  if (user) return { domain: 'api_by_user', entity: route.rateLimit === 'events' ? `${user.id}:events` : String(user.id) };
  if (route.auth === 'optional') return { domain: 'api_by_ip', entity: clientAddress(req) };
  return undefined;
}

/** Count the request in its bucket: over the limit, Zulip's 429; either way the headers for the answer. */
function applyRateLimit(engine: Engine, limiter: RateLimiter, key: RateLimitKey, note: RequestNote): void {
  const now = clockNow(engine);
  const verdict = limiter.check(key, now);
  note.rateLimitHeaders = rateLimitHeaders(verdict, now);
  if (verdict.limited) throw rateLimitedError(verdict.secondsToFreedom);
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
  const query = queryStart < 0 ? NO_PARAMS : toMap(new URLSearchParams(req.url.slice(queryStart + 1)));
  const matched = matchUrl(tables, req.url);
  if (!matched) throw new ChatError('NOT_FOUND', 'Not Found');
  const method = req.method.toUpperCase();
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
  const used = new Set<string>(['client']);
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
    const { body, query } = raw;
    // Most requests send only parameters their route reads: no list to make, sort or write.
    let ignored: string[] | undefined;
    for (const k of body.keys()) if (!used.has(k)) (ignored ??= []).push(k);
    for (const k of query.keys()) if (!used.has(k)) (ignored ??= []).push(k);
    return successResponse(answer, ignored === undefined ? NONE_IGNORED : [...new Set(ignored)].sort());
  };
  return isPromise(fields) ? fields.then(envelope) : envelope(fields);
}
