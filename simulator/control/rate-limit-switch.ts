/**
 * Rate limits switched on and off at run time (PUT /__simulator/rate-limit): the chat API's
 * dispatcher is built with its limits fixed, so the switch holds one without limits and, while
 * they are on, one with them, made afresh each time they are turned on (every bucket empty).
 */
import type { Handle, RawRequest } from '../http/dispatch.ts';
import type { RateLimitConfig } from '../http/rate-limit.ts';

export interface RateLimitSwitch {
  /** What the front door calls: whichever dispatcher is current. */
  readonly handle: Handle;
  enabled(): boolean;
  set(enabled: boolean): void;
}

/**
 * `make(limits)` builds a dispatcher (limits undefined: none); `configured` is what the simulator
 * was started with (on with those rules; off: turning on applies Zulip's defaults).
 */
export function createRateLimitSwitch(make: (limits: RateLimitConfig | undefined) => Handle, configured: RateLimitConfig | undefined): RateLimitSwitch {
  const rules: RateLimitConfig = configured || true;
  let unlimited: Handle | null = configured ? null : make(undefined);
  let limited: Handle | null = configured ? make(configured) : null;
  const current = (): Handle => limited ?? unlimited!;
  const answer = (req: RawRequest) => {
    const now = current();
    return now.answer ? now.answer(req) : now(req);
  };
  const handle: Handle = async (req) => answer(req);
  handle.answer = answer;
  handle.traits = (method, url) => current().traits!(method, url);
  return {
    handle,
    enabled: () => limited !== null,
    set(enabled) {
      if (enabled) limited = make(rules);
      else {
        unlimited ??= make(undefined);
        limited = null;
      }
    },
  };
}
