/**
 * `npm run bench:sim -- --instructions`: the throughput cases counted in machine instructions
 * rather than timed. Each server (the simulator set up for the case, and its floor answering the
 * same bytes) runs under callgrind (harness/instructions.ts) in a process of its own; this
 * process sends it the case's request one at a time: a warm-up, a marker, an empty block (a
 * second marker at once), then blocks of `requests` requests each closed by a marker. Each block
 * gives instructions per request; several processes per side show how far that repeats.
 *
 * Instructions are not time: they ignore cache misses, branch mispredictions and how the collector's
 * and compiler's threads overlap the main one (their instructions are counted, their parallelism
 * is not). But they barely move with the machine's load, so two commits compared this way show
 * differences far below what timing resolves on a shared machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mapLimit } from '../../catalog/concurrency.ts';
import { callgrindCommand, type CountedThreads, perRequestCounts, readDumps, spreadOf, type Spread } from '../harness/instructions.ts';
import { requestList, type LoadRequests } from '../harness/load.ts';
import type { ChildServer } from '../harness/processes.ts';
import { startFloor, startSimulator, type BenchContext } from './context.ts';
import type { FloorAnswer } from './floor.ts';
import type { SimInfo } from './simulator-child.ts';
import { firstAnswers, requestOnce, type ThroughputCase } from './throughput.ts';

export interface InstructionOptions {
  /** Requests in each counted block. */
  requests: number;
  /** Requests before the first marker (start-up, compilation), not counted. */
  warmup: number;
  /** Counted blocks per process. */
  blocks: number;
  /** Processes per side. */
  processes: number;
  /** Counted processes running at once. */
  jobs: number;
  threads: CountedThreads;
  /** V8's --interrupt-budget (bytecode run before a function is considered for optimizing); 0: V8's default. */
  budget: number;
}

export interface CountedProcess {
  /** What two markers back to back cost (taken off each block). */
  empty: number;
  /** Instructions per request of each block, in order (a drift down is V8 still optimizing). */
  blocks: number[];
  /** Over all its blocks. */
  perRequest: number;
}

export interface SideCounts {
  processes: CountedProcess[];
  /** Of the processes' figures: the result and how far it repeats. */
  perRequest: Spread;
}

export interface InstructionResult {
  kind: 'instructions';
  name: string;
  title: string;
  series: string | null;
  stored: number;
  target: number | null;
  answerBytes: number;
  simulator: SideCounts;
  floor: SideCounts;
  /** Floor's instructions per request ÷ the simulator's (medians): read like a ratio of rates. */
  ratio: number;
  /** The ratio's range: the floor's least over the simulator's most, and the other way round. */
  ratioRange: [number, number];
  /** Wall time of the case, s (valgrind's pace, not the servers'). */
  seconds: number;
}

type Side = 'simulator' | 'floor';

async function countProcess(child: ChildServer<{ port: number }>, requests: LoadRequests, options: InstructionOptions, outPrefix: string, label: string): Promise<CountedProcess> {
  // A mix is sent in turn, so a block of a multiple of its length holds each request alike.
  const list = requestList(requests);
  let next = 0;
  const send = async (): Promise<void> => {
    const res = await requestOnce(child.info.port, list[next++ % list.length]!);
    if (res.status !== 200) throw new Error(`${label}: answered ${res.status} ${res.body.slice(0, 300)}`);
  };
  try {
    for (let i = 0; i < options.warmup; i++) await send();
    await child.call('mark');
    await child.call('mark');
    for (let b = 0; b < options.blocks; b++) {
      for (let i = 0; i < options.requests; i++) await send();
      await child.call('mark');
    }
  } finally {
    await child.stop();
  }
  const { empty, perRequest } = perRequestCounts(readDumps(outPrefix, options.threads), options.requests, options.blocks);
  return { empty, blocks: perRequest, perRequest: perRequest.reduce((a, b) => a + b, 0) / perRequest.length };
}

