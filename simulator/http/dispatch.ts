/**
 * handle(request) → response, for every route of the table: match (404 / 405 / OPTIONS / HEAD),
 * authenticate, check the role, decode parameters, call the handler, add
 * `ignored_parameters_unsupported`, render the envelope. The node:http adapter and the
 * in-process `request()` both go through here, so they cannot disagree.
 */
import { ChatError, isChatError } from '../engine/errors.ts';
import type { Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';
import { authenticate, checkRouteRole, constantTimeEqual, type SecretsEqual } from './auth.ts';
import {
  errorResponse,
  internalErrorResponse,
  methodNotAllowedResponse,
  successResponse,
  type RawResponse,
} from './envelope.ts';
import { decodeParams, type RawParams } from './params.ts';
import type { Method, Route } from './route.ts';

export type { RawResponse } from './envelope.ts';

export interface RawRequest {
  method: string;
  /** Path with optional query string, e.g. '/api/v1/users?client_gravatar=false'. */
  url: string;
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>;
  body?: Buffer | string | undefined;
}

export const API_PREFIX = '/api/v1';

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

function matchPath(table: RouteTable, path: string): { entry: CompiledPattern; params: Record<string, string> } | null {
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

async function parseBody(req: RawRequest): Promise<Map<string, string>> {
  if (req.body === undefined || req.body.length === 0) return new Map();
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return toMap(new URLSearchParams(typeof req.body === 'string' ? req.body : formText(req.body)));
  }
  if (type.startsWith('multipart/form-data')) {
    // zulip-js posts FormData; the platform's own multipart parser reads it.
    try {
      const form = await new Request('http://simulator.invalid/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type']! },
        body: req.body,
      }).formData();
      const out = new Map<string, string>();
      // File parts go to Django's request.FILES, not request.POST: they are no parameter at all.
      for (const [k, v] of form) if (typeof v === 'string') out.set(k, v);
      return out;
    } catch {
      throw ChatError.badRequest('Malformed multipart body');
    }
  }
  // Zulip never reads JSON (or any other) bodies on API endpoints: parameters look missing.
  return new Map();
}

export interface DispatchOptions {
  /** Called with unexpected (non-ChatError) exceptions; default logs to stderr. */
  onUnexpectedError?: (error: unknown, req: RawRequest) => void;
  /** How API keys and passwords are compared. Default: constantTimeEqual. */
  secretsEqual?: SecretsEqual;
}

export type Handle = (req: RawRequest) => Promise<RawResponse>;

export function createDispatcher(getEngine: () => Engine, routes: readonly Route[], options: DispatchOptions = {}): Handle {
  const table = compileRoutes(routes);
  const secretsEqual = options.secretsEqual ?? constantTimeEqual;
  const onUnexpected =
    options.onUnexpectedError ??
    ((error: unknown, req: RawRequest) => {
      console.error(`simulator: unexpected error on ${req.method} ${req.url}:`, error);
    });

  return async function handle(req: RawRequest): Promise<RawResponse> {
    const isHead = req.method.toUpperCase() === 'HEAD';
    let response: RawResponse;
    try {
      response = await dispatch(getEngine(), table, req, secretsEqual);
    } catch (error) {
      if (isChatError(error)) response = errorResponse(error);
      else {
        onUnexpected(error, req);
        response = internalErrorResponse();
      }
    }
    // HEAD: the GET answer's headers (its length included), no body.
    if (!isHead) return response;
    return { ...response, headers: { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) }, body: '' };
  };
}

async function dispatch(engine: Engine, table: RouteTable, req: RawRequest, secretsEqual: SecretsEqual): Promise<RawResponse> {
  const queryStart = req.url.indexOf('?');
  const rawPath = queryStart < 0 ? req.url : req.url.slice(0, queryStart);
  const query = toMap(new URLSearchParams(queryStart < 0 ? '' : req.url.slice(queryStart + 1)));
  // Zulip's URL patterns are exact: `/users/` is not `/users`.
  const decoded = decodePath(rawPath);
  const path = decoded.startsWith(`${API_PREFIX}/`) ? decoded.slice(API_PREFIX.length) : null;
  const matched = path === null ? null : matchPath(table, path);
  if (!matched) throw new ChatError('NOT_FOUND', 'Not Found');
  const { entry } = matched;

  let method = req.method.toUpperCase();
  if (method === 'OPTIONS') {
    return { status: 204, headers: { allow: [...entry.allowed].sort().join(', ') }, body: '' };
  }
  const body = method === 'GET' || method === 'HEAD' ? new Map<string, string>() : await parseBody(req);
  // Legacy method override: a POST form field `method` picks the handler, compared as sent
  // (Django's method names are upper case, so `patch` matches nothing and answers 405).
  if (method === 'POST' && body.has('method')) method = body.get('method')!;
  if (method === 'HEAD') method = 'GET';
  const route = entry.byMethod.get(method as Method);
  if (!route) return methodNotAllowedResponse(entry.allowed);

  const header = req.headers.authorization;
  let user: UserRecord | undefined;
  if (route.auth === 'dev') {
    if (!engine.state.realm.dev_auth_enabled) throw ChatError.badRequest('DevAuthBackend not enabled.');
  } else if (route.auth !== 'none') {
    // An empty header is still a header: Zulip parses it and answers "Invalid authorization header".
    if (header !== undefined) user = authenticate(engine, header, route, secretsEqual);
    else if (route.auth !== 'optional') {
      if ((req.headers.accept ?? '').includes('text/html')) {
        return { status: 302, headers: { location: `/login/?next=${encodeURIComponent(rawPath)}` }, body: '' };
      }
      throw ChatError.unauthorized();
    }
    if (user) {
      checkRouteRole(route, user);
      route.guard?.(engine, user);
    }
  }

  const used = new Set<string>(['client']);
  const raw: RawParams = { path: matched.params, query, body };
  const params = decodeParams(route.params, raw, used);
  const fields = await route.handler({ engine, user, params, headers: lowerHeaders(req.headers), secretsEqual });
  const ignored = new Set<string>();
  for (const k of body.keys()) if (!used.has(k)) ignored.add(k);
  for (const k of query.keys()) if (!used.has(k)) ignored.add(k);
  return successResponse(fields, [...ignored].sort());
}

function lowerHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}
