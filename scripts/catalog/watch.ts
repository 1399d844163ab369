/**
 * `build --watch`: one build now, then a rebuild after each burst of changes (debounced, never
 * two at once), through the incremental build (incremental.ts): only the files a change touches
 * are read again and only the outputs whose bytes change are written. A failed rebuild prints its
 * issues and writes nothing, so the last good output stays in place.
 */
import path from 'node:path';
import { watch } from 'chokidar';
import { createIncrementalBuild, type IncrementalResult } from './incremental.ts';
import type { BuildOptions } from './pipeline.ts';

export interface WatchOptions {
  /** Where issues go (stderr in the CLI). */
  report: (line: string) => void;
  /** Quiet time after a change before rebuilding, so a burst of saves makes one rebuild. */
  debounceMs?: number;
  /** Called after every build, for tests and tools. */
  onBuild?: (result: IncrementalResult) => void;
}

export interface CatalogWatcher {
  close(): Promise<void>;
}

export async function watchCatalog(build: BuildOptions, opts: WatchOptions): Promise<CatalogWatcher> {
  const debounce = opts.debounceMs ?? 20;
  const builder = createIncrementalBuild({ ...build, report: opts.report });
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let failed = false;
  /** Paths (relative to the content folder) changed since the last rebuild started. */
  let pending = new Set<string>();

  async function run(first = false): Promise<void> {
    if (running) {
      again = true;
      return;
    }
    running = true;
    const changed = pending;
    pending = new Set();
    try {
      const result = await builder.run(first ? null : changed);
      if (!result.ok) opts.report('Keeping the last good build.');
      else if (failed) opts.report('Fixed: the build is clean again.');
      failed = !result.ok;
      opts.onBuild?.(result);
    } catch (error) {
      opts.report(`Build crashed: ${(error as Error).stack ?? String(error)}`);
    } finally {
      running = false;
      if (again) {
        again = false;
        schedule();
      }
    }
  }
  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), debounce);
  }

  await run(true);
  const watcher = watch(build.contentDir, { ignoreInitial: true });
  watcher.on('all', (_event, file) => {
    pending.add(path.relative(build.contentDir, file).split(path.sep).join('/'));
    schedule();
  });
  // An EventEmitter's 'error' with no listener is thrown: it would take the process down.
  watcher.on('error', (error) => opts.report(`Watcher error (still watching): ${(error as Error).message ?? String(error)}`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