export async function runInstructionCase(ctx: BenchContext, c: ThroughputCase, options: InstructionOptions): Promise<InstructionResult> {
  const started = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-instructions-'));
  try {
    const childOptions = (side: Side, index: number) => ({
      gc: true,
      execArgv: options.budget === 0 ? [] : [`--interrupt-budget=${options.budget}`],
      wrapper: callgrindCommand(path.join(dir, `${side}-${index}`), options.threads),
    });
    // The first simulator process also says what to answer: its credentials and its bytes for the request.
    const first = await startSimulator(ctx, c.setup, c.name, childOptions('simulator', 0));
    const request = c.request(first.info);
    let sample: FloorAnswer;
    try {
      const res = await firstAnswers(c.title, first.info.port, request);
      sample = { status: res.status, contentType: res.contentType, body: res.body };
    } catch (error) {
      await first.stop();
      throw error;
    }
    const credentials = (first.info as SimInfo).credentials;
    const runs: { side: Side; index: number }[] = [];
    for (let index = 0; index < options.processes; index++) runs.push({ side: 'simulator', index }, { side: 'floor', index });
    const counted = await mapLimit(runs, options.jobs, async ({ side, index }) => {
      const label = `${c.name} ${side} ${index + 1}`;
      let child: ChildServer<{ port: number }>;
      if (side === 'simulator') {
        child = index === 0 ? first : await startSimulator(ctx, c.setup, c.name, childOptions(side, index));
      } else {
        const floor = await startFloor(ctx, childOptions(side, index));
        await floor.setAnswer(sample, credentials);
        child = floor;
      }
      const result = await countProcess(child, request, options, path.join(dir, `${side}-${index}`), label);
      const blocks = result.blocks.map((x) => Math.round(x).toLocaleString('en')).join(', ');
      ctx.log(`  ${label}: ${Math.round(result.perRequest).toLocaleString('en')} instructions per request (blocks ${blocks}; markers ${result.empty.toLocaleString('en')})`);
      return { side, result };
    });
    const side = (s: Side): SideCounts => {
      const processes = counted.filter((r) => r.side === s).map((r) => r.result);
      return { processes, perRequest: spreadOf(processes.map((p) => p.perRequest)) };
    };
    const simulator = side('simulator');
    const floor = side('floor');
    return {
      kind: 'instructions',
      name: c.name,
      title: c.title,
      series: c.series ?? null,
      stored: c.setup.stored,
      target: c.target,
      answerBytes: Buffer.byteLength(sample.body),
      simulator,
      floor,
      ratio: floor.perRequest.median / simulator.perRequest.median,
      ratioRange: [floor.perRequest.min / simulator.perRequest.max, floor.perRequest.max / simulator.perRequest.min],
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * V8 considers a function for optimizing after running this much of its bytecode: an eighth of
 * V8's default, so that the servers reach their optimized code within the warm-up (under valgrind
 * a request costs about a thousand times more time than natively).
 */
export const DEFAULT_BUDGET = 8192;

export const INSTRUCTION_DEFAULTS = { requests: '200', warmup: '1000', blocks: '2', processes: '2', jobs: '2', 'interrupt-budget': String(DEFAULT_BUDGET) } as const;

type CountFlag = 'requests' | 'warmup' | 'blocks' | 'processes' | 'jobs' | 'interrupt-budget';

/** The counting flags as numbers; a flag that is not a whole number in range throws, naming it. */
export function parseInstructionOptions(flags: Record<CountFlag, string> & { 'all-threads': boolean }): InstructionOptions {
  const whole = (flag: CountFlag, min: number): number => {
    const text = flags[flag];
    const n = Number(text);
    if (text.trim() === '' || !Number.isInteger(n) || n < min) throw new Error(`--${flag} must be a whole number ≥ ${min}, got "${text}"`);
    return n;
  };
  return {
    requests: whole('requests', 1),
    warmup: whole('warmup', 0),
    blocks: whole('blocks', 1),
    processes: whole('processes', 1),
    jobs: whole('jobs', 1),
    threads: flags['all-threads'] ? 'all' : 'main',
    budget: whole('interrupt-budget', 0),
  };
}
