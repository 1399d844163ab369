/**
 * Faults: chosen requests answered with a chosen error, slowed down, or left without an answer
 * (the connection dropped), for a number of requests or until removed. They act in the dispatch
 * layer, once a request has reached its route and passed authentication (so a fault can name the
 * user, as Zulip's rate limiter does), before its parameters are decoded; the engine never sees
 * a request a fault answered.
 */
import type { Fault, FaultRequest, InjectedError } from '../../schemas/generated/types/control/control.ts';
import { ChatError, type ErrorCode } from '../engine/errors.ts';
import type { RoutedCall } from '../http/dispatch.ts';
import { errorResponse, type RawResponse } from '../http/envelope.ts';
import { rateLimitedError } from '../http/rate-limit.ts';
import type { Route } from '../http/route.ts';
import { ControlError } from './errors.ts';
import type { JournalTrace } from './journal.ts';
import { routeName } from './route-names.ts';
import { checkDocument } from './validate.ts';

export interface Faults {
  /** Checks the fault (ControlError BAD_REQUEST when wrong) and puts it after the others. */
  add(spec: FaultRequest): Fault;
  /** Active faults, oldest first: the first that catches a request acts on it. */
  list(): Fault[];
  remove(id: number): boolean;
  clear(): void;
  /** The dispatcher's beforeHandler: the first fault catching the call acts on it; undefined when none does. */
  intercept(call: RoutedCall): Promise<RawResponse | undefined> | undefined;
}

/** The connection is closed without an answer. */
export const DROPPED: RawResponse = { status: 0, headers: {}, body: '', dropConnection: true };

/** The message of an injected error that says none: the fault's number. */
function faultMessage(id: number): string {
  return `Simulated failure (fault ${id})`;
}

/** A parameter as sent: a path segment, else a form field, else the query string (Zulip's order). */
function parameter(call: RoutedCall, name: string): string | undefined {
  return call.raw.path[name] ?? call.raw.body.get(name) ?? call.raw.query.get(name);
}

/**
 * The error a code stands for when the fault says nothing more: for RATE_LIMIT_HIT the very error
 * the rate limiter answers (rate-limit.ts builds both), waiting the fault's `retry-after` (1 s by
 * default); for BAD_EVENT_QUEUE_ID Zulip's, naming the polled queue; else one naming the fault.
 */
function baseError(code: ErrorCode, error: InjectedError, call: RoutedCall, id: number): ChatError {
  if (code === 'RATE_LIMIT_HIT') {
    const wait = (error.extra as Record<string, unknown> | undefined)?.['retry-after'];
    return rateLimitedError(typeof wait === 'number' && Number.isFinite(wait) && wait >= 0 ? wait : 1);
  }
  if (code === 'BAD_EVENT_QUEUE_ID') {
    const queueId = parameter(call, 'queue_id') ?? '';
    return new ChatError(code, `Bad event queue ID: ${queueId}`, { extra: { queue_id: queueId } });
  }
  return new ChatError(code, faultMessage(id));
}

function injectedResponse(error: InjectedError, call: RoutedCall, id: number): RawResponse {
  const code = error.code as ErrorCode;
  const base = baseError(code, error, call, id);
  const headers: Record<string, string> = { ...base.headers };
  for (const [name, value] of Object.entries(error.headers ?? {})) if (value !== undefined) headers[name] = value;
  return errorResponse(
    new ChatError(code, error.msg ?? base.msg, {
      status: error.status ?? base.status,
      extra: { ...base.extra, ...error.extra },
      headers,
    }),
  );
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    // Shutting down (or the client gone): no point waiting any longer.
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface Active {
  fault: Fault;
  method: string | null;
  path: string | null;
}

export function createFaults(routes: readonly Route[]): Faults {
  const names = new Set(routes.map(routeName));
  const paths = new Set(routes.map((r) => r.path));
  let active: Active[] = [];
  let nextId = 1;

  const catches = (a: Active, call: RoutedCall): boolean => {
    const spec = a.fault.spec;
    if (a.path !== null && (a.path !== call.route.path || (a.method !== null && a.method !== call.route.method))) return false;
    if (spec.user !== undefined) {
      const user = call.user;
      if (!user) return false;
      if (typeof spec.user === 'number' ? user.id !== spec.user : ![user.delivery_email, user.email].some((e) => e.toLowerCase() === String(spec.user).trim().toLowerCase())) return false;
    }
    for (const [name, value] of Object.entries(spec.params ?? {})) if (parameter(call, name) !== value) return false;
    return true;
  };

  return {
    add(input) {
      const spec = checkDocument<FaultRequest>('FaultRequest', input);
      if (spec.error === undefined && spec.latency_ms === undefined && spec.drop === undefined) {
        throw new ControlError('BAD_REQUEST', 'Invalid FaultRequest: a fault needs "error", "latency_ms" or "drop"');
      }
      if (spec.error !== undefined && spec.drop !== undefined) {
        throw new ControlError('BAD_REQUEST', 'Invalid FaultRequest: "error" and "drop" exclude each other (a dropped connection has no answer)');
      }
      let method: string | null = null;
      let path: string | null = null;
      if (spec.route !== undefined) {
        const m = /^(?:(\w+) )?(\/.*)$/.exec(spec.route)!;
        method = m[1] ?? null;
        path = m[2]!;
        if (method === null ? !paths.has(path) : !names.has(spec.route)) {
          throw new ControlError('BAD_REQUEST', `Invalid FaultRequest: route: "${spec.route}" is no route of the API (write it as the route table does, e.g. "POST /messages")`);
        }
      }
      const fault: Fault = { id: nextId++, spec: structuredClone(spec), remaining: spec.times ?? null, hits: 0 };
      active.push({ fault, method, path });
      return structuredClone(fault);
    },
    list() {
      return active.map((a) => structuredClone(a.fault));
    },
    remove(id) {
      const before = active.length;
      active = active.filter((a) => a.fault.id !== id);
      return active.length < before;
    },
    clear() {
      active = [];
    },
    intercept(call) {
      if (active.length === 0) return undefined;
      const hit = active.find((a) => catches(a, call));
      if (!hit) return undefined;
      return act(hit, call);
    },
  };

  async function act(hit: Active, call: RoutedCall): Promise<RawResponse | undefined> {
    const { fault } = hit;
    fault.hits++;
    if (fault.remaining !== null && --fault.remaining === 0) active = active.filter((a) => a !== hit);
    const trace = call.req.trace as JournalTrace | undefined;
    if (trace) trace.faultId = fault.id;
    await wait(fault.spec.latency_ms ?? 0, call.req.signal);
    if (fault.spec.drop) return DROPPED;
    return fault.spec.error ? injectedResponse(fault.spec.error, call, fault.id) : undefined;
  }
}
