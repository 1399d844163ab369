/**
 * The build's side thread (side-worker.ts), the main thread's helper on a second CPU. Started at
 * the beginning of a build, so that loading its code overlaps finding the content, it takes two
 * jobs nothing else on the main thread waits for: reading and parsing a share of the content
 * files (the main thread parses the rest meanwhile), and building and checking search.json once
 * the catalog is assembled. Requests run in the order sent; it ends when closed.
 */
import type { Worker } from 'node:worker_threads';
import type { Issue } from './issues.ts';
import type { ParseResult } from './parse.ts';
import type { SearchDocument } from './search/engine.ts';
import type { SearchFileHeader } from './search/search-file.ts';
import { startWorker } from './worker-entry.ts';

export interface SearchRequest {
  header: SearchFileHeader;
  docs: readonly SearchDocument[];
}

/** search.json's problems, or none and its bytes. */
export interface SearchReply {
  issues: Issue[];
  bytes?: Uint8Array;
}

export type SideJob = { job: 'parse'; contentDir: string; rels: readonly string[] } | ({ job: 'search' } & SearchRequest);
export type SideRequest = { id: number } & SideJob;

/** A job's answer, or the error it threw (a read that failed: its message and code, as thrown). */
export type SideReply = { id: number } & ({ value: ParseResult[] | SearchReply } | { error: { message: string; code?: string } });

export interface SideThread {
  /** parseSource's results for these files of the content folder (POSIX paths), in order. */
  parse(contentDir: string, rels: readonly string[]): Promise<ParseResult[]>;
  /** Build and check search.json from these documents. */
  search(request: SearchRequest): Promise<SearchReply>;
  /** Stop the thread; what it has not answered rejects. */
  close(): Promise<void>;
}

export function startSideThread(): SideThread {
  const worker: Worker = startWorker(import.meta.url, 'catalog-side-worker', './side-worker.ts');
  // Waiting for work, it must not keep a process alive that has nothing else to do.
  worker.unref();
  let nextId = 0;
  let stopped: Error | undefined;
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  const stop = (error: Error): void => {
    stopped ??= error;
    for (const waiter of pending.values()) waiter.reject(stopped);
    pending.clear();
  };
  worker.on('message', (reply: SideReply) => {
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (!waiter) return;
    if ('error' in reply) waiter.reject(Object.assign(new Error(reply.error.message), reply.error.code === undefined ? {} : { code: reply.error.code }));
    else waiter.resolve(reply.value as never);
  });
  worker.on('error', (error) => stop(new Error(`the build's side thread failed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => stop(new Error(`the build's side thread stopped (exit code ${code}) before it answered`)));
  const ask = <T>(request: SideJob): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (stopped) {
        reject(stopped);
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve: resolve as (value: never) => void, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  return {
    parse: (contentDir, rels) => ask<ParseResult[]>({ job: 'parse', contentDir, rels }),
    search: (request) => ask<SearchReply>({ job: 'search', ...request }),
    async close() {
      await worker.terminate();
    },
  };
}
