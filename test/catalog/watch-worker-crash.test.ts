/**
 * `build --watch` when its pass worker dies (an uncaught exception, process.exit, out of memory):
 * the crash is reported in one line, a new worker runs the pass again, later saves still reach
 * dist/, and dist/ ends as a full build's. A worker that crashes at every start is given up after
 * a few tries, and the next change tries once more.
 *
 * The crash is asked for through watchCatalog's test-only `crashWorkers` option (never reachable
 * from the command line): the nth worker dies when its pass reaches a stage.
 */
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { IncrementalResult } from '../../scripts/catalog/incremental.ts';
import type { WorkerCrash } from '../../scripts/catalog/watch-messages.ts';
import { WORKER_RESTARTS, watchCatalog } from '../../scripts/catalog/watch.ts';
import { cleanupTemp, copyContent, tempDir } from './helpers.ts';
import { append, expectSameAsFullBuild, holds } from './watch-helpers.ts';

afterAll(cleanupTemp);

const INSIGHT = 'insights/medir-antes.md';
const INSIGHT_JSON = 'api/v1/insights/medir-antes.json';

async function crashingWatcher(content: string, dist: string, crashWorkers: (nth: number) => WorkerCrash | undefined) {
  const builds: IncrementalResult[] = [];
  const reports: string[] = [];
  const waiters: (() => void)[] = [];
  const changed = () => waiters.splice(0).forEach((w) => w());
  const until = (pred: () => boolean) => new Promise<void>((resolve) => {
    const check = (): void => (pred() ? resolve() : void waiters.push(check));
    check();
  });
  const watcher = await watchCatalog(
    { contentDir: content, outDir: dist, sourceDateEpoch: '' },
    {
      report: (l) => (reports.push(l), changed()),
      debounceMs: 30,
      crashWorkers,
      onBuild: (r) => (builds.push(r), changed()),
      onSave: () => changed(),
    },
  );
  return { watcher, builds, reports, until };
}


it.each([
  ['an uncaught exception', 'throw', /^The pass worker crashed \(Error: a crash asked for by a test\); starting a new one and running the pass again\.$/],
  ['process.exit', 'exit', /^The pass worker crashed \(it exited with code 70\); starting a new one and running the pass again\.$/],
  ['running out of memory', 'oom', /^The pass worker crashed \(it ran out of memory\); starting a new one and running the pass again\.$/],
] as const)('a worker that dies by %s is reported, replaced, and the pass runs again', async (_name, how, line) => {
  const content = await copyContent();
  const dist = path.join(await tempDir(), 'dist');
  // The first worker builds, then dies in the pass after the first save; its replacement stays well.
  const w = await crashingWatcher(content, dist, (nth) => (nth === 1 ? { stage: 'checked', how } : undefined));
  try {
    expect(w.builds.map((b) => b.ok)).toEqual([true]);
    await append(content, INSIGHT, 'Antes del fallo.');
    await w.until(() => w.reports.some((r) => line.test(r)));
    expect(holds(dist, INSIGHT_JSON, 'Antes del fallo.')).toBe(true);
    await w.until(() => w.builds.length >= 2);
    expect(w.builds.every((b) => b.ok)).toBe(true);
    // One line for the crash, nothing else.
    expect(w.reports).toEqual([expect.stringMatching(line)]);
    // The new worker keeps working: a later save reaches its file, and its pass ends.
    const before = w.builds.length;
    await append(content, INSIGHT, 'Después del fallo.');
    await w.until(() => w.builds.length > before);
    expect(holds(dist, INSIGHT_JSON, 'Después del fallo.')).toBe(true);
    await w.watcher.idle();
    await expectSameAsFullBuild(content, dist);
  } finally {
    await w.watcher.close();
  }
});

it('a worker that crashes at every start is given up after a few tries; saves go on, and a change tries again', async () => {
  const content = await copyContent();
  const dist = path.join(await tempDir(), 'dist');
  let healthy = false;
  const w = await crashingWatcher(content, dist, (nth) => (nth === 1 ? { stage: 'checked', how: 'throw' } : healthy ? undefined : { stage: 'start', how: 'exit' }));
  const gaveUp = (r: string) => r.startsWith(`The pass worker crashed ${WORKER_RESTARTS} times in a row (last: it exited with code 70): `);
  try {
    await append(content, INSIGHT, 'Primera.');
    await w.until(() => w.reports.some(gaveUp));
    expect(w.reports.filter((r) => r.startsWith('The pass worker crashed ('))).toHaveLength(WORKER_RESTARTS - 1);
    expect(w.builds).toHaveLength(1);
    // Still watching: a save writes its own files, and tries one new worker (which crashes again).
    await append(content, INSIGHT, 'Segunda.');
    await w.until(() => w.reports.filter(gaveUp).length === 2);
    expect(holds(dist, INSIGHT_JSON, 'Segunda.')).toBe(true);
    expect(w.builds).toHaveLength(1);
    // Once workers start well again, the next change brings everything back.
    healthy = true;
    await append(content, INSIGHT, 'Tercera.');
    await w.until(() => w.builds.length >= 2);
    await w.watcher.idle();
    expect(w.builds.every((b) => b.ok)).toBe(true);
    expect(holds(dist, INSIGHT_JSON, 'Tercera.')).toBe(true);
    await expectSameAsFullBuild(content, dist);
  } finally {
    await w.watcher.close();
  }
});
