/**
 * Counting machine instructions instead of timing: a server child runs under valgrind's callgrind
 * (every thread of the process counted, one instruction at a time, whatever the machine's load),
 * and writes a count each time it passes a marker. The marker is a call of libc's `getpriority`
 * (`os.getPriority()`), which Node makes nowhere else, and callgrind's `--dump-before=getpriority`
 * writes the instructions since the previous marker and starts again from zero. So start-up and
 * set-up fall before the first marker, and a block of requests between two markers counts only
 * those requests (and what the markers themselves cost, measured by an empty block and taken off).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './stats.ts';

export const MARKER_FUNCTION = 'getpriority';

/** Whose instructions count: the main thread's (the event loop's), or every thread's (V8's compiler and collector helpers too). */
export type CountedThreads = 'main' | 'all';

/** What to print when valgrind cannot be run: what it is for and how to get it. */
export const VALGRIND_MISSING =
  'valgrind is not installed (or not on PATH): --instructions counts machine instructions with valgrind\'s callgrind.\n' +
  'Install it (Debian/Ubuntu: sudo apt install valgrind; Fedora: sudo dnf install valgrind; macOS: not supported) and run again.';

/** The valgrind command's version line (e.g. "valgrind-3.19.0"), or null when it does not run. */
export function valgrindVersion(command = 'valgrind', env: NodeJS.ProcessEnv = process.env): string | null {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'ignore'] });
  if (run.error || run.status !== 0) return null;
  const line = run.stdout.trim();
  return line.startsWith('valgrind') ? line : null;
}

/**
 * The command a counted child runs under: callgrind without cache simulation (instructions only),
 * dumping at each marker into `outPrefix`.<n>, and quiet (its report would mix with ours).
 */
export function callgrindCommand(outPrefix: string, threads: CountedThreads): string[] {
  return [
    'valgrind',
    '--tool=callgrind',
    `--callgrind-out-file=${outPrefix}`,
    `--dump-before=${MARKER_FUNCTION}`,
    '--quiet',
    // Each thread's counts apart: a marker's dump then holds the thread that passed it (the main one) alone.
    ...(threads === 'main' ? ['--separate-threads=yes'] : []),
  ];
}

/**
 * The child side of a marker: the young generation collected first when the process may call
 * the collector (--expose-gc), so that each block pays for the garbage it made, then the marker.
 */
export function passMarker(): void {
  const gc = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
  gc?.({ type: 'minor' });
  os.getPriority();
}

/** The `totals:` (or older `summary:`) figure of a callgrind dump, or null when it has none. */
export function parseTotals(text: string): number | null {
  const match = /^(?:totals|summary):\s*(\d+)\s*$/m.exec(text);
  return match ? Number(match[1]) : null;
}

/**
 * The counts of `outPrefix`'s numbered dumps (outPrefix.1, .2, …, or outPrefix.1-01, … for the
 * main thread when threads are apart), in order; the final dump at exit (no number) is left out.
 */
export function readDumps(outPrefix: string, threads: CountedThreads): number[] {
  const dir = path.dirname(outPrefix);
  const base = `${path.basename(outPrefix)}.`;
  const name = threads === 'main' ? /^(\d+)-0*1$/ : /^(\d+)$/;
  const numbered = readdirSync(dir)
    .filter((f) => f.startsWith(base) && name.test(f.slice(base.length)))
    .map((f) => ({ n: Number(name.exec(f.slice(base.length))![1]), file: path.join(dir, f) }))
    .sort((a, b) => a.n - b.n);
  return numbered.map(({ file }) => {
    const totals = parseTotals(readFileSync(file, 'utf8'));
    if (totals === null) throw new Error(`${file}: no totals line in the callgrind dump`);
    return totals;
  });
}

/**
 * Instructions per request of each block, from one process's dumps: the first (start-up, set-up,
 * warm-up) is dropped, the second is an empty block (two markers back to back: what a marker
 * costs), and each one after it held `requests` requests.
 */
export function perRequestCounts(dumps: readonly number[], requests: number, blocks: number): { empty: number; perRequest: number[] } {
  if (dumps.length !== blocks + 2) throw new Error(`expected ${blocks + 2} counts (start-up, an empty block, ${blocks} of requests), got ${dumps.length}`);
  const empty = dumps[1]!;
  return { empty, perRequest: dumps.slice(2).map((count) => (count - empty) / requests) };
}

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** (max − min) ÷ median. */
  relative: number;
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, relative: Number.NaN };
  const middle = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: middle, min, max, relative: (max - min) / middle };
}
