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
import type { FromWorker, ToWorker, WorkerCrash, WorkerOptions } from './watch-messages.ts';
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
  /** Tests only: how the nth pass worker started (1, 2, …) is to crash, if it is. */
  crashWorkers?: (nth: number) => WorkerCrash | undefined;
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
  /**
   * Stop as a user's Ctrl-C or a service manager's SIGTERM asks: no new change is taken, a change
   * already seen is still read, and the save and pass under way finish, so dist/ is left as a full
   * build of the content would leave it, with no temporary file behind. Then close().
   */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export async function watchCatalog(build: BuildOptions, opts: WatchOptions): Promise<CatalogWatcher> {
  const debounce = opts.debounceMs ?? 20;
  const builder = createIncrementalBuild({ ...build, report: opts.report }, opts.inProcess ? opts.hooks : {});
  const passes = opts.inProcess ? inProcessPasses(builder) : workerPasses(build, builder, opts, () => void pass());
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
      if (!closed) opts.report(error instanceof Error && error.message.startsWith('The pass worker crashed') ? error.message : `Build crashed: ${(error as Error).stack ?? String(error)}`);
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
  const self: CatalogWatcher = {
    async idle() {
      for (;;) {
        await saves;
        if (!busy()) return;
        await new Promise((resolve) => setTimeout(resolve, debounce));
      }
    },
    async stop() {
      await watcher.close();
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
        save();
      }
      await self.idle();
      await self.close();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
      await passes.close();
    },
  };
  return self;
}

function inProcessPasses(builder: IncrementalBuild): Passes {
  return { pass: () => builder.pass(), saved: () => {}, close: async () => {} };
}

/** Crashes in a row after which no new worker is started until a file changes. */
export const WORKER_RESTARTS = 3;
/** Wait before the nth restart in a row (ms): a worker that dies at once does not spin. */
const RESTART_DELAYS_MS = [0, 1000, 4000];

/** The pass worker died: the cause in a few words. */
class WorkerDied extends Error {}

/** How a worker died, in one line: its uncaught error's message, out of memory, or its exit code. */
function causeOf(error: Error | null, code: number): string {
  if (!error) return `it exited with code ${code}`;
  if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return 'it ran out of memory';
  return `${error.name}: ${error.message}`;
}

/**
 * The passes in a worker thread. A worker that dies (an uncaught exception, out of memory,
 * process.exit) is reported in one line and replaced: the new one reads the content afresh and
 * its first pass is a full build, so dist/ is a full build's again. After WORKER_RESTARTS
 * crashes in a row with no pass finished in between, no worker is started until the next change:
 * saves still write their own files meanwhile, and each change tries one new worker.
 */
function workerPasses(build: BuildOptions, builder: IncrementalBuild, opts: WatchOptions, requestPass: () => void): Passes {
  const { log, report, ...data } = build;
  let nextId = 0;
  const built = new Map<number, { resolve: (r: IncrementalResult & { at: number }) => void; reject: (e: Error) => void }>();
  /** The newest save generation sent: a new worker starts from it, so its writes rank after the saves'. */
  let lastGen = 0;
  let started = 0;
  /** Crashes since the last pass that ended. */
  let crashes = 0;
  let closing = false;
  let worker: Worker | null = null;

  function start(): Worker {
    started += 1;
    const crash = opts.crashWorkers?.(started);
    const workerData: WorkerOptions = crash ? { ...data, crash } : data;
    // Only a test's out-of-memory crash runs with a small heap, so that it comes soon.
    const resourceLimits = crash?.how === 'oom' ? { maxOldGenerationSizeMb: 128 } : undefined;
    const w: Worker = startWorker(import.meta.url, 'catalog-watch-worker', './watch-worker.ts', { workerData, ...(resourceLimits ? { resourceLimits } : {}) });
    const send = (message: ToWorker): void => w.postMessage(message);
    const reply = (id: number, work: Promise<unknown>): void =>
      void work.then(() => send({ type: 'reply', id }), (error: unknown) => send({ type: 'reply', id, error: String(error) }));
    w.on('message', (message: FromWorker) => {
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
    let error: Error | null = null;
    w.on('error', (e) => void (error = e));
    w.on('exit', (code) => {
      if (closing || w !== worker) return;
      worker = null;
      const died = new WorkerDied(causeOf(error, code));
      if (built.size === 0) {
        // Between passes: reported now, and a pass on a new worker brings dist/ back to a full build's.
        crashes += 1;
        opts.report(`The pass worker crashed between passes (${died.message}); starting a new one.`);
        requestPass();
        return;
      }
      for (const waiter of built.values()) waiter.reject(died);
      built.clear();
    });
    if (lastGen > 0) send({ type: 'save', changed: [], gen: lastGen, entries: [] });
    return w;
  }

  async function passOn(w: Worker): Promise<IncrementalResult & { at: number }> {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      built.set(id, { resolve, reject });
      w.postMessage({ type: 'pass', id } satisfies ToWorker);
    });
  }

  return {
    async pass() {
      // A change after the limit was reached: one more try.
      if (crashes >= WORKER_RESTARTS) crashes = WORKER_RESTARTS - 1;
      for (;;) {
        worker ??= start();
        try {
          const result = await passOn(worker);
          crashes = 0;
          return result;
        } catch (error) {
          if (!(error instanceof WorkerDied)) throw error;
          crashes += 1;
          if (crashes >= WORKER_RESTARTS) {
            throw new Error(
              `The pass worker crashed ${crashes} times in a row (last: ${error.message}): the lists, the bundle, the search index and llms-full.txt are not updated; saves still write their own files, and the next change tries a new worker.`,
              { cause: error },
            );
          }
          opts.report(`The pass worker crashed (${error.message}); starting a new one and running the pass again.`);
          await new Promise((resolve) => setTimeout(resolve, RESTART_DELAYS_MS[crashes - 1] ?? 0));
          if (closing) throw new Error('closed', { cause: error });
        }
      }
    },
    saved(changed, result) {
      lastGen = Math.max(lastGen, result.gen);
      worker?.postMessage({ type: 'save', changed, gen: result.gen, entries: result.entries } satisfies ToWorker);
    },
    async close() {
      closing = true;
      await worker?.terminate();
    },
  };
}
