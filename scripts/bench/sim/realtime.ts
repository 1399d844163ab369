/**
 * Real-time cases. `events-latency`: the ten subscribers of a channel each hold a GET /events
 * long-poll; messages are sent to the channel one at a time and timed from the send to each
 * poll's answer. `queues` (issue 9's scale case): many more queues open, each holding a
 * long-poll (one per extra user; ten of them subscribe to the channel): the memory a queue costs,
 * the delivery latency among them, and POST /messages throughput beside an identical server
 * without queues, in alternating rounds: sent to a channel none of the queues' users is in (what
 * open queues cost by being there), and to their channel (each message also answers ten polls,
 * which poll again). The clients run in a process of their own (poller.ts), on the generator's core.
 *
 * A probe first sends WARM_UP_MESSAGES messages it does not count: its requests are not the load
 * rounds' (another client, other headers), so V8 throws away code it had optimized for those and
 * compiles again, on helper threads pinned to the simulator's CPU, for the first few hundred
 * messages (a server started cold, longer). Their figures are reported beside the counted ones. Around every counted message the
 * clients' process reads how long each process's event loop waited for a CPU (cpu-waits.ts): on a
 * machine shared with other work, that is where a slow delivery's time goes.
 */
import type { ProcessCpu } from '../harness/cpu-waits.ts';
import { pausedWithin, summarizeGcPauses, type GcPause, type GcSummary } from '../harness/gc-pauses.ts';
import { alternate, measureLoad, type LoadRun } from '../harness/load.ts';
import { startChild, type ChildServer } from '../harness/processes.ts';
import { median, percentile } from '../harness/stats.ts';
import { startSimulator, type BenchContext, type SimChild } from './context.ts';
import type { ProbeResult, ProbeTimeline, Received } from './poller.ts';
import { BENCH_CHANNEL, type SimInfo } from './simulator-child.ts';
import { requestAs } from './throughput.ts';

const SENDER = 'iago@zulip.com';
/** Messages a probe sends before those it counts (see the file comment). */
export const WARM_UP_MESSAGES = 500;
/** A message's event loop "waited" when it spent this long ready to run without a CPU, ms. */
export const WAITED_MS = 0.5;

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
  /** Server CPU per probe message, µs: its send, its deliveries and the polls renewed after them. */
  serverUsPerMessage: number;
  /** Collector pauses during the probe, in the simulator and in the polling clients' process. */
  gc: { simulator: GcSummary; poller: GcSummary };
  /**
   * The slowest deliveries (above p95) and what overlapped them: a pause in the simulator, in the
   * clients' process; a message during which either process's event loop waited for a CPU
   * (null counts where that cannot be measured); or none of these.
   */
  slow: SlowDeliveries;
  /** Every delivery whose span overlapped no pause in either process: how many, their p50 / p99, ms. */
  unpaused: Spread;
  /** CPU waits during the counted messages (null where not measurable, e.g. not Linux). */
  cpu: CpuWaits | null;
  /** The messages sent first and not counted, while V8 re-optimizes for the probe's requests. */
  warmUp: { messages: number; p50: number; p99: number; serverUsPerMessage: number };
  /** The client's time to build a send before writing it (not counted in the latency), p50 / p99, ms. */
  building: { p50: number; p99: number };
}

export interface Spread {
  deliveries: number;
  p50: number;
  p99: number;
}

export interface SlowDeliveries {
  above: number;
  deliveries: number;
  simulatorPaused: number;
  pollerPaused: number;
  simulatorWaited: number | null;
  pollerWaited: number | null;
  neither: number;
}

export interface CpuWaits {
  /** Over all counted messages, ms: each event loop's time waiting for its CPU, and the CPU its other threads used. */
  simulator: { waitMs: number; helpersMs: number };
  poller: { waitMs: number; helpersMs: number };
  /** Messages during which the simulator's, the clients', or either event loop waited ≥ WAITED_MS. */
  messagesWaited: { simulator: number; poller: number; either: number };
  /** Deliveries of the messages during which neither waited ≥ WAITED_MS. */
  unwaited: Spread;
}

export interface QueuesResult {
  kind: 'queues';
  name: string;
  title: string;
  queues: number;
  /** Heap per registered queue (with the journal's record of its POST /register, and without), and per poll parked on it (request, socket), bytes. */
  bytesPerQueue: number;
  bytesPerQueueBeyondJournal: number;
  bytesPerParkedPoll: number;
  /** POST /messages rate with the queues open, none of them receiving, ÷ without queues: per round and median. */
  ratios: number[];
  ratio: number;
  /** The same when ten of the queues receive each message (their polls answered and renewed). */
  receivingRatios: number[];
  receivingRatio: number;
  withoutQueues: SendSide;
  idleQueues: SendSide;
  receivingQueues: SendSide & {
    pollerCpu: number;
    /** GET /events answers per send (one answer may carry several messages when polls lag). */
    answersPerSend: number;
    /** Server CPU each of those answers added (its renewed poll included), µs: beside the idle side. */
    usPerAnswer: number;
  };
  latency: LatencyResult;
  errors: number;
}

