/**
 * The seam through which a response and event contract watches the simulator. Nothing is
 * installed in normal use, so the simulator pays one `undefined` check per response and per queued
 * event; the test suite installs a checker (test/contract/) that validates every JSON body against
 * the route's declared response schema and every event against the schema of its type and op, so
 * that a field that drifts from Zulip's shape fails the test that produced it.
 *
 * The contract is read when a simulator, dispatcher or HTTP server is built: install it first.
 */
import type { RawResponse } from './http/envelope.ts';
import type { Route } from './http/route.ts';

export interface Contract {
  /**
   * A response about to be sent. `route` is the route that answered; undefined when none did
   * (unknown path, wrong method, OPTIONS, a refusal of the HTTP server itself).
   */
  response(route: Route | undefined, response: RawResponse, request: { method: string; url: string }): void;
  /** An event as it enters a queue (with its per-queue `id`). */
  event(event: Readonly<Record<string, unknown>>): void;
}

let installed: Contract | undefined;

/** Watch every simulator built from now on (undefined: stop watching new ones). */
export function installContract(contract: Contract | undefined): void {
  installed = contract;
}

export function installedContract(): Contract | undefined {
  return installed;
}
