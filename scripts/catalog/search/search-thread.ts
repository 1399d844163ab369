/**
 * The main thread's side of the search thread (search-worker.ts): started at the beginning of a
 * build, so that loading its code overlaps reading the content, and given the documents once the
 * catalog is assembled. One thread, one file; it ends when it has answered, or when closed.
 */
import type { Worker } from 'node:worker_threads';
import type { Issue } from '../issues.ts';
import { startWorker } from '../worker-entry.ts';
import type { SearchDocument } from './engine.ts';
import type { SearchFileHeader } from './search-file.ts';

export interface SearchRequest {
  header: SearchFileHeader;
  docs: readonly SearchDocument[];
}

/** The file's problems, or none and its bytes. */
export interface SearchReply {
  issues: Issue[];
  bytes?: Uint8Array;
}

export interface SearchThread {
  /** Build search.json from these documents; rejects if the thread fails. */
  build(request: SearchRequest): Promise<SearchReply>;
  /** Stop the thread (a build that stops early never asks it anything). */
  close(): Promise<void>;
}

export function startSearchThread(): SearchThread {
  const worker: Worker = startWorker(import.meta.url, 'catalog-search-worker', './search-worker.ts');
  // Waiting for its request, it must not keep a process alive that has nothing else to do.
  worker.unref();
  let failure: Error | undefined;
  let reply: SearchReply | undefined;
  const waiters: { resolve: (r: SearchReply) => void; reject: (e: Error) => void }[] = [];
  const settle = (): void => {
    for (const w of waiters.splice(0)) {
      if (reply) w.resolve(reply);
      else w.reject(failure!);
    }
  };
  worker.once('message', (r: SearchReply) => {
    reply = r;
    settle();
    void worker.terminate();
  });
  worker.once('error', (error) => {
    failure = new Error(`the search index thread failed: ${error.message}`, { cause: error });
    settle();
  });
  worker.once('exit', (code) => {
    if (reply) return;
    failure ??= new Error(`the search index thread stopped (exit code ${code}) before it answered`);
    settle();
  });
  return {
    build(request) {
      worker.ref();
      worker.postMessage(request);
      return new Promise((resolve, reject) => {
        waiters.push({ resolve, reject });
        if (reply || failure) settle();
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
