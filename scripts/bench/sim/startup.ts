/**
 * Start-up: `npm run simulator` from the spawn to its first answer (GET /server_settings, sent as
 * soon as it prints where it listens), the same without npm (`node scripts/run.mjs simulator`),
 * and in-process `createSimulator()` and `reset()`. The compiled bundle is made fresh before the
 * first timed start, so no run pays for compiling. Beside each time, the CPU time it took: on a
 * shared machine a process waits for its turns, and the wall time shows the wait too.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createSimulator } from '../../../simulator/index.ts';
import { projectNodeOptions } from '../../cli/node-options.ts';
import { PROJECT_ROOT } from '../../cli/root.ts';
import { median } from '../harness/stats.ts';
import type { BenchContext } from './context.ts';

export interface StartupResult {
  kind: 'startup';
  name: string;
  title: string;
  /** Spawn → first answer, ms, each start. */
  npmRuns: number[];
  npm: number;
  nodeRuns: number[];
  node: number;
  /** CPU time the started processes had used by their first answer, ms (null where /proc is missing). */
  npmCpu: number | null;
  nodeCpu: number | null;
  /** In-process, ms: the first call of this process, then the median of the next ones; wall and CPU time. */
  createFirst: number;
  create: number;
  createCpu: number;
  reset: number;
  resetCpu: number;
  targets: { npm: number; create: number; reset: number };
}

/** CPU time used so far by every process of a process group, ms (Linux /proc; null elsewhere). */
function groupCpuMs(group: number): number | null {
  try {
    const tick = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== group) continue;
      // utime, stime, and those of waited-for children (npm's shell, which execs node).
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    }
    return ticks * tick;
  } catch {
    return null;
  }
}

async function firstAnswer(ctx: BenchContext, command: string, args: string[]): Promise<{ ms: number; cpuMs: number | null }> {
  const core = ctx.placement.serverCore;
  const [file, argv] = core === null ? [command, args] : ['taskset', ['-c', String(core), command, ...args]];
  const started = performance.now();
  // Its own process group, so that npm and the server under it stop together.
  const child = spawn(file, argv, { cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /listening: (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited (${code}) before listening:\n${out}`)));
    });
    const res = await fetch(`${url}/server_settings`);
    await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`GET /server_settings answered ${res.status}`);
    return { ms, cpuMs: groupCpuMs(child.pid!) };
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

/** Wall and CPU time of each run, ms. */
function timeEach(times: number, run: () => void): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < times; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    run();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu };
}

export async function runStartupCase(ctx: BenchContext): Promise<StartupResult> {
  const starts = Math.max(3, ctx.rounds);
  const npmArgs = ['run', '--silent', 'simulator', '--', '--port', '0'];
  const nodeArgs = [...projectNodeOptions('simulator'), 'scripts/run.mjs', 'simulator', '--port', '0'];
  // Compiles the bundle if stale, and warms the file cache: not counted.
  await firstAnswer(ctx, process.execPath, nodeArgs);
  const npmRuns: { ms: number; cpuMs: number | null }[] = [];
  const nodeRuns: { ms: number; cpuMs: number | null }[] = [];
  for (let i = 0; i < starts; i++) {
    npmRuns.push(await firstAnswer(ctx, 'npm', npmArgs));
    nodeRuns.push(await firstAnswer(ctx, process.execPath, nodeArgs));
  }
  const cpuOf = (runs: { cpuMs: number | null }[]): number | null => (runs.some((r) => r.cpuMs === null) ? null : median(runs.map((r) => r.cpuMs!)));
  const createFirst = timeEach(1, () => createSimulator()).wall[0]!;
  const create = timeEach(50, () => createSimulator());
  const sim = createSimulator();
  const reset = timeEach(50, () => sim.reset());
  return {
    kind: 'startup',
    name: 'startup',
    title: 'start-up',
    npmRuns: npmRuns.map((r) => r.ms),
    npm: median(npmRuns.map((r) => r.ms)),
    nodeRuns: nodeRuns.map((r) => r.ms),
    node: median(nodeRuns.map((r) => r.ms)),
    npmCpu: cpuOf(npmRuns),
    nodeCpu: cpuOf(nodeRuns),
    createFirst,
    create: median(create.wall),
    createCpu: median(create.cpu),
    reset: median(reset.wall),
    resetCpu: median(reset.cpu),
    targets: { npm: 400, create: 2, reset: 1 },
  };
}
