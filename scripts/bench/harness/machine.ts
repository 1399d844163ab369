/**
 * What the machine gives a benchmark: its cores, whether processes can be pinned to them
 * (`taskset`), how fast two busy processes run next to each other, and its load. Benchmarks on a
 * shared machine print these beside every result, since they decide how far a figure can be read.
 */
import { execFileSync, spawn } from 'node:child_process';
import os from 'node:os';
import { median } from './stats.ts';

/** Where the load generator and the servers run: two different cores, or wherever the OS likes. */
export interface Placement {
  generatorCore: number | null;
  serverCore: number | null;
  /** How the placement came about, for the report. */
  note: string;
}

/** The CPUs this process may run on (its affinity), or null when taskset cannot tell. */
function allowedCpus(): number[] | null {
  try {
    const out = execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const list = out.slice(out.lastIndexOf(':') + 1).trim();
    const cpus: number[] = [];
    for (const part of list.split(',')) {
      const [from, to = from] = part.split('-').map(Number) as [number, number?];
      for (let c = from; c <= to!; c++) cpus.push(c);
    }
    return cpus.length > 0 ? cpus : null;
  } catch {
    return null;
  }
}

/** Generator on the first allowed CPU, servers on the second, when there are two and taskset runs. */
export function planPlacement(pin = true): Placement {
  if (!pin) return { generatorCore: null, serverCore: null, note: 'not pinned (--no-pin)' };
  const cpus = allowedCpus();
  if (cpus === null) return { generatorCore: null, serverCore: null, note: 'not pinned (taskset unavailable)' };
  if (cpus.length < 2) return { generatorCore: null, serverCore: null, note: `not pinned (one CPU: ${cpus.join(',')})` };
  return { generatorCore: cpus[0]!, serverCore: cpus[1]!, note: `generator pinned to CPU ${cpus[0]}, servers to CPU ${cpus[1]}` };
}

/** Pin a process (all its threads) to one CPU; null leaves it where it is. */
export function pinToCore(pid: number, core: number | null): void {
  if (core === null) return;
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

export interface BusyLoop {
  /** Loop iterations per millisecond of wall time. */
  rate: number;
  /** CPU time the process got, as a fraction of the wall time. */
  cpuShare: number;
}

export interface MachineCheck {
  /** One busy loop alone. */
  alone: BusyLoop;
  /** Two busy loops at once (on the generator's and the servers' CPUs when pinned). */
  pair: [BusyLoop, BusyLoop];
  /** Each loop of the pair's speed as a fraction of one loop alone: what a core gives each. */
  fractions: [number, number];
}

// A child that waits for a common start time, then spins for the given time and reports.
const LOOP = `
const [startAt, durationMs] = process.argv.slice(1).map(Number);
while (Date.now() < startAt) {}
const c0 = process.cpuUsage(); const t0 = performance.now(); let n = 0; let x = 0;
while (performance.now() - t0 < durationMs) { for (let i = 0; i < 10000; i++) x = (x * 31 + i) | 0; n++; }
const wall = performance.now() - t0; const c = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ rate: n / wall, cpuShare: (c.user + c.system) / 1000 / wall, x }));
`;

async function busyLoops(cores: (number | null)[], durationMs: number): Promise<BusyLoop[]> {
  // Started together: each waits for the same moment, after every process had time to start.
  const startAt = Date.now() + 400;
  return Promise.all(
    cores.map(async (core) => {
      const child = spawn(process.execPath, ['-e', LOOP, String(startAt), String(durationMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
      if (child.pid !== undefined) pinToCore(child.pid, core);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      await new Promise((resolve) => child.once('exit', resolve));
      return JSON.parse(out) as BusyLoop;
    }),
  );
}

/** Busy loops alone and in pairs, alternated `repeats` times; medians of each. */
export async function checkMachine(placement: Placement, durationMs = 400, repeats = 3): Promise<MachineCheck> {
  const alone: BusyLoop[] = [];
  const pairs: BusyLoop[][] = [];
  for (let i = 0; i < repeats; i++) {
    alone.push(...(await busyLoops([placement.generatorCore], durationMs)));
    pairs.push(await busyLoops([placement.generatorCore, placement.serverCore], durationMs));
  }
  const summary = (loops: BusyLoop[]): BusyLoop => ({ rate: median(loops.map((l) => l.rate)), cpuShare: median(loops.map((l) => l.cpuShare)) });
  const a = summary(alone);
  const first = summary(pairs.map((p) => p[0]!));
  const second = summary(pairs.map((p) => p[1]!));
  return { alone: a, pair: [first, second], fractions: [first.rate / a.rate, second.rate / a.rate] };
}

export interface MachineLoad {
  /** os.loadavg(): 1, 5 and 15 minutes. */
  loadAverage: [number, number, number];
  at: string;
}

export function machineLoad(): MachineLoad {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return { loadAverage: [one, five, fifteen], at: new Date().toISOString() };
}

export function describeLoad(load: MachineLoad): string {
  return load.loadAverage.map((l) => l.toFixed(2)).join(' ');
}

export interface MachineInfo {
  cpus: number;
  model: string;
  node: string;
  platform: string;
  totalMemory: number;
}

export function machineInfo(): MachineInfo {
  return {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? '?',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    totalMemory: os.totalmem(),
  };
}
