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
 * The passes run in a worker thread (watch-worker.ts), which keeps its own copy of the content:
 * on a large catalog a pass holds its thread for seconds at a time (the set's checks, the lists,
 * the garbage collector), and a save must not wait for that. The main thread keeps the catalog
 * the saves are made from, rebuilt after a pass when a save could not be written in place, and
 * renames every file into dist/, so that no pass puts back what a newer save wrote.
 *
 * A failed pass prints its issues and writes nothing, so the last good output stays in place.
 */
import path from 'node:path';
import { watch } from 'chokidar';
import type { Worker } from 'node:worker_threads';
import { createIncrementalBuild, type IncrementalBuild, type IncrementalHooks, type IncrementalResult, type SaveResult } from './incremental.ts';
import type { BuildOptions } from './pipeline.ts';
import type { FromWorker, ToWorker, WorkerOptions } from './watch-messages.ts';
import { startWorker } from './worker-entry.ts';

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
  /** Run the passes on this thread instead of a worker (slower saves on a large catalog). */
  inProcess?: boolean;
}

/** Where the passes run: this thread's builder, or the worker's. */
interface Passes {
  pass(): Promise<IncrementalResult & { at: number }>;
  /** A save happened: the worker reads its files too. */
  saved(changed: string[], result: SaveResult): void;
  close(): Promise<void>;
}

export interface CatalogWatcher {
  /** Resolves when no change waits to be read and no save or pass is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function watchCatalog(build: BuildOptions, opts: WatchOptions): Promise<CatalogWatcher> {
  const debounce = opts.debounceMs ?? 20;
  const builder = createIncrementalBuild({ ...build, report: opts.report }, opts.inProcess ? opts.hooks : {});
  const passes = opts.inProcess ? inProcessPasses(builder) : workerPasses(build, builder, opts);
  /** The saves' catalog is older than a change a save could not write in place. */
  let stale = false;
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
        const result = await passes.pass();
        builder.passEnded(result.at);
        if (result.ok && stale) stale = !(await builder.refresh());
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
        // On one thread the pass itself keeps the saves' catalog up to date.
        if (!result.done && !opts.inProcess) stale = true;
        passes.saved(changed, result);
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

  // The worker builds dist/ while this thread reads the content for the saves' catalog.
  const refreshing = opts.inProcess ? null : builder.refresh();
  await pass();
  if (refreshing && !(await refreshing)) stale = true;
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
      await passes.close();
    },
  };
}

function inProcessPasses(builder: IncrementalBuild): Passes {
  return { pass: () => builder.pass(), saved: () => {}, close: async () => {} };
}

function workerPasses(build: BuildOptions, builder: IncrementalBuild, opts: WatchOptions): Passes {
  const { log, report, ...data } = build;
  const workerData: WorkerOptions = data;
  const worker: Worker = startWorker(import.meta.url, 'catalog-watch-worker', './watch-worker.ts', { workerData });
  const send = (message: ToWorker): void => worker.postMessage(message);
  const reply = (id: number, work: Promise<unknown>): void =>
    void work.then(() => send({ type: 'reply', id }), (error: unknown) => send({ type: 'reply', id, error: String(error) }));
  let nextId = 0;
  const built = new Map<number, { resolve: (r: IncrementalResult & { at: number }) => void; reject: (e: Error) => void }>();
  let crashed: Error | null = null;
  worker.on('message', (message: FromWorker) => {
    switch (message.type) {
      case 'commit':
        return reply(message.id, builder.commits.commit(build.outDir, message.rel, message.tmp, message.at));
      case 'remove':
        return reply(message.id, builder.commits.remove(build.outDir, message.rel, message.at));
      case 'stage':
        return reply(message.id, Promise.resolve(opts.hooks?.stage?.(message.stage)));
      case 'log':
        return void (log ?? (() => {}))(message.line);
      case 'report':
        return void opts.report(message.text);
      case 'built': {
        const waiter = built.get(message.id);
        built.delete(message.id);
        if (message.result) waiter?.resolve(message.result);
        else waiter?.reject(new Error(message.error ?? 'the pass failed'));
      }
    }
  });
  worker.on('error', (error) => {
    crashed = error;
    for (const waiter of built.values()) waiter.reject(error);
    built.clear();
  });
  return {
    pass() {
      if (crashed) return Promise.reject(crashed);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        built.set(id, { resolve, reject });
        send({ type: 'pass', id });
      });
    },
    saved: (changed, result) => send({ type: 'save', changed, gen: result.gen, entries: result.entries }),
    async close() {
      await worker.terminate();
    },
  };
}
