/**
 * `build --watch`: one build now, then a rebuild after each burst of changes (debounced, never
 * two at once). A failed rebuild prints its issues and leaves the last good output in place,
 * since the pipeline only swaps dist/ after a clean build.
 */
import { watch } from 'chokidar';
import { buildCatalog, type BuildOptions, type BuildResult } from './pipeline.ts';

export interface WatchOptions {
  /** Where issues go (stderr in the CLI). */
  report: (line: string) => void;
  debounceMs?: number;
  /** Called after every build, for tests and tools. */
  onBuild?: (result: BuildResult) => void;
}

export interface CatalogWatcher {
  close(): Promise<void>;
}

export async function watchCatalog(build: BuildOptions, opts: WatchOptions): Promise<CatalogWatcher> {
  const debounce = opts.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;

  async function run(): Promise<void> {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const result = await buildCatalog({ ...build, report: opts.report });
      if (!result.ok) opts.report('Keeping the last good build.');
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

  await run();
  const watcher = watch(build.contentDir, { ignoreInitial: true });
  watcher.on('all', schedule);
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
