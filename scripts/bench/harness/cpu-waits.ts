/**
 * Time a benchmark process spent ready to run but not running: Linux's per-thread scheduler
 * statistics (/proc/<pid>/task/<tid>/schedstat: nanoseconds on a CPU, nanoseconds waiting on a
 * run queue, time slices). A delivery probe reads them for the simulator and for its own process
 * around every message, so that a slow delivery can be laid beside what the machine did meanwhile:
 * the event loop (the main thread) waiting for its CPU, and the process's other threads (V8's
 * compiler and collector helpers, which `taskset -a` pins to the same CPU) running on it.
 * Elsewhere than Linux the files are missing and every reading is null.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** One thread's totals so far, ms. */
export interface ThreadTimes {
  runMs: number;
  waitMs: number;
}

/** A process's totals so far (or over a span, as a difference), ms. */
export interface ProcessCpu {
  /** The main thread (the event loop): time on a CPU, and time ready to run but waiting for one. */
  mainRunMs: number;
  mainWaitMs: number;
  /** Every other thread's time on a CPU. */
  helpersRunMs: number;
}

/** The first two fields of a schedstat line, in ms; null for anything else. */
export function parseSchedstat(text: string): ThreadTimes | null {
  const fields = text.trim().split(/\s+/);
  if (fields.length < 2 || !fields.slice(0, 2).every((f) => /^\d+$/.test(f))) return null;
  return { runMs: Number(fields[0]) / 1e6, waitMs: Number(fields[1]) / 1e6 };
}

function readThread(pid: number, tid: number): ThreadTimes | null {
  try {
    return parseSchedstat(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The threads of a process other than its main one (null: no /proc). Read once: node starts them all at start-up. */
export function helperThreads(pid: number): number[] | null {
  try {
    return readdirSync(`/proc/${pid}/task`)
      .map(Number)
      .filter((tid) => tid !== pid);
  } catch {
    return null;
  }
}

/** A process's totals now; null where the main thread's statistics cannot be read. A helper that is gone counts nothing. */
export function readProcessCpu(pid: number, helpers: readonly number[]): ProcessCpu | null {
  const main = readThread(pid, pid);
  if (main === null) return null;
  let helpersRunMs = 0;
  for (const tid of helpers) helpersRunMs += readThread(pid, tid)?.runMs ?? 0;
  return { mainRunMs: main.runMs, mainWaitMs: main.waitMs, helpersRunMs };
}

/** What happened between two readings (null if either is). */
export function cpuBetween(before: ProcessCpu | null, after: ProcessCpu | null): ProcessCpu | null {
  if (before === null || after === null) return null;
  return {
    mainRunMs: after.mainRunMs - before.mainRunMs,
    mainWaitMs: after.mainWaitMs - before.mainWaitMs,
    helpersRunMs: after.helpersRunMs - before.helpersRunMs,
  };
}
