// Shared helpers for the messages tests: a fresh dev-realm simulator and short request forms.
import { watchEvents } from '../helpers.ts';
import { createSimulator, type Credentials, type Simulator } from '../../../simulator/index.ts';
import type { Fixture } from '../../../schemas/generated/types/chat/fixture.ts';

export function sim(): Simulator {
  return createSimulator({ seed: 7 });
}

export const HAMLET = 'hamlet@zulip.com';
export const IAGO = 'iago@zulip.com';
export const OTHELLO = 'othello@zulip.com';
export const CORDELIA = 'cordelia@zulip.com';
export const POLONIUS = 'polonius@zulip.com';
export const DESDEMONA = 'desdemona@zulip.com';
export const PROSPERO = 'prospero@zulip.com';

export function post(s: Simulator, as: Credentials, path: string, body: Record<string, unknown>) {
  return s.request({ method: 'POST', path: `/api/v1${path}`, as, body });
}

export function get(s: Simulator, as: Credentials, path: string, query: Record<string, unknown> = {}) {
  return s.request({ method: 'GET', path: `/api/v1${path}`, as, query });
}

export function del(s: Simulator, as: Credentials, path: string, body: Record<string, unknown>) {
  return s.request({ method: 'DELETE', path: `/api/v1${path}`, as, body });
}

/** GET /messages with JSON-encoded narrow. */
export function fetchMessages(s: Simulator, as: Credentials, query: Record<string, unknown>) {
  const q: Record<string, unknown> = { ...query };
  if (q.narrow !== undefined && typeof q.narrow !== 'string') q.narrow = JSON.stringify(q.narrow);
  return get(s, as, '/messages', q);
}

export function error(code: string, msg: string, extra: Record<string, unknown> = {}) {
  return { result: 'error', code, msg, ...extra };
}

export function patch(s: Simulator, as: Credentials, path: string, body: Record<string, unknown>) {
  return s.request({ method: 'PATCH', path: `/api/v1${path}`, as, body });
}

/** After every fixture message: the dev realm's history is then between ~1 and ~2 days old. */
export const LATER = 1_700_200_000;

/** A simulator whose clock stands still until the test moves it (time limits on the simulated clock). */
export function clockedSim(fixture?: Fixture, start = LATER): { s: Simulator; advance(seconds: number): void; now(): number } {
  let t = start;
  const s = createSimulator({ seed: 7, clock: { now: () => t }, ...(fixture ? { fixture } : {}) });
  return {
    s,
    advance(seconds) {
      t += seconds;
    },
    now: () => t,
  };
}

/** What users' queues received since `mark` (a watchEvents() taken earlier), each event with who got it. */
export function eventsSince(mark: ReturnType<typeof watchEvents>) {
  return mark.take();
}
