/**
 * Every case of `npm run bench:sim`, by name. Throughput cases compare the simulator with a floor
 * answering the same bytes (throughput.ts); the series ones repeat one request at each stored-
 * message count of --stored. `--cases` picks cases by name, or every size of a series by its name.
 */
import { runConstructsCase, SEND_MIX, type ConstructsResult } from './constructs.ts';
import type { BenchContext } from './context.ts';
import { runMemoryCase, type MemoryResult } from './memory.ts';
import { runLatencyCase, runQueuesCase, type LatencyResult, type QueuesResult } from './realtime.ts';
import { BENCH_CHANNEL } from './simulator-child.ts';
import { runStartupCase, type StartupResult } from './startup.ts';
import { requestAs, runThroughputCase, type ThroughputCase, type ThroughputResult } from './throughput.ts';

export type CaseResult = ThroughputResult | LatencyResult | QueuesResult | MemoryResult | StartupResult | ConstructsResult;

export interface BenchCase {
  name: string;
  /** A series' name, shared by its sizes. */
  series?: string;
  title: string;
  run(ctx: BenchContext): Promise<CaseResult>;
  /** A throughput case's set-up and request (what --instructions counts). */
  throughput?: ThroughputCase;
}

const IAGO = 'iago@zulip.com';
const NO_SETUP = { stored: 0, users: 0, channel: false };
/** Messages stored for the narrow (a quarter of them in its channel), and for the memory case. */
const NARROW_STORED = 1_000;
export const MEMORY_MESSAGES = 100_000;

const send = (to: string, topic = 'bench', content = 'hello from the benchmark') => ({ type: 'stream', to, topic, content });

function throughput(c: ThroughputCase): BenchCase {
  return { name: c.name, ...(c.series ? { series: c.series } : {}), title: c.title, run: (ctx) => runThroughputCase(ctx, c), throughput: c };
}

export function benchCases(ctx: BenchContext): BenchCase[] {
  const series = (name: string, title: string, make: (stored: number) => Omit<ThroughputCase, 'name' | 'series' | 'title' | 'target'>): BenchCase[] =>
    ctx.stored.map((stored) =>
      throughput({ name: `${name}@${stored}`, series: name, title: `${title}, ${stored.toLocaleString('en')} messages stored`, target: null, ...make(stored) }),
    );
  return [
    throughput({ name: 'users-me', title: 'GET /users/me', target: 0.8, setup: NO_SETUP, request: (info) => requestAs(info, IAGO, 'GET', '/api/v1/users/me') }),
    throughput({
      name: 'narrow-50',
      title: 'GET /messages, channel narrow, 50 newest',
      target: 0.5,
      setup: { ...NO_SETUP, stored: NARROW_STORED },
      request: (info) =>
        requestAs(info, IAGO, 'GET', `/api/v1/messages?${new URLSearchParams({ anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify([{ operator: 'channel', operand: 'Verona' }]) })}`),
    }),
    throughput({
      name: 'send-channel',
      title: `POST /messages to a channel of 10 subscribers, ${SEND_MIX.length} contents in turn (constructs)`,
      target: 0.5,
      setup: { stored: 0, users: 10, channel: true },
      request: (info) => SEND_MIX.map((c) => requestAs(info, IAGO, 'POST', '/api/v1/messages', send(BENCH_CHANNEL, 'bench', c.content))),
    }),
    throughput({
      name: 'send-direct',
      title: `POST /messages, direct to one user, ${SEND_MIX.length} contents in turn (constructs)`,
      target: 0.5,
      setup: NO_SETUP,
      request: (info) =>
        SEND_MIX.map((c) => requestAs(info, IAGO, 'POST', '/api/v1/messages', { type: 'direct', to: JSON.stringify([info.ids['hamlet@zulip.com']]), content: c.content })),
    }),
    { name: 'constructs', title: 'in-process sends of each content of the send mix', run: (c) => runConstructsCase(c) },
    ...series('streams', 'GET /streams', (stored) => ({ setup: { ...NO_SETUP, stored }, request: (info) => requestAs(info, IAGO, 'GET', '/api/v1/streams') })),
    ...series('subscriptions', 'GET /users/me/subscriptions', (stored) => ({
      setup: { ...NO_SETUP, stored },
      request: (info) => requestAs(info, IAGO, 'GET', '/api/v1/users/me/subscriptions'),
    })),
    ...series('send-stored', 'POST /messages (channel of 10)', (stored) => ({
      setup: { ...NO_SETUP, stored },
      request: (info) => requestAs(info, IAGO, 'POST', '/api/v1/messages', send('Verona')),
    })),
    { name: 'events-latency', title: 'GET /events delivery latency', run: runLatencyCase },
    { name: 'queues', title: `${ctx.queues} open queues holding long-polls`, run: runQueuesCase },
    { name: 'memory', title: 'memory per stored message', run: (c) => runMemoryCase(c, MEMORY_MESSAGES) },
    { name: 'startup', title: 'start-up', run: runStartupCase },
  ];
}

/** The cases `selection` names (a case's name, or a series'), in table order; unknown names throw. */
export function selectCases(cases: BenchCase[], selection: string[] | null): BenchCase[] {
  if (selection === null) return cases;
  for (const token of selection) {
    if (!cases.some((c) => c.name === token || c.series === token)) {
      throw new Error(`unknown case "${token}" (cases: ${[...new Set(cases.map((c) => c.series ?? c.name))].join(', ')})`);
    }
  }
  return cases.filter((c) => selection.includes(c.name) || (c.series !== undefined && selection.includes(c.series)));
}