export interface SendSide {
  rps: number;
  p50: number;
  p99: number;
  usPerRequest: number;
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

const waited = (cpu: ProcessCpu | null): boolean => cpu !== null && cpu.mainWaitMs >= WAITED_MS;

/** What overlapped the slowest deliveries (see LatencyResult.slow), and the deliveries nothing touched. */
export function attributeDeliveries(
  timelines: readonly ProbeTimeline[],
  pauses: { simulator: readonly GcPause[]; poller: readonly GcPause[] },
): { slow: SlowDeliveries; unpaused: Spread; cpu: CpuWaits | null } {
  const all = timelines.flatMap((t) => t.deliveries);
  const above = percentile(all, 95);
  const measured = timelines.every((t) => t.cpu.simulator !== null && t.cpu.poller !== null);
  const slow: SlowDeliveries = { above, deliveries: 0, simulatorPaused: 0, pollerPaused: 0, simulatorWaited: measured ? 0 : null, pollerWaited: measured ? 0 : null, neither: 0 };
  const unpaused: number[] = [];
  const unwaited: number[] = [];
  const messagesWaited = { simulator: 0, poller: 0, either: 0 };
  const totals = { simulator: { waitMs: 0, helpersMs: 0 }, poller: { waitMs: 0, helpersMs: 0 } };
  for (const t of timelines) {
    // Only where both processes were measured for every message: a partial count would read as few waits.
    const simWaited = measured && waited(t.cpu.simulator);
    const pollerWaited = measured && waited(t.cpu.poller);
    if (measured) {
      totals.simulator.waitMs += t.cpu.simulator!.mainWaitMs;
      totals.simulator.helpersMs += t.cpu.simulator!.helpersRunMs;
      totals.poller.waitMs += t.cpu.poller!.mainWaitMs;
      totals.poller.helpersMs += t.cpu.poller!.helpersRunMs;
      if (simWaited) messagesWaited.simulator++;
      if (pollerWaited) messagesWaited.poller++;
      if (simWaited || pollerWaited) messagesWaited.either++;
      else unwaited.push(...t.deliveries);
    }
    for (const d of t.deliveries) {
      const inSim = pausedWithin(pauses.simulator, t.sentAt, t.sentAt + d);
      const inPoller = pausedWithin(pauses.poller, t.sentAt, t.sentAt + d);
      if (!inSim && !inPoller) unpaused.push(d);
      if (d <= above) continue;
      slow.deliveries++;
      if (inSim) slow.simulatorPaused++;
      if (inPoller) slow.pollerPaused++;
      if (simWaited) slow.simulatorWaited!++;
      if (pollerWaited) slow.pollerWaited!++;
      if (!inSim && !inPoller && !simWaited && !pollerWaited) slow.neither++;
    }
  }
  const spread = (xs: number[]): Spread => ({ deliveries: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99) });
  return {
    slow,
    unpaused: spread(unpaused),
    cpu: measured ? { ...totals, messagesWaited, unwaited: spread(unwaited) } : null,
  };
}

async function probe(ctx: BenchContext, poller: Poller, sim: SimChild, name: string, title: string, queues: number): Promise<LatencyResult> {
  const send = (messages: number) =>
    poller.call<ProbeResult>('probe', { sender: account(sim.info, SENDER), channel: BENCH_CHANNEL, messages, expect: 10, simulatorPid: sim.proc.pid });
  const warmCpuBefore = await sim.cpuMs();
  const warm = await send(WARM_UP_MESSAGES);
  const warmCpuMs = (await sim.cpuMs()) - warmCpuBefore;
  const cpuBefore = await sim.cpuMs();
  await Promise.all([sim.call('gc-record'), poller.call('gc-record')]);
  const result = await send(ctx.probes);
  const [simPauses, pollerPauses] = await Promise.all([sim.call<GcPause[]>('gc-pauses'), poller.call<GcPause[]>('gc-pauses')]);
  const cpuMs = (await sim.cpuMs()) - cpuBefore;
  const { slow, unpaused, cpu } = attributeDeliveries(result.timelines, { simulator: simPauses, poller: pollerPauses });
  const building = result.timelines.map((t) => t.building);
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
    serverUsPerMessage: (cpuMs * 1000) / ctx.probes,
    gc: { simulator: summarizeGcPauses(simPauses, percentile), poller: summarizeGcPauses(pollerPauses, percentile) },
    slow,
    unpaused,
    cpu,
    warmUp: { messages: WARM_UP_MESSAGES, p50: warm.p50, p99: warm.p99, serverUsPerMessage: (warmCpuMs * 1000) / WARM_UP_MESSAGES },
    building: { p50: percentile(building, 50), p99: percentile(building, 99) },
  };
}

