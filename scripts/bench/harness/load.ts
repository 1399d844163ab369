/**
 * HTTP load from autocannon in this process (keep-alive connections, bounded in time, loopback),
 * against a server in a child process; with the CPU each side used, which tells who set the pace.
 */
import autocannon from 'autocannon';
import { machineLoad, type MachineLoad } from './machine.ts';
import type { ChildServer } from './processes.ts';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Path and query. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** autocannon worker threads (1: in this process). */
  workers: number;
}

export interface LoadRun {
  /** Successful (2xx) requests per second, and how many there were. */
  rps: number;
  requests: number;
  /** Latency of 2xx answers, ms (autocannon's histogram: whole milliseconds). */
  p50: number;
  p99: number;
  /** Socket errors and non-2xx answers: a run with any is suspect. */
  errors: number;
  non2xx: number;
  /** CPU time as a fraction of the run's wall time (1 = one core busy throughout). */
  serverCpu: number;
  generatorCpu: number;
  /** Server CPU per successful request, µs: far steadier than the rate on a busy machine. */
  serverUsPerRequest: number;
  /** The machine's load average just before the run. */
  load: MachineLoad;
}

/** Who set the pace of a run: the server at its core's limit, the generator at its own, or neither. */
export type Bottleneck = 'server' | 'generator' | 'neither';

/** A side is saturated from this share of a core on. */
export const SATURATED = 0.9;

export function bottleneck(run: Pick<LoadRun, 'serverCpu' | 'generatorCpu'>): Bottleneck {
  if (run.serverCpu >= SATURATED) return 'server';
  if (run.generatorCpu >= SATURATED) return 'generator';
  return 'neither';
}

/** One request, or several that each connection sends in turn (a mix of message contents). */
export type LoadRequests = LoadRequest | readonly LoadRequest[];

/** The requests of a LoadRequests, in order. */
export function requestList(requests: LoadRequests): readonly LoadRequest[] {
  return Array.isArray(requests) ? requests : [requests as LoadRequest];
}

export async function measureLoad(server: ChildServer<{ port: number }>, requests: LoadRequests, options: LoadOptions): Promise<LoadRun> {
  const [request, ...more] = requestList(requests);
  if (request === undefined) throw new Error('measureLoad: no request');
  const load = machineLoad();
  const serverBefore = await server.cpuMs();
  const generatorBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${server.info.port}${request.path}`,
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(more.length === 0 ? {} : { requests: [request, ...more].map((r) => ({ method: r.method, path: r.path, headers: r.headers ?? {}, ...(r.body === undefined ? {} : { body: r.body }) })) }),
    connections: options.connections,
    duration: options.seconds,
    ...(options.workers > 1 ? { workers: options.workers } : {}),
  });
  const wallMs = performance.now() - started;
  const generator = process.cpuUsage(generatorBefore);
  const serverCpuMs = (await server.cpuMs()) - serverBefore;
  const ok = result['2xx'];
  const rps = ok / (wallMs / 1000);
  return {
    rps,
    requests: ok,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    serverCpu: serverCpuMs / wallMs,
    generatorCpu: (generator.user + generator.system) / 1000 / wallMs,
    serverUsPerRequest: ok > 0 ? (serverCpuMs * 1000) / ok : Number.NaN,
    load,
  };
}

/**
 * Rounds of the sides in alternating order (a b, b a, a b, … for two; a b c, c b a, … for three),
 * so a drift in the machine's load favours none; `run` measures one side once. Each run is
 * reported to `onRun` as it ends.
 */
export async function alternate<S extends string, R>(
  sides: readonly S[],
  rounds: number,
  run: (side: S, round: number) => Promise<R>,
  onRun?: (side: S, round: number, result: R) => void,
): Promise<Record<S, R[]>> {
  const out = Object.fromEntries(sides.map((side) => [side, []])) as unknown as Record<S, R[]>;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const result = await run(side, round);
      out[side].push(result);
      onRun?.(side, round, result);
    }
  }
  return out;
}
