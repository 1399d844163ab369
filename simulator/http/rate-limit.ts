/**
 * Zulip's rate limiter (zerver/lib/rate_limiter.py, the Redis backend), on the simulated clock:
 * each key keeps the times of its latest calls; a call is refused while, for some rule
 * (window, count), the count-th latest call is still inside the window. Refused calls are not
 * recorded. Answers carry `X-RateLimit-Limit`, `-Remaining` and `-Reset` as Zulip's
 * RateLimitMiddleware writes them, and a refusal is Zulip's RateLimitedError (429).
 *
 * Request-level, so it lives in the HTTP layer; its state is keyed on the engine it serves,
 * so a reset (a new engine) starts with empty buckets. Off unless configured.
 */
import { ChatError } from '../engine/errors.ts';

/** A rule: at most `calls` calls within any `windowSeconds`. */
export type RateLimitRule = readonly [windowSeconds: number, calls: number];

/** The rule domains the simulator applies (Zulip's names, from DEFAULT_RATE_LIMITING_RULES). */
export interface RateLimitRules {
  /** Every authenticated API call, per user. */
  api_by_user: readonly RateLimitRule[];
  /** Unauthenticated calls to routes that allow them (spectators), per client IP address. */
  api_by_ip: readonly RateLimitRule[];
  /** Password attempts (POST /fetch_api_key), per username given; a success clears the record. */
  authenticate_by_username: readonly RateLimitRule[];
}

/** Zulip's defaults (zproject/default_settings.py, DEFAULT_RATE_LIMITING_RULES). */
export const ZULIP_RATE_LIMITING_RULES: RateLimitRules = {
  api_by_user: [[60, 200]],
  api_by_ip: [[60, 100]],
  authenticate_by_username: [[1800, 5]],
};

/** `true`: Zulip's rules; an object: Zulip's rules with these domains replaced (as Zulip merges RATE_LIMITING_RULES). */
export type RateLimitConfig = boolean | Partial<RateLimitRules>;

/** Which bucket a request counts in; exemptions are declared on the route. */
export interface RateLimitKey {
  domain: keyof RateLimitRules;
  /** The user id, the client address, or the username. */
  entity: string;
}

/** What one applied limit says about the request (Zulip's RateLimitResult). */
export interface RateLimitVerdict {
  limited: boolean;
  /** Seconds until the call would be accepted (limited) or until the bucket is empty (not). */
  secondsToFreedom: number;
  remaining: number;
  limit: number;
}

interface SortedRules {
  rules: readonly RateLimitRule[];
  maxCalls: number;
  maxWindow: number;
}

/** Zulip's "no rules" stand-in: 9999 calls a second. */
const NO_RULES: readonly RateLimitRule[] = [[1, 9999]];

function sortRules(rules: readonly RateLimitRule[]): SortedRules {
  const sorted = (rules.length > 0 ? [...rules] : [...NO_RULES]).sort((a, b) => a[0] - b[0]);
  const last = sorted[sorted.length - 1]!;
  return { rules: sorted, maxWindow: last[0], maxCalls: last[1] };
}

export function checkRateLimitConfig(config: Partial<RateLimitRules>): void {
  for (const [domain, rules] of Object.entries(config)) {
    if (!(domain in ZULIP_RATE_LIMITING_RULES)) {
      throw new Error(`rateLimit: unknown domain "${domain}" (known: ${Object.keys(ZULIP_RATE_LIMITING_RULES).join(', ')})`);
    }
    for (const rule of rules ?? []) {
      const ok = Array.isArray(rule) && rule.length === 2 && rule.every((n) => Number.isInteger(n) && n > 0);
      if (!ok) throw new Error(`rateLimit.${domain}: each rule is [windowSeconds, calls], positive whole numbers; got ${JSON.stringify(rule)}`);
    }
  }
}

export interface RateLimiter {
  /** Count a call of `key` at `now` (Unix seconds), or refuse it. */
  check(key: RateLimitKey, now: number): RateLimitVerdict;
  /** Forget the key's calls (a successful password attempt). */
  clear(key: RateLimitKey): void;
}

export function createRateLimiter(config: Exclude<RateLimitConfig, false>): RateLimiter {
  const overrides = config === true ? {} : config;
  checkRateLimitConfig(overrides);
  const rules = Object.fromEntries(
    (Object.keys(ZULIP_RATE_LIMITING_RULES) as (keyof RateLimitRules)[]).map((d) => [d, sortRules(overrides[d] ?? ZULIP_RATE_LIMITING_RULES[d])]),
  ) as Record<keyof RateLimitRules, SortedRules>;
  /** Newest call first, at most the longest rule's count (Zulip trims its Redis list the same way). */
  const calls = new Map<string, number[]>();
  const id = (key: RateLimitKey): string => `${key.domain}:${key.entity}`;

  return {
    check(key, now) {
      const { rules: list, maxCalls, maxWindow } = rules[key.domain];
      const bucketId = id(key);
      const bucket = calls.get(bucketId) ?? [];
      for (const [window, count] of list) {
        const nth = bucket[count - 1];
        if (nth !== undefined && nth + window >= now) {
          return { limited: true, secondsToFreedom: nth + window - now, remaining: 0, limit: maxCalls };
        }
      }
      bucket.unshift(now);
      if (bucket.length > maxCalls) bucket.length = maxCalls;
      calls.set(bucketId, bucket);
      // Zulip's api_calls_left: calls in the longest window, and when the newest one leaves it.
      let inWindow = 0;
      for (const t of bucket) if (t >= now - maxWindow) inWindow++;
      return { limited: false, secondsToFreedom: bucket[0]! + maxWindow - now, remaining: maxCalls - inWindow, limit: maxCalls };
    },
    clear(key) {
      calls.delete(id(key));
    },
  };
}

/** Python's str(float): a whole number keeps its `.0` (Django writes the header that way). */
function pythonFloat(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/** The X-RateLimit-* headers of an answer (Zulip's RateLimitMiddleware.set_response_headers). */
export function rateLimitHeaders(verdict: RateLimitVerdict, now: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': String(verdict.remaining),
    'X-RateLimit-Reset': String(Math.trunc(now + verdict.secondsToFreedom)),
  };
}

/** Zulip's RateLimitedError: 429 RATE_LIMIT_HIT, the wait in the body and in Retry-After. */
export function rateLimitedError(secondsToFreedom: number): ChatError {
  return new ChatError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', {
    extra: { 'retry-after': secondsToFreedom },
    headers: { 'Retry-After': pythonFloat(secondsToFreedom) },
  });
}
