/**
 * Throughput cases: one request, sent by autocannon for `seconds` at a time to the simulator and
 * to a floor (floor.ts) that answers the same bytes, in ABBA rounds after a warm-up of each. The
 * result is each round's ratio of rates and their median, with latencies, the CPU each side used
 * and whether the generator, rather than the floor, set the floor's pace.
 */
import { alternate, bottleneck, measureLoad, requestList, type LoadRequest, type LoadRequests, type LoadRun } from '../harness/load.ts';
import { median } from '../harness/stats.ts';
import { startFloor, startSimulator, type BenchContext, type SimChild } from './context.ts';
import type { SimInfo, SimSetup } from './simulator-child.ts';

export interface ThroughputCase {
  name: string;
  title: string;
  /** The series it belongs to (same request at several store sizes), if any. */
  series?: string;
  setup: SimSetup;
  /** Several: each connection sends them in turn (the sends' mix of message contents). */
  request(info: SimInfo): LoadRequests;
  /** Least acceptable ratio to the floor; null: none (read it beside its series). */
  target: number | null;
}

export interface SideSummary {
  rps: number;
  p50: number;
  p99: number;
  serverCpu: number;
  usPerRequest: number;
  generatorCpu: number;
}

export interface ThroughputResult {
  kind: 'throughput';
  name: string;
  title: string;
  series: string | null;
  stored: number;
  target: number | null;
  /** Size of the answer both servers sent, bytes. */
  answerBytes: number;
  ratios: number[];
  /** Median of the per-round ratios of rates. */
  ratio: number;
  /** Floor's server CPU per request ÷ the simulator's (medians): the ratio with the machine's noise taken out. */
  cpuRatio: number;
  simulator: SideSummary;
  floor: SideSummary;
  /** Floor runs in which the generator, not the floor, was at its limit. */
  generatorPacedFloorRuns: number;
  errors: number;
  runs: { floor: LoadRun[]; simulator: LoadRun[] };
}

function summarize(runs: LoadRun[]): SideSummary {
  const m = (f: (r: LoadRun) => number): number => median(runs.map(f));
  return {
    rps: m((r) => r.rps),
    p50: m((r) => r.p50),
    p99: m((r) => r.p99),
    serverCpu: m((r) => r.serverCpu),
    usPerRequest: m((r) => r.serverUsPerRequest),
    generatorCpu: m((r) => r.generatorCpu),
  };
}

/** One request over real HTTP, to see that it works and what it answers. */
export async function requestOnce(port: number, request: LoadRequest): Promise<{ status: number; contentType: string; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${request.path}`, {
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** Each request once (each must answer 200); the floor answers the first one's bytes to all. */
export async function firstAnswers(title: string, port: number, requests: LoadRequests): Promise<{ status: number; contentType: string; body: string }> {
  const answers = [];
  for (const request of requestList(requests)) {
    const answer = await requestOnce(port, request);
    if (answer.status !== 200) throw new Error(`${title}: the simulator answered ${answer.status} ${answer.body.slice(0, 300)} to ${request.method} ${request.path} ${request.body ?? ''}`);
    answers.push(answer);
  }
  return answers[0]!;
}

/** A request with Basic credentials of `email`, a form body when `form` is given. */
export function requestAs(info: SimInfo, email: string, method: 'GET' | 'POST', path: string, form?: Record<string, string>): LoadRequest {
  const key = info.credentials[email];
  if (key === undefined) throw new Error(`no credentials for ${email}`);
  const headers: Record<string, string> = { authorization: `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}` };
  if (form === undefined) return { method, path, headers };
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method, path, headers, body: new URLSearchParams(form).toString() };
}

export async function runThroughputCase(ctx: BenchContext, c: ThroughputCase, started?: SimChild): Promise<ThroughputResult> {
  const simulator = started ?? (await startSimulator(ctx, c.setup, c.name));
  const floor = await startFloor(ctx);
  try {
    const request = c.request(simulator.info);
    const sample = await firstAnswers(c.title, simulator.info.port, request);
    await floor.setAnswer({ status: sample.status, contentType: sample.contentType, body: sample.body }, simulator.info.credentials);
    const servers = { floor, simulator };
    const warmUp = { ...ctx.load, seconds: 1 };
    for (const side of ['floor', 'simulator'] as const) await measureLoad(servers[side], request, warmUp);
    const runs = await alternate(['floor', 'simulator'] as const, ctx.rounds, (side) => measureLoad(servers[side], request, ctx.load));
    const ratios = runs.simulator.map((s, i) => s.rps / runs.floor[i]!.rps);
    const sim = summarize(runs.simulator);
    const flo = summarize(runs.floor);
    return {
      kind: 'throughput',
      name: c.name,
      title: c.title,
      series: c.series ?? null,
      stored: c.setup.stored,
      target: c.target,
      answerBytes: Buffer.byteLength(sample.body),
      ratios,
      ratio: median(ratios),
      cpuRatio: flo.usPerRequest / sim.usPerRequest,
      simulator: sim,
      floor: flo,
      generatorPacedFloorRuns: runs.floor.filter((r) => bottleneck(r) === 'generator').length,
      errors: [...runs.floor, ...runs.simulator].reduce((n, r) => n + r.errors + r.non2xx, 0),
      runs,
    };
  } finally {
    await Promise.all([floor.stop(), started ? Promise.resolve() : simulator.stop()]);
  }
}
