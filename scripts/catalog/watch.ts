/**
 * `build --watch`: one build now, then after each burst of changes (debounced) two things, through
 * the incremental build (incremental.ts):
 *
 * - a save: the changed files are read again and, when the edit allows it, their own files (detail
 *   JSON, Markdown twin) are written at once from the last good catalog, even while a pass runs;
 * - a pass: the whole set checked and every output brought up to date (lists, bundle, search
 *   index, llms-full.txt). One at a time; saves that arrive during a pass are coalesced into the
 *   one pass that follows it, so a burst of saves never queues a pass per save.
 *
 * A failed pass prints its issues and writes nothing, so the last good output stays in place.
 */
import path from 'node:path';
import { watch } from 'chokidar';
import { createIncrementalBuild, type IncrementalHooks, type IncrementalResult, type SaveResult } from './incremental.ts';
import type { BuildOptions } from './pipeline.ts';

export interface WatchOptions {
  /** Where issues go (stderr in the CLI). */
  report: (line: string) => void;
  /** Quiet time after a change before reading it, so a burst of saves makes one save. */
  debounceMs?: number;
  /** Called after every pass, for tests and tools. */
  onBuild?: (result: IncrementalResult) => void;
  /** Called after every save, with the paths it read. */
  onSave?: (result: SaveResult, paths: readonly string[]) => void;
  /** Test hooks into the passes (incremental.ts). */
  hooks?: IncrementalHooks;
}

export interface CatalogWatcher {
  /** Resolves when no change waits to be read and no save or pass is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function watchCatalog(build: BuildOptions, opts: WatchOptions): Promise<CatalogWatcher> {
  const debounce = opts.debounceMs ?? 20;
  const builder = createIncrementalBuild({ ...build, report: opts.report }, opts.hooks);
  let timer: NodeJS.Timeout | undefined;
  let passing = false;
  let again = false;
  let failed = false;
  let closed = false;
  /** Paths (relative to the content folder) changed since the last save started. */
  let pending = new Set<string>();
  /** Saves one after another (each reads what the one before it left). */
  let saves: Promise<void> = Promise.resolve();

  async function pass(): Promise<void> {
    if (passing) {
      again = true;
      return;
    }
    passing = true;
    try {
      do {
        again = false;
        await saves;
        const result = await builder.pass();
        if (!result.ok) opts.report('Keeping the last good build.');
        else if (failed) opts.report('Fixed: the build is clean again.');
        failed = !result.ok;
        opts.onBuild?.(result);
      } while (again && !closed);
    } catch (error) {
      opts.report(`Build crashed: ${(error as Error).stack ?? String(error)}`);
    } finally {
      passing = false;
    }
  }

  function save(): void {
    const changed = [...pending].sort();
    pending = new Set();
    saves = saves.then(async () => {
      try {
        const result = await builder.save(changed);
        opts.onSave?.(result, changed);
      } catch (error) {
        opts.report(`Build crashed: ${(error as Error).stack ?? String(error)}`);
      }
    });
    void pass();
  }

  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      save();
    }, debounce);
  }
  /** Passes and saves going on, or changes not read yet. */
  const busy = (): boolean => passing || timer !== undefined || pending.size > 0;

  await pass();
  const watcher = watch(build.contentDir, { ignoreInitial: true });
  watcher.on('all', (_event, file) => {
    pending.add(path.relative(build.contentDir, file).split(path.sep).join('/'));
    schedule();
  });
  // An EventEmitter's 'error' with no listener is thrown: it would take the process down.
  watcher.on('error', (error) => opts.report(`Watcher error (still watching): ${(error as Error).message ?? String(error)}`));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    async idle() {
      for (;;) {
        await saves;
        if (!busy()) return;
        await new Promise((resolve) => setTimeout(resolve, debounce));
      }
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