export async function runLatencyCase(ctx: BenchContext): Promise<LatencyResult> {
  const sim = await startSimulator(ctx, { stored: 0, users: 10, channel: true }, 'events-latency');
  const poller = await startPoller(ctx, sim.info.port);
  try {
    await poller.call('register', { accounts: sim.info.extraUsers.map((e) => account(sim.info, e)), count: 10 });
    await poller.call('park');
    await waitParked(sim, 10);
    return await probe(ctx, poller, sim, 'events-latency', `GET /events delivery, 10 polls (send → each poll answered)`, 10);
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
    await sims.with.call('clear-journal');
    const bare = await memory();
    await poller.call('register', { accounts: sims.with.info.extraUsers.map((e) => account(sims.with.info, e)), count: n });
    const registered = await memory();
    await sims.with.call('clear-journal');
    const registeredBeyondJournal = await memory();
    await poller.call('park');
    await waitParked(sims.with, n);
    const parked = await memory();

    const send = (to: string) => requestAs(sims.with.info, SENDER, 'POST', '/api/v1/messages', { type: 'stream', to, topic: 'load', content: 'hello from the benchmark' });
    // Verona's ten subscribers are the fixture's people, none of whom holds a queue.
    const sides = {
      without: { sim: sims.without, request: send('Verona') },
      idle: { sim: sims.with, request: send('Verona') },
      receiving: { sim: sims.with, request: send(BENCH_CHANNEL) },
    };
    const warmUp = { ...ctx.load, seconds: 1 };
    for (const side of Object.values(sides)) await measureLoad(side.sim, side.request, warmUp);
    const pollerCpu: number[] = [];
    const answersPerSend: number[] = [];
    const runs = await alternate(['without', 'idle', 'receiving'] as const, ctx.rounds, async (name) => {
      const before = await poller.cpuMs();
      const receivedBefore = await poller.call<Received>('received');
      const run = await measureLoad(sides[name].sim, sides[name].request, ctx.load);
      if (name === 'receiving') {
        pollerCpu.push(((await poller.cpuMs()) - before) / (ctx.load.seconds * 1000));
        answersPerSend.push(((await poller.call<Received>('received')).answers - receivedBefore.answers) / run.requests);
      }
      return run;
    });
    const ratiosOf = (rs: LoadRun[]): number[] => rs.map((r, i) => r.rps / runs.without[i]!.rps);
    const side = (rs: LoadRun[]): SendSide => ({
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      usPerRequest: median(rs.map((r) => r.serverUsPerRequest)),
    });
    const { parked: stillParked } = await sims.with.call<{ parked: number }>('queues');
    if (stillParked < n) ctx.log(`  note: ${n - stillParked} polls were not parked after the load (answered and not yet back)`);
    const latency = await probe(ctx, poller, sims.with, `${name}-latency`, `GET /events delivery among ${n} parked polls`, n);
    const failures = await poller.call<number>('failures');
    const ratios = ratiosOf(runs.idle);
    const receivingRatios = ratiosOf(runs.receiving);
    return {
      kind: 'queues',
      name,
      title: `${n} open queues, each holding a long-poll`,
      queues: n,
      bytesPerQueue: (registered - bare) / n,
      bytesPerQueueBeyondJournal: (registeredBeyondJournal - bare) / n,
      // A parked poll's own journal entry counts: the request holds it until it is answered.
      bytesPerParkedPoll: (parked - registeredBeyondJournal) / n,
      ratios,
      ratio: median(ratios),
      receivingRatios,
      receivingRatio: median(receivingRatios),
      withoutQueues: side(runs.without),
      idleQueues: side(runs.idle),
      receivingQueues: {
        ...side(runs.receiving),
        pollerCpu: median(pollerCpu),
        answersPerSend: median(answersPerSend),
        usPerAnswer: (side(runs.receiving).usPerRequest - side(runs.idle).usPerRequest) / median(answersPerSend),
      },
      latency,
      errors: failures + [...runs.without, ...runs.idle, ...runs.receiving].reduce((k, r) => k + r.errors + r.non2xx, 0),
    };
  } finally {
    await poller.stop();
    await Promise.all([sims.without.stop(), sims.with.stop()]);
  }
}
