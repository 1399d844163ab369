/**
 * Running a fuzzed sequence: a fresh realm, each request sent (in process or over HTTP), every
 * invariant checked after every request. The first request that breaks one ends the sequence
 * and is reported with what it broke.
 */
import { serialize } from 'node:v8';
import type { Engine } from '../../../simulator/engine/core.ts';
import type { RawResponse } from '../../../simulator/http/dispatch.ts';
import { responseProblems, startTracking, stateProblems } from './invariants.ts';
import type { FuzzRequest } from './requests.ts';
import { describeRequest, toRawRequest } from './wire.ts';
import type { World } from './world.ts';

export interface Sequence {
  /** Through a real HTTP server instead of the in-process dispatch. */
  http: boolean;
  /** Also check that every refused request, and every read, left the realm exactly as it was (costs a state copy per request). */
  audit: boolean;
  requests: FuzzRequest[];
}

export interface Failure {
  /** Which request of the sequence (0-based). */
  index: number;
  request: FuzzRequest;
  status: number | undefined;
  body: string;
  problems: string[];
  /** The stack of the exception behind a 500, if any. */
  stack?: string;
}

export interface SequenceResult {
  /** Requests sent (up to and including a failing one). */
  sent: number;
  failure?: Failure;
}

/** A request that takes longer than this has stalled. */
export const STALL_MS = 10_000;

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | 'stalled'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'stalled'>((resolve) => {
    timer = setTimeout(() => resolve('stalled'), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const stateBytes = (engine: Engine) => serialize(engine.state);

/** What the campaign counts: how often each route's handler ran, and succeeded, and each status. */
export interface Coverage {
  /** `METHOD /path` of the route → [handler ran, answered 2xx]. */
  routes: Map<string, [number, number]>;
  statuses: Map<number, number>;
}

export function emptyCoverage(): Coverage {
  return { routes: new Map(), statuses: new Map() };
}

/** What a transport must not change about an answer. */
interface Seen {
  status: number;
  type: string;
  body: string;
  /** The body's bytes (Base64), however the transport handed them over. */
  bytes: string;
  /** The server refused it itself before any route (head too large, malformed, …): HTTP only. */
  refusedByServer: boolean;
}

const seen = (answer: { response: RawResponse; handled: unknown }): Seen => ({
  status: answer.response.status,
  type: answer.response.headers['content-type'] ?? '',
  body: bodyText(answer.response),
  bytes: Buffer.from(answer.response.bytes ?? Buffer.from(answer.response.body, 'utf8')).toString('base64'),
  refusedByServer: false,
});

export async function runSequence(world: World, sequence: Sequence, coverage?: Coverage): Promise<SequenceResult> {
  const result = await runOnce(world, sequence, coverage);
  if (result.failure || !sequence.http) return result;
  return { sent: result.sent, failure: await transportDisagreement(world, sequence, result.answers) };
}

/**
 * A sequence that went over HTTP is replayed in process: every answer must be the same, up to the
 * first request the HTTP server refused itself (a head over its limit: no route saw it).
 */
async function transportDisagreement(world: World, sequence: Sequence, overHttp: Seen[]): Promise<Failure | undefined> {
  const inProcess = await runOnce(world, { ...sequence, http: false }, undefined, overHttp.findIndex((a) => a.refusedByServer));
  for (const [index, viaHttp] of overHttp.entries()) {
    if (viaHttp.refusedByServer) return undefined;
    const direct = inProcess.answers[index];
    if (!direct) return inProcess.failure;
    if (viaHttp.status !== direct.status || viaHttp.type !== direct.type || viaHttp.bytes !== direct.bytes) {
      return {
        index,
        request: sequence.requests[index]!,
        status: viaHttp.status,
        body: viaHttp.body,
        problems: [`over HTTP it answered ${viaHttp.status} ${viaHttp.type} ${viaHttp.body.trim()}; in process ${direct.status} ${direct.type} ${direct.body.trim()}`],
      };
    }
  }
  return undefined;
}


async function runOnce(world: World, sequence: Sequence, coverage: Coverage | undefined, stopAt = -1): Promise<SequenceResult & { answers: Seen[] }> {
  const answers: Seen[] = [];
  const engine = world.fresh();
  const tracker = startTracking(engine);
  let sent = 0;
  for (const [index, request] of sequence.requests.entries()) {
    if (index === stopAt) break;
    const actorId = world.actorUserId(request.actor);
    const actor = actorId === undefined ? undefined : engine.state.users.get(actorId);
    const actorDeactivated = actor !== undefined && !actor.is_active;
    const before = sequence.audit || actorDeactivated ? stateBytes(engine) : undefined;
    const raw = toRawRequest(world, request);
    sent++;
    let answer;
    try {
      answer = await withDeadline(sequence.http ? world.sendHttp(raw) : world.send(raw), STALL_MS);
    } catch (error) {
      return { sent, answers, failure: { index, request, status: undefined, body: '', problems: [`the request failed: ${(error as Error).message}`], stack: (error as Error).stack } };
    }
    if (answer === 'stalled') {
      return { sent, answers, failure: { index, request, status: undefined, body: '', problems: [`no answer within ${STALL_MS / 1000} s`] } };
    }
    const { response, unexpected, handled } = answer;
    answers.push({ ...seen(answer), refusedByServer: sequence.http && handled === undefined && SERVER_REFUSAL.test(response.body) });
    if (coverage) {
      coverage.statuses.set(response.status, (coverage.statuses.get(response.status) ?? 0) + 1);
      if (handled) {
        const key = `${handled.route.method} ${handled.route.path}`;
        const counts = coverage.routes.get(key) ?? [0, 0];
        counts[0]++;
        if (response.status < 300) counts[1]++;
        coverage.routes.set(key, counts);
      }
    }
    const problems = responseProblems(request, response, engine, handled?.route, handled?.user?.id);
    if (handled?.user && (!handled.user.is_active || handled.user.is_system_bot)) {
      problems.push(`${handled.route.method} ${handled.route.path} ran for ${handled.user.delivery_email}, who is ${handled.user.is_active ? 'a system bot' : 'deactivated'}`);
    }
    const reading = handled !== undefined && handled.route.method === 'GET' && !handled.route.path.includes('user_uploads');
    // Zulip tells a bot's owner (a direct message from Notification Bot, rate limited) when the
    // bot's message, sent or scheduled, is refused for a missing or forbidden channel: that
    // refusal changes the realm.
    const ownerAlerted = handled?.user?.is_bot === true && /^\/(messages|scheduled_messages)(\/|$)/.test(handled.route.path);
    if (before !== undefined && (response.status >= 400 || actorDeactivated || reading) && !ownerAlerted && !before.equals(stateBytes(engine))) {
      problems.push(
        actorDeactivated
          ? "a deactivated account's request changed the realm"
          : response.status >= 400
            ? `a refused request (${response.status}) changed the realm`
            : `${handled!.route.method} ${handled!.route.path}, a read, changed the realm`,
      );
    }
    problems.push(...stateProblems(engine, tracker));
    if (problems.length > 0) {
      const stack = unexpected instanceof Error ? unexpected.stack : unexpected === undefined ? undefined : String(unexpected);
      return { sent, answers, failure: { index, request, status: response.status, body: bodyText(response), problems, stack } };
    }
  }
  return { sent, answers };
}

/** The HTTP server's own refusals (hardening.ts, node.ts), made before any route is looked up. */
const SERVER_REFUSAL = /^\{"result":"error","msg":"(Request header fields too large|Chunk extensions too large|Request timeout|Malformed HTTP request|Request body too large)/;

function bodyText(res: RawResponse): string {
  return res.bytes ? `(${res.bytes.length} bytes)` : res.body.slice(0, 500);
}

/** A failure as the lines a person reads to reproduce it by hand. */
export function describeFailure(sequence: Sequence, failure: Failure): string {
  const lines = [`Through ${sequence.http ? 'HTTP' : 'the in-process dispatch'}, on a fresh dev realm (Prospero deactivated, a deactivated bot of Othello's):`];
  sequence.requests.slice(0, failure.index + 1).forEach((r, i) => lines.push(`  ${i + 1}. ${describeRequest(r)}`));
  lines.push(`Request ${failure.index + 1} answered ${failure.status ?? '(nothing)'} ${failure.body.trim()}`);
  for (const p of failure.problems) lines.push(`  broke: ${p}`);
  // A stack's first line may quote a whole input (a regex of 100,000 characters): cut long lines.
  const cut = (line: string) => (line.length > 300 ? `${line.slice(0, 300)}… (${line.length} characters)` : line);
  if (failure.stack) lines.push(`  thrown: ${failure.stack.split('\n').slice(0, 6).map(cut).join('\n    ')}`);
  return lines.join('\n');
}
