/**
 * Garbage-collector pauses of a benchmark process, recorded between two calls (`gc-record`,
 * `gc-pauses`: answerCalls knows both), timed on the machine's clock so that the pauses of several
 * processes can be laid beside one request's timeline. `--trace-gc` is refused in NODE_OPTIONS and
 * prints rather than counts; perf_hooks' 'gc' entries are what V8 reports of each pause.
 */
import { constants, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export interface GcPause {
  /** When it began, ms since the epoch (performance.timeOrigin + startTime: comparable across processes). */
  at: number;
  ms: number;
  kind: 'minor' | 'major' | 'incremental' | 'weak-callbacks';
}

const KINDS = new Map<number, GcPause['kind']>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak-callbacks'],
]);

let recorded: GcPause[] | null = null;
const keep = (entries: readonly PerformanceEntry[]): void => {
  for (const e of entries) {
    const kind = KINDS.get((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1) ?? 'major';
    recorded?.push({ at: performance.timeOrigin + e.startTime, ms: e.duration, kind });
  }
};
const observer = new PerformanceObserver((list) => keep(list.getEntries()));

/** Start recording (forgetting what an earlier recording held). */
export function recordGcPauses(): void {
  recorded = [];
  observer.observe({ entryTypes: ['gc'] });
}

/** The pauses since recordGcPauses, and stop. */
export function takeGcPauses(): GcPause[] {
  keep(observer.takeRecords());
  observer.disconnect();
  const pauses = recorded ?? [];
  recorded = null;
  return pauses;
}

export interface GcSummary {
  count: number;
  totalMs: number;
  /** Per kind: how many, and their p50 / p99 / longest, ms. */
  kinds: Partial<Record<GcPause['kind'], { count: number; p50: number; p99: number; max: number }>>;
}

export function summarizeGcPauses(pauses: readonly GcPause[], percentile: (values: readonly number[], p: number) => number): GcSummary {
  const kinds: GcSummary['kinds'] = {};
  for (const kind of new Set(pauses.map((p) => p.kind))) {
    const durations = pauses.filter((p) => p.kind === kind).map((p) => p.ms);
    kinds[kind] = { count: durations.length, p50: percentile(durations, 50), p99: percentile(durations, 99), max: Math.max(...durations) };
  }
  return { count: pauses.length, totalMs: pauses.reduce((sum, p) => sum + p.ms, 0), kinds };
}

/** Whether a pause overlaps the span [from, to] (ms since the epoch). */
export const pausedWithin = (pauses: readonly GcPause[], from: number, to: number): boolean => pauses.some((p) => p.at < to && p.at + p.ms > from);
