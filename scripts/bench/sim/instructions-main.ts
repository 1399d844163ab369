/** `npm run bench:sim -- --instructions`: runs the counted cases, prints their figures and a table, writes JSON. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { valgrindVersion, VALGRIND_MISSING, type Spread } from '../harness/instructions.ts';
import { machineLoad } from '../harness/machine.ts';
import { times } from '../harness/stats.ts';
import type { BenchCase } from './cases.ts';
import { constructRows, countConstructs, type ConstructsResult } from './constructs.ts';
import type { BenchContext } from './context.ts';
import { runInstructionCase, type InstructionOptions, type InstructionResult } from './instructions.ts';
import { seriesMembers, table } from './report.ts';

export const NOT_TIME =
  'Instructions are not time: they leave out cache misses and branch mispredictions, and count the work of V8\'s ' +
  'collector and compiler threads without their parallelism. They barely move with the machine\'s load, ' +
  'which makes them the figure to compare between two commits (A/B), not to quote as speed.';

const count = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const spreadText = (s: Spread): string => `${count(s.min)}–${count(s.max)}, ${(s.relative * 100).toFixed(2)}%`;

export function describeInstructions(r: InstructionResult): string {
  return (
    `${r.title} (${r.answerBytes.toLocaleString('en')} B answer): simulator ${count(r.simulator.perRequest.median)} instructions per request (${spreadText(r.simulator.perRequest)}), ` +
    `floor ${count(r.floor.perRequest.median)} (${spreadText(r.floor.perRequest)}) → ${times(r.ratio)} (${r.ratioRange.map((x) => x.toFixed(3)).join('–')}) [${r.seconds.toFixed(0)} s]`
  );
}

export function instructionsTable(results: InstructionResult[]): string {
  const rows = [
    // No target column: the targets are ratios of rates, and instructions leave out the kernel's share, which both sides pay.
    ['case', 'simulator/req', 'spread', 'floor/req', 'spread', 'ratio'],
    ...results.map((r) => [
      r.name,
      count(r.simulator.perRequest.median),
      `${(r.simulator.perRequest.relative * 100).toFixed(2)}%`,
      count(r.floor.perRequest.median),
      `${(r.floor.perRequest.relative * 100).toFixed(2)}%`,
      times(r.ratio),
    ]),
  ];
  const lines = [table(rows)];
  const seriesRows = seriesMembers(results).map(({ series, result: r, base }) => [
    r === base ? series : '',
    r.stored.toLocaleString('en'),
    count(r.simulator.perRequest.median),
    r === base ? '' : `${(r.simulator.perRequest.median / base.simulator.perRequest.median).toFixed(3)}× the instructions at ${base.stored.toLocaleString('en')}`,
  ]);
  if (seriesRows.length > 0) lines.push('', 'as the store grows (simulator side):', table([['series', 'stored', 'instructions/req', ''], ...seriesRows]));
  lines.push("(spread: (most − least) ÷ median of the processes' figures; ratio: floor ÷ simulator, read like a ratio of rates)");
  return lines.join('\n');
}

/** Counts `cases` (the throughput ones among them); the exit code: 1 when valgrind is missing. */
export async function countInstructions(ctx: BenchContext, cases: BenchCase[], options: InstructionOptions, jsonFile: string): Promise<number> {
  const valgrind = valgrindVersion();
  if (valgrind === null) {
    process.stderr.write(`${VALGRIND_MISSING}\n`);
    return 1;
  }
  const counted = cases.filter((c) => c.throughput !== undefined);
  const constructs = cases.some((c) => c.name === 'constructs');
  const skipped = cases.filter((c) => c.throughput === undefined && c.name !== 'constructs').map((c) => c.name);
  ctx.log(`instructions per request under ${valgrind} (callgrind), each request sent alone over one keep-alive connection:`);
  ctx.log(
    `  ${options.warmup} warm-up requests, then ${options.blocks} block(s) of ${options.requests} per process, ${options.processes} process(es) per side, ${options.jobs} at once; ` +
      `each block's count less an empty block's (the markers), ÷ ${options.requests}; ${options.threads === 'main' ? 'the main thread only' : 'every thread'}; ` +
      `V8 ${options.budget === 0 ? 'with its own interrupt budget' : `--interrupt-budget=${options.budget}`}`,
  );
  ctx.log(`  ${NOT_TIME}`);
  if (skipped.length > 0) ctx.log(`  not counted (not throughput cases): ${skipped.join(', ')}`);
  ctx.log('');
  const loadBefore = machineLoad();
  const results: InstructionResult[] = [];
  for (const c of counted) {
    const result = await runInstructionCase(ctx, c.throughput!, options);
    results.push(result);
    ctx.log(describeInstructions(result));
    ctx.log('');
  }
  let byConstruct: ConstructsResult | null = null;
  if (constructs) {
    const started = performance.now();
    byConstruct = await countConstructs(ctx, options);
    ctx.log(`${byConstruct.title}, ${options.requests} sends each after ${options.warmup} of the mix [${((performance.now() - started) / 1000).toFixed(0)} s]:`);
    ctx.log('');
  }
  ctx.log(instructionsTable(results));
  if (byConstruct) ctx.log(`\n${byConstruct.title}:\n${table(constructRows(byConstruct))}`);
  const file = path.resolve(jsonFile);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ valgrind, options, stored: ctx.stored, loadBefore, loadAfter: machineLoad(), results, constructs: byConstruct }, null, 2)}\n`);
  ctx.log(`results: ${path.relative(process.cwd(), file)}`);
  return 0;
}
