/** The table `npm run bench:sim` prints, and the verdict of each figure against its target. */
import type { GcSummary } from '../harness/gc-pauses.ts';
import { describeLoad, type MachineCheck, type MachineInfo, type MachineLoad, type Placement } from '../harness/machine.ts';
import { SATURATED } from '../harness/load.ts';
import { bytes, kilo, ms, pct, times } from '../harness/stats.ts';
import type { CaseResult } from './cases.ts';
import { constructRows } from './constructs.ts';
import { WAITED_MS, type LatencyResult } from './realtime.ts';
import type { ThroughputResult } from './throughput.ts';

function gcSummaryLine(g: GcSummary): string {
  const kinds = Object.entries(g.kinds).map(([kind, k]) => `${k.count} ${kind} (p50 ${ms(k.p50)}, p99 ${ms(k.p99)}, max ${ms(k.max)})`);
  return `${g.count} pauses, ${ms(g.totalMs)} in all${kinds.length ? `: ${kinds.join(', ')}` : ''}`;
}

/**
 * A delivery probe's warm-up, the collector's pauses and the waits for a CPU during it, and what
 * the slowest deliveries overlapped.
 */
function probeLines(r: LatencyResult): string[] {
  const s = r.slow;
  const waits = r.cpu;
  const waitedCounts = s.simulatorWaited === null ? '' : `${s.simulatorWaited} came in a message during which the simulator's event loop waited ≥ ${ms(WAITED_MS)} for its CPU, ${s.pollerWaited} the clients', `;
  return [
    `  warm-up, not counted: the first ${r.warmUp.messages} messages p50 ${ms(r.warmUp.p50)}, p99 ${ms(r.warmUp.p99)}, server CPU per message ${r.warmUp.serverUsPerMessage.toFixed(0)} µs`,
    `  GC during the probe: simulator ${gcSummaryLine(r.gc.simulator)}; clients ${gcSummaryLine(r.gc.poller)}`,
    waits === null
      ? `  waits for a CPU: not measured (no /proc/<pid>/task/*/schedstat)`
      : `  waits for a CPU (event loops ready to run, not running): simulator ${ms(waits.simulator.waitMs)} in all, clients ${ms(waits.poller.waitMs)}; ` +
        `their other threads (V8's compiler and collector, same CPU) ran ${ms(waits.simulator.helpersMs)} and ${ms(waits.poller.helpersMs)}; ` +
        `${waits.messagesWaited.either} of ${r.messages} messages had a wait ≥ ${ms(WAITED_MS)} (simulator ${waits.messagesWaited.simulator}, clients ${waits.messagesWaited.poller}); ` +
        `the ${waits.unwaited.deliveries} deliveries of the others: p50 ${ms(waits.unwaited.p50)}, p99 ${ms(waits.unwaited.p99)}`,
    `  the ${s.deliveries} deliveries over p95 (${ms(s.above)}): ${s.simulatorPaused} overlapped a simulator pause, ${s.pollerPaused} a clients' pause, ${waitedCounts}${s.neither} none of these; ` +
      `the ${r.unpaused.deliveries} that overlapped no pause: p50 ${ms(r.unpaused.p50)}, p99 ${ms(r.unpaused.p99)}; ` +
      `building a send before writing it ${ms(r.building.p50)} p50, ${ms(r.building.p99)} p99 (not counted)`,
  ];
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

const verdict = (ok: boolean): string => (ok ? 'ok' : 'MISSED');
const atLeast = (value: number, target: number | null): string => (target === null ? '' : `≥ ${times(target)} ${verdict(value >= target)}`);
const below = (value: number, target: number, unit: (x: number) => string): string => `< ${unit(target)} ${verdict(value < target)}`;
const cpu = (x: number | null): string => (x === null ? '–' : ms(x));

export function describeMachine(info: MachineInfo, placement: Placement, check: MachineCheck | null, load: MachineLoad): string[] {
  const lines = [
    `machine: ${info.cpus} CPUs (${info.model}), ${bytes(info.totalMemory)}, Node ${info.node}, ${info.platform}`,
    `placement: ${placement.note}`,
    `load average (1/5/15 min) at start: ${describeLoad(load)}`,
  ];
  if (check) {
    lines.push(
      `machine check: one busy loop alone got ${pct(check.alone.cpuShare)} of its CPU's time; two at once ran at ` +
        `${check.fractions.map((f) => f.toFixed(2)).join(' and ')} of its speed (getting ${check.pair.map((p) => pct(p.cpuShare)).join(' and ')})`,
    );
  }
  return lines;
}

/** The lines printed as a case finishes. */
export function describeResult(r: CaseResult): string[] {
  switch (r.kind) {
    case 'throughput': {
      const paced = r.generatorPacedFloorRuns > 0 ? `  WARNING: generator at its limit in ${r.generatorPacedFloorRuns} floor run(s)` : '';
      return [
        `${r.title} (${bytes(r.answerBytes)} answer): simulator ${kilo(r.simulator.rps)} req/s, floor ${kilo(r.floor.rps)} req/s → ${times(r.ratio)} ` +
          `(rounds ${r.ratios.map((x) => x.toFixed(2)).join(' ')}); CPU per request ${r.simulator.usPerRequest.toFixed(0)} vs ${r.floor.usPerRequest.toFixed(0)} µs → ${times(r.cpuRatio)}` +
          `${r.errors ? `; ${r.errors} ERRORS` : ''}${paced}`,
        `  p50/p99 ${r.simulator.p50}/${r.simulator.p99} ms (floor ${r.floor.p50}/${r.floor.p99}); server CPU ${pct(r.simulator.serverCpu)} (floor ${pct(r.floor.serverCpu)}), generator CPU ${pct(r.simulator.generatorCpu)} (floor runs ${pct(r.floor.generatorCpu)})`,
      ];
    }
    case 'latency':
      return [
        `${r.title}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)} over ${r.deliveries} deliveries of ${r.messages} messages; POST /messages p50 ${ms(r.sendP50)}; ` +
          `server CPU per message ${r.serverUsPerMessage.toFixed(0)} µs (its send, its deliveries, the polls renewed)`,
        ...probeLines(r),
      ];
    case 'queues':
      return [
        `${r.title}: ${bytes(r.bytesPerQueue)} per queue (${bytes(r.bytesPerQueueBeyondJournal)} without the journal's record of its POST /register), ${bytes(r.bytesPerParkedPoll)} more per parked poll`,
        `  POST /messages without queues ${kilo(r.withoutQueues.rps)} req/s; with them open ${kilo(r.idleQueues.rps)} → ${times(r.ratio)} (rounds ${r.ratios.map((x) => x.toFixed(2)).join(' ')}); ` +
          `with ten of them receiving ${kilo(r.receivingQueues.rps)} → ${times(r.receivingRatio)} (rounds ${r.receivingRatios.map((x) => x.toFixed(2)).join(' ')}, pollers' CPU ${pct(r.receivingQueues.pollerCpu)})${r.errors ? `; ${r.errors} ERRORS` : ''}`,
        `  CPU per send: ${r.withoutQueues.usPerRequest.toFixed(0)} µs without queues, ${r.idleQueues.usPerRequest.toFixed(0)} with them open, ${r.receivingQueues.usPerRequest.toFixed(0)} with ten receiving (their polls included: ` +
          `${r.receivingQueues.answersPerSend.toFixed(1)} GET /events answers per send, ${r.receivingQueues.usPerAnswer.toFixed(0)} µs each with its renewed poll)`,
        `  delivery among ${r.queues} parked polls: p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)} (${r.latency.deliveries} deliveries); server CPU per message ${r.latency.serverUsPerMessage.toFixed(0)} µs (its send, ten deliveries, ten polls renewed)`,
        ...probeLines(r.latency),
      ];
    case 'memory':
      return [
        `${r.title}: ${bytes(r.bytesPerMessage)} each, ${bytes(r.beyondContent)} beyond content; ${bytes(r.beyondContentWithSearchIndex)} with the search index${r.exact ? '' : ' (no --expose-gc: approximate)'}`,
      ];
    case 'constructs':
      return [`${r.title} (${r.sends} sends each, median of the rounds):`, ...table(constructRows(r)).split('\n').map((line) => `  ${line}`)];
    case 'startup':
      return [
        `npm run simulator, spawn → first answer: ${ms(r.npm)} median (${r.npmRuns.map((x) => x.toFixed(0)).join(' ')}), CPU ${cpu(r.npmCpu)}; without npm ${ms(r.node)} (${r.nodeRuns.map((x) => x.toFixed(0)).join(' ')}), CPU ${cpu(r.nodeCpu)}`,
        `createSimulator() ${ms(r.create)} median, CPU ${ms(r.createCpu)} (first call ${ms(r.createFirst)}); reset() ${ms(r.reset)}, CPU ${ms(r.resetCpu)}`,
      ];
  }
}

/** Each result of a series (in the order given) with its series' name and its smallest size's result. */
export function seriesMembers<R extends { series: string | null; stored: number }>(results: readonly R[]): { series: string; result: R; base: R }[] {
  const bySeries = new Map<string, R[]>();
  for (const r of results) if (r.series) bySeries.set(r.series, [...(bySeries.get(r.series) ?? []), r]);
  const members: { series: string; result: R; base: R }[] = [];
  for (const [series, rs] of bySeries) {
    const base = rs.reduce((a, b) => (b.stored < a.stored ? b : a));
    for (const result of rs) members.push({ series, result, base });
  }
  return members;
}

/** The series' flatness: each size's rate and CPU per request beside the smallest size's. */
function seriesRows(results: ThroughputResult[]): string[][] {
  return seriesMembers(results).map(({ series, result: r, base }) => [
    r === base ? series : '',
    r.stored.toLocaleString('en'),
    `${kilo(r.simulator.rps)} req/s`,
    `${r.simulator.usPerRequest.toFixed(0)} µs`,
    r === base ? '' : `${times(r.simulator.usPerRequest / base.simulator.usPerRequest)} the CPU per request at ${base.stored.toLocaleString('en')}`,
  ]);
}

export function summaryTable(results: CaseResult[]): string {
  const lines: string[] = [];
  const tp = results.filter((r): r is ThroughputResult => r.kind === 'throughput');
  if (tp.length > 0) {
    lines.push(
      table([
        ['case', 'simulator', 'floor', 'ratio', 'rounds', 'CPU/req sim|floor', 'p50/p99 ms', 'gen CPU', 'target'],
        ...tp.map((r) => [
          r.name,
          `${kilo(r.simulator.rps)}/s`,
          `${kilo(r.floor.rps)}/s`,
          times(r.ratio),
          r.ratios.map((x) => x.toFixed(2)).join(' '),
          `${r.simulator.usPerRequest.toFixed(0)}|${r.floor.usPerRequest.toFixed(0)} µs`,
          `${r.simulator.p50}/${r.simulator.p99}`,
          `${pct(r.floor.generatorCpu)}${r.generatorPacedFloorRuns > 0 ? ' (LIMIT)' : ''}`,
          atLeast(r.ratio, r.target),
        ]),
      ]),
    );
    const series = seriesRows(tp);
    if (series.length > 0) lines.push('', 'as the store grows (simulator side):', table([['series', 'stored', 'rate', 'CPU/req', ''], ...series]));
    lines.push(`(gen CPU: the generator's CPU in the floor runs; LIMIT: at ≥ ${pct(SATURATED)} of a core in some floor run, where it, not the floor, set the pace)`);
  }
  const rest: string[][] = [];
  for (const r of results) {
    if (r.kind === 'latency') rest.push([r.name, `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`, '']);
    if (r.kind === 'queues') {
      rest.push([`${r.name} throughput`, `${times(r.ratio)} of no queues (${times(r.receivingRatio)} with ten receiving)`, `≥ 0.80× ${verdict(r.ratio >= 0.8)}`]);
      rest.push([`${r.name} delivery`, `p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)}`, `p99 ${below(r.latency.p99, 5, ms)}`]);
      rest.push([`${r.name} memory`, `${bytes(r.bytesPerQueue)}/queue (${bytes(r.bytesPerQueueBeyondJournal)} beyond the journal), +${bytes(r.bytesPerParkedPoll)}/parked poll`, '']);
    }
    if (r.kind === 'memory') rest.push(['memory', `${bytes(r.beyondContent)}/message beyond content (${bytes(r.beyondContentWithSearchIndex)} with search index)`, below(r.beyondContent, r.target, bytes)]);
    if (r.kind === 'startup') {
      rest.push(['npm run simulator', `${ms(r.npm)} to first answer (CPU ${cpu(r.npmCpu)})`, below(r.npm, r.targets.npm, ms)]);
      rest.push(['createSimulator()', `${ms(r.create)} (CPU ${ms(r.createCpu)})`, below(r.create, r.targets.create, ms)]);
      rest.push(['reset()', `${ms(r.reset)} (CPU ${ms(r.resetCpu)})`, below(r.reset, r.targets.reset, ms)]);
    }
  }
  if (rest.length > 0) lines.push('', table(rest));
  for (const r of results) if (r.kind === 'constructs') lines.push('', `${r.title}:`, table(constructRows(r)));
  return lines.join('\n');
}
