/**
 * Real-time cases. `events-latency`: the ten subscribers of a channel each hold a GET /events
 * long-poll; messages are sent to the channel one at a time and timed from the send to each
 * poll's answer. `queues` (issue 9's scale case): the same with many more queues open, each
 * holding a long-poll (one per extra user, ten of them the channel's subscribers): the memory a
 * queue costs, the delivery latency, and POST /messages throughput beside an identical server
 * without queues, in ABBA rounds. The clients run in a process of their own (poller.ts), on the
 * generator's core.
 */
import { alternate, measureLoad, type LoadRun } from '../harness/load.ts';
import { startChild, type ChildServer } from '../harness/processes.ts';
import { median } from '../harness/stats.ts';
import { startSimulator, type BenchContext, type SimChild } from './context.ts';
import type { ProbeResult } from './poller.ts';
import { BENCH_CHANNEL, type SimInfo } from './simulator-child.ts';
import { requestAs } from './throughput.ts';

const SENDER = 'iago@zulip.com';

export interface LatencyResult {
  kind: 'latency';
  name: string;
  title: string;
  queues: number;
  messages: number;
  deliveries: number;
  p50: number;
  p99: number;
  sendP50: number;
}

export interface QueuesResult {
  kind: 'queues';
  name: string;
  title: string;
  queues: number;
  /** Heap per registered queue, and per poll parked on it (request, socket), bytes. */
  bytesPerQueue: number;
  bytesPerParkedPoll: number;
  /** POST /messages rates with the queues ÷ without, per round, and their median. */
  ratios: number[];
  ratio: number;
  withQueues: { rps: number; p50: number; p99: number; usPerRequest: number; pollerCpu: number };
  withoutQueues: { rps: number; p50: number; p99: number; usPerRequest: number };
  latency: LatencyResult;
  errors: number;
}

type Poller = ChildServer<Record<string, never>>;

function startPoller(ctx: BenchContext, port: number): Promise<Poller> {
  return startChild(ctx.self, ['--child', 'poller', '--port', String(port)], { core: ctx.placement.generatorCore });
}

function account(info: SimInfo, email: string): { email: string; apiKey: string } {
  return { email, apiKey: info.credentials[email]! };
}

async function waitParked(sim: SimChild, count: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { parked } = await sim.call<{ parked: number }>('queues');
    if (parked >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} polls parked after 5 s`);
}

async function probe(ctx: BenchContext, poller: Poller, info: SimInfo, name: string, title: string, queues: number): Promise<LatencyResult> {
  const result = await poller.call<ProbeResult>('probe', { sender: account(info, SENDER), channel: BENCH_CHANNEL, messages: ctx.probes, expect: 10 });
  return {
    kind: 'latency',
    name,
    title,
    queues,
    messages: ctx.probes,
    deliveries: result.deliveries.length,
    p50: result.p50,
    p99: result.p99,
    sendP50: result.sendP50,
  };
}

export async function runLatencyCase(ctx: BenchContext): Promise<LatencyResult> {
  const sim = await startSimulator(ctx, { stored: 0, users: 10, channel: true }, 'events-latency');
  const poller = await startPoller(ctx, sim.info.port);
  try {
    await poller.call('register', { accounts: sim.info.extraUsers.map((e) => account(sim.info, e)), count: 10 });
    await poller.call('park');
    await waitParked(sim, 10);
    return await probe(ctx, poller, sim.info, 'events-latency', `GET /events delivery, 10 polls (send → each poll answered)`, 10);
  } finally {
    await poller.stop();
    await sim.stop();
  }
}

export async function runQueuesCase(ctx: BenchContext): Promise<QueuesResult> {
  const n = ctx.queues;
  const setup = { stored: 0, users: n, channel: true };
  const name = `queues-${n}`;
  const sims = {
    without: await startSimulator(ctx, setup, `${name}-without`, { gc: true }),
    with: await startSimulator(ctx, setup, `${name}-with`, { gc: true }),
  };
  const poller = await startPoller(ctx, sims.with.info.port);
  try {
    const memory = async (): Promise<number> => (await sims.with.call<{ heapUsed: number }>('memory')).heapUsed;
    const bare = await memory();
    await poller.call('register', { accounts: sims.with.info.extraUsers.map((e) => account(sims.with.info, e)), count: n });
    const registered = await memory();
    await poller.call('park');
    await waitParked(sims.with, n);
    const parked = await memory();

    const request = requestAs(sims.with.info, SENDER, 'POST', '/api/v1/messages', { type: 'stream', to: BENCH_CHANNEL, topic: 'load', content: 'hello from the benchmark' });
    const warmUp = { ...ctx.load, seconds: 1 };
    for (const side of ['without', 'with'] as const) await measureLoad(sims[side], request, warmUp);
    const pollerCpu: number[] = [];
    const runs = await alternate(['without', 'with'] as const, ctx.rounds, async (side) => {
      const before = await poller.cpuMs();
      const run = await measureLoad(sims[side], request, ctx.load);
      if (side === 'with') pollerCpu.push(((await poller.cpuMs()) - before) / (ctx.load.seconds * 1000));
      return run;
    });
    const ratios = runs.with.map((w, i) => w.rps / runs.without[i]!.rps);
    const side = (rs: LoadRun[]) => ({
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      usPerRequest: median(rs.map((r) => r.serverUsPerRequest)),
    });
    const { parked: stillParked } = await sims.with.call<{ parked: number }>('queues');
    if (stillParked < n) ctx.log(`  note: ${n - stillParked} polls were not parked after the load (answered and not yet back)`);
    const latency = await probe(ctx, poller, sims.with.info, `${name}-latency`, `GET /events delivery among ${n} parked polls`, n);
    const failures = await poller.call<number>('failures');
    return {
      kind: 'queues',
      name,
      title: `${n} open queues, each holding a long-poll`,
      queues: n,
      bytesPerQueue: (registered - bare) / n,
      bytesPerParkedPoll: (parked - registered) / n,
      ratios,
      ratio: median(ratios),
      withQueues: { ...side(runs.with), pollerCpu: median(pollerCpu) },
      withoutQueues: side(runs.without),
      latency,
      errors: failures + [...runs.with, ...runs.without].reduce((k, r) => k + r.errors + r.non2xx, 0),
    };
  } finally {
    await poller.stop();
    await Promise.all([sims.without.stop(), sims.with.stop()]);
  }
}
