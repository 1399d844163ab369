/**
 * The rate limiter as dispatch uses it: one limiter per engine (a reset starts with empty
 * buckets), the bucket a routed request counts in, and the count with its X-RateLimit-* headers.
 */
import type { Engine } from '../engine/core.ts';
import type { UserRecord } from '../engine/state.ts';
import { clockNow } from '../engine/time.ts';
import { createRateLimiter, rateLimitedError, rateLimitHeaders, type RateLimitConfig, type RateLimiter, type RateLimitKey } from './rate-limit.ts';
import type { Route } from './route.ts';

/** What dispatch learns about a request that the answer carries whatever it is. */
export interface RequestNote {
  rateLimitHeaders?: Record<string, string>;
}

export function limiterPerEngine(config: RateLimitConfig): (engine: Engine) => RateLimiter {
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

/** What a request tells of where it comes from. */
export interface AddressedRequest {
  headers: Record<string, string | undefined>;
  remoteAddress?: string | undefined;
}

/**
 * The client's address as Zulip reads it: X-Real-IP (set by Zulip's nginx, trusted), else the
 * socket's peer; in-process requests come from loopback.
 */
function clientAddress(req: AddressedRequest): string {
  return req.headers['x-real-ip'] ?? req.remoteAddress ?? '127.0.0.1';
}

/** The bucket a request counts in before its parameters are read, or undefined when it counts in none. */
export function rateLimitKeyOf(route: Route, user: UserRecord | undefined, req: AddressedRequest): RateLimitKey | undefined {
  if (route.rateLimit === 'exempt' || route.rateLimit === 'password') return undefined;
  if (user) return { domain: 'api_by_user', entity: route.rateLimit === 'events' ? `${user.id}:events` : String(user.id) };
  if (route.auth === 'optional') return { domain: 'api_by_ip', entity: clientAddress(req) };
  return undefined;
}

/** Count the request in its bucket: over the limit, Zulip's 429; either way the headers for the answer. */
export function applyRateLimit(engine: Engine, limiter: RateLimiter, key: RateLimitKey, note: RequestNote): void {
  const now = clockNow(engine);
  const verdict = limiter.check(key, now);
  note.rateLimitHeaders = rateLimitHeaders(verdict, now);
  if (verdict.limited) throw rateLimitedError(verdict.secondsToFreedom);
}