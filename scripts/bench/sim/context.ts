/** What every case of `npm run bench:sim` runs with, and how it starts its processes. */
import path from 'node:path';
import type { LoadOptions } from '../harness/load.ts';
import type { Placement } from '../harness/machine.ts';
import { projectNodeOptions } from '../../cli/node-options.ts';
import { startChild, type ChildServer } from '../harness/processes.ts';
import type { FloorAnswer } from './floor.ts';
import type { SimInfo, SimSetup } from './simulator-child.ts';

export interface BenchContext {
  /** This benchmark's own script: children are it, in a child mode. */
  self: string;
  placement: Placement;
  rounds: number;
  load: LoadOptions;
  /** Stored-message counts of the series cases. */
  stored: number[];
  /** Queues of the queues case. */
  queues: number;
  /** Messages the delivery probes send. */
  probes: number;
  /** Where simulator children write CPU profiles (--cpu-prof); null: none. */
  profileDir: string | null;
  log(line: string): void;
}

export type SimChild = ChildServer<SimInfo>;
export type FloorChild = ChildServer<{ port: number }> & { setAnswer(answer: FloorAnswer, credentials: Record<string, string>): Promise<void> };

export interface ChildOptions {
  /** Node's --expose-gc. */
  gc?: boolean;
  /** A command node runs under (valgrind: harness/instructions.ts). */
  wrapper?: string[];
  /** More Node options. */
  execArgv?: string[];
}

/** A simulator server set up for a case, pinned to the servers' core. */
export function startSimulator(ctx: BenchContext, setup: SimSetup, name: string, options: ChildOptions = {}): Promise<SimChild> {
  // Run as `npm run simulator` runs it: the Node options its script gives.
  const execArgv = [...projectNodeOptions('simulator'), ...(options.gc ? ['--expose-gc'] : []), ...(options.execArgv ?? [])];
  if (ctx.profileDir !== null) {
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${ctx.profileDir}`, `--cpu-prof-name=${name.replace(/[^\w@.-]/g, '_')}.cpuprofile`);
  }
  return startChild<SimInfo>(ctx.self, ['--child', 'simulator', '--setup', JSON.stringify(setup)], {
    core: ctx.placement.serverCore,
    execArgv,
    ...(options.wrapper ? { wrapper: options.wrapper } : {}),
  });
}

export async function startFloor(ctx: BenchContext, options: ChildOptions = {}): Promise<FloorChild> {
  const child = await startChild<{ port: number }>(ctx.self, ['--child', 'floor'], {
    core: ctx.placement.serverCore,
    execArgv: [...(options.gc ? ['--expose-gc'] : []), ...(options.execArgv ?? [])],
    ...(options.wrapper ? { wrapper: options.wrapper } : {}),
  });
  return { ...child, setAnswer: (answer, credentials) => child.call('answer', { answer, credentials }) };
}

/** The default place of results and profiles: .bench/ under the working directory (git ignores it). */
export function benchDir(...parts: string[]): string {
  return path.resolve('.bench', ...parts);
}
