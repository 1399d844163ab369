/**
 * Start-up: `npm run simulator` from the spawn to its first answer (GET /server_settings, sent as
 * soon as it prints where it listens), the same without npm (`node scripts/run.mjs simulator`),
 * and in-process `createSimulator()` and `reset()`. The compiled bundle is made fresh before the
 * first timed start, so no run pays for compiling.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createSimulator } from '../../../simulator/index.ts';
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
  /** In-process, ms: the first call of this process, then the median of the next ones. */
  createFirst: number;
  create: number;
  reset: number;
  targets: { npm: number; create: number; reset: number };
}

async function firstAnswer(ctx: BenchContext, command: string, args: string[]): Promise<number> {
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
    if (res.status !== 200) throw new Error(`GET /server_settings answered ${res.status}`);
    return performance.now() - started;
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

function timeEach(times: number, run: () => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    run();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function runStartupCase(ctx: BenchContext): Promise<StartupResult> {
  const starts = Math.max(3, ctx.rounds);
  const npmArgs = ['run', '--silent', 'simulator', '--', '--port', '0'];
  const nodeArgs = ['scripts/run.mjs', 'simulator', '--port', '0'];
  // Compiles the bundle if stale, and warms the file cache: not counted.
  await firstAnswer(ctx, process.execPath, nodeArgs);
  const npmRuns: number[] = [];
  const nodeRuns: number[] = [];
  for (let i = 0; i < starts; i++) {
    npmRuns.push(await firstAnswer(ctx, 'npm', npmArgs));
    nodeRuns.push(await firstAnswer(ctx, process.execPath, nodeArgs));
  }
  const [createFirst = Number.NaN] = timeEach(1, () => createSimulator());
  const create = median(timeEach(50, () => createSimulator()));
  const sim = createSimulator();
  const reset = median(timeEach(50, () => sim.reset()));
  return {
    kind: 'startup',
    name: 'startup',
    title: 'start-up',
    npmRuns,
    npm: median(npmRuns),
    nodeRuns,
    node: median(nodeRuns),
    createFirst,
    create,
    reset,
    targets: { npm: 400, create: 2, reset: 1 },
  };
}
