/**
 * handle(request) → response for the control API: who may call it (loopback clients, unless the
 * simulator allows remote control; never a web page of another origin), the route, the JSON body
 * checked against its schema, the handler, the answer. No credentials: the API guards itself by
 * where requests come from, and never sits behind the chat API's authentication.
 */
import { ChatError } from '../engine/errors.ts';
import { FixtureError } from '../engine/fixture.ts';
import type { RawRequest } from '../http/dispatch.ts';
import type { RawResponse } from '../http/envelope.ts';
import { ControlError, controlErrorResponse } from './errors.ts';
import { controlOpenApiDocument } from './openapi.ts';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlRoute, type Controls } from './routes.ts';
import { SnapshotError } from './snapshot.ts';
import { checkDocument } from './validate.ts';

/** Snapshots can be large: a control request body may reach 1 GiB. */
export const MAX_CONTROL_BODY_BYTES = 1024 * 1024 * 1024;

export interface ControlOptions {
  /** Answer clients that are not on loopback too (default: refuse them with 403). */
  allowRemoteControl?: boolean;
}

/** Whether a request path is the control API's. */
const CONTROL_DIRECTORY = `${CONTROL_PREFIX}/`;
const CONTROL_QUERY = `${CONTROL_PREFIX}?`;

export function isControlPath(url: string): boolean {
  return url.startsWith(CONTROL_PREFIX) && (url === CONTROL_PREFIX || url.startsWith(CONTROL_DIRECTORY) || url.startsWith(CONTROL_QUERY));
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopbackAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** A Host header naming this machine: localhost, 127.x.x.x or [::1], with any port. */
function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/:\d+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * Throws ControlError FORBIDDEN unless the request may use the control API: a loopback client
 * asking for a loopback name (or any client, with remote control allowed), and no page of another
 * origin. The live page (live/serve.ts) is guarded by the same rule.
 */
export function checkControlAccess(req: RawRequest, options: ControlOptions): void {
  const host = req.headers.host;
  if (!options.allowRemoteControl) {
    // In-process requests have no address: they come from the program that owns the simulator.
    if (req.remoteAddress !== undefined && !isLoopbackAddress(req.remoteAddress)) {
      throw new ControlError(
        'FORBIDDEN',
        `The control API answers clients on this machine only (this request came from ${req.remoteAddress}); start the simulator with --allow-remote-control to open it`,
      );
    }
    // A loopback client asking for another name is a browser led here by DNS rebinding.
    if (host !== undefined && !isLoopbackHost(host)) {
      throw new ControlError('FORBIDDEN', `The control API answers requests for loopback names only (Host: ${host}); start the simulator with --allow-remote-control to open it`);
    }
  }
  // Browsers name the page that sends a request; only the simulator's own origin may use the API.
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originHost: string | null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (host === undefined || originHost !== host.trim().toLowerCase()) {
      throw new ControlError('FORBIDDEN', `The control API refuses requests from web pages of other origins (Origin: ${origin})`);
    }
  } else if (origin === 'null') {
    throw new ControlError('FORBIDDEN', 'The control API refuses requests from web pages of other origins (Origin: null)');
  }
}

interface Compiled {
  route: ControlRoute;
  regex: RegExp;
  names: string[];
}

function compile(route: ControlRoute): Compiled {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([1-9]\\d{0,15})';
  });
  return { route, regex: new RegExp(`^${source}$`), names };
}

function parseBody(req: RawRequest, route: ControlRoute): unknown {
  const raw = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : Buffer.from(req.body).toString('utf8');
  if (raw.trim() === '') {
    if (route.body?.required) throw new ControlError('BAD_REQUEST', `${route.method} ${CONTROL_PREFIX}${route.path} needs a JSON body (${route.body.schema})`);
    return undefined;
  }
  if (!route.body) throw new ControlError('BAD_REQUEST', `${route.method} ${CONTROL_PREFIX}${route.path} takes no body`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new ControlError('BAD_REQUEST', `The body is not JSON: ${(error as Error).message}`);
  }
  return checkDocument(route.body.schema, value);
}

function jsonResponse(status: number, value: unknown): RawResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: `${JSON.stringify(value)}\n` };
}

/** What a handler threw, as the control API's error: the simulator's own errors keep their message. */
function asControlError(error: unknown): ControlError | null {
  if (error instanceof ControlError) return error;
  if (error instanceof FixtureError) return new ControlError('INVALID_FIXTURE', error.message);
  if (error instanceof SnapshotError) return new ControlError('INVALID_SNAPSHOT', `Invalid snapshot: ${error.message}`);
  if (error instanceof ChatError) return new ControlError('BAD_REQUEST', error.msg);
  return null;
}

export interface ControlHandlerOptions extends ControlOptions {
  /** After each successful control request that is not a read (the live feed wakes its readers). */
  onChange?: () => void;
}

export function createControlHandler(controls: Controls, options: ControlHandlerOptions = {}): (req: RawRequest) => Promise<RawResponse> {
  const compiled = CONTROL_ROUTES.map(compile);
  let openApi: string | undefined;
  return async (req) => {
    try {
      checkControlAccess(req, options);
      const queryStart = req.url.indexOf('?');
      const path = (queryStart < 0 ? req.url : req.url.slice(0, queryStart)).slice(CONTROL_PREFIX.length);
      const query = new URLSearchParams(queryStart < 0 ? '' : req.url.slice(queryStart + 1));
      const matches = compiled.map((c) => ({ c, m: c.regex.exec(path) })).filter((x) => x.m !== null);
      if (matches.length === 0) {
        throw new ControlError('NOT_FOUND', `No control endpoint at ${CONTROL_PREFIX}${path} (GET ${CONTROL_PREFIX}/openapi.json lists them)`);
      }
      const method = req.method.toUpperCase();
      const head = method === 'HEAD';
      const hit = matches.find((x) => x.c.route.method === (head ? 'GET' : method));
      if (!hit) {
        const allowed = matches.map((x) => x.c.route.method);
        throw new ControlError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${CONTROL_PREFIX}${path} (allowed: ${allowed.join(', ')})`, { allow: allowed.join(', ') });
      }
      const { route } = hit.c;
      const params: Record<string, string> = {};
      hit.c.names.forEach((name, i) => (params[name] = hit.m![i + 1]!));
      const body = parseBody(req, route);
      let result: unknown;
      if (route.operationId === 'getControlOpenApi') result = JSON.parse((openApi ??= JSON.stringify(controlOpenApiDocument())));
      else result = await route.handler({ controls, query, path: params, body, signal: req.signal });
      if (route.method !== 'GET') options.onChange?.();
      const response = route.response.status === 204 ? { status: 204, headers: {}, body: '' } : jsonResponse(route.response.status, result);
      // HEAD: the GET answer's headers, its length included, and no body.
      return head ? { ...response, headers: { ...response.headers, 'content-length': String(Buffer.byteLength(response.body)) }, body: '' } : response;
    } catch (error) {
      const known = asControlError(error);
      if (known) return controlErrorResponse(known);
      throw error;
    }
  };
}
