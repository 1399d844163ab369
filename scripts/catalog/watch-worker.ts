/**
 * The pass thread of `build --watch` (started by watch.ts through worker-entry.ts). It runs the
 * incremental build's passes (the whole set checked, the lists, the bundle, the search index,
 * llms-full.txt: seconds of work on a large catalog) so that the main thread stays free to write
 * each save's own files at once. It reads the saved files itself; every file it writes is
 * renamed into dist/ by the main thread, which holds the saves' claims, so a pass never puts back
 * what a newer save wrote.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createIncrementalBuild, type Commits } from './incremental.ts';
import type { FromWorker, ToWorker, WorkerOptions } from './watch-messages.ts';

if (!parentPort) throw new Error('watch-worker.ts runs as a worker thread of watch.ts');
const port = parentPort;
const send = (message: FromWorker): void => port.postMessage(message);

let nextId = 0;
const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
/** Ask the main thread and wait for its answer. */
function ask(message: FromWorker & { id: number }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    waiting.set(message.id, { resolve, reject });
    send(message);
  });
}

const commits: Commits = {
  commit: (_outDir, rel, tmp, at) => ask({ type: 'commit', id: nextId++, rel, tmp, at }),
  remove: (_outDir, rel, at) => ask({ type: 'remove', id: nextId++, rel, at }),
};
const { crash, ...options } = workerData as WorkerOptions;
const builder = createIncrementalBuild(
  { ...options, log: (line) => send({ type: 'log', line }), report: (text) => send({ type: 'report', text }) },
  {
    stage: (stage) => {
      if (crash?.stage === stage) return crashNow(crash.how);
      return ask({ type: 'stage', id: nextId++, stage });
    },
  },
  { commits, fastPath: false },
);

/** The tests' crash (watch-messages.ts's WorkerCrash): the pass never goes on. */
function crashNow(how: 'throw' | 'exit' | 'oom'): Promise<void> {
  if (how === 'exit') process.exit(70);
  setImmediate(() => {
    if (how === 'throw') throw new Error('a crash asked for by a test');
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array<number>(1 << 20).fill(hoard.length));
  });
  return new Promise<void>(() => {});
}

if (crash?.stage === 'start') void crashNow(crash.how);

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') {
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error === undefined) waiter?.resolve();
    else waiter?.reject(new Error(message.error));
  } else if (message.type === 'save') {
    builder.noteWritten(message.entries, message.gen);
    // Its failures surface in the next pass (a file that cannot be read is a missing file there).
    void builder.save(message.changed, message.gen).catch(() => {});
  } else {
    builder.pass().then(
      (result) => send({ type: 'built', id: message.id, result }),
      (error: unknown) => send({ type: 'built', id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  }
});
