/**
 * The search thread of the build (started by search-thread.ts through worker-entry.ts). Building
 * the index walks every word of the catalog, and the file is the largest one but the bundle:
 * seconds of work at 10,000 documents that nothing else waits for, so it runs here, beside the
 * main thread emitting and writing the rest. It is given the search documents, and answers the
 * file's problems (the output check of check-output.ts, the same as for every file) or, when it
 * has none, the file's bytes, as the writer would have made them (compact JSON, a newline).
 */
import { parentPort } from 'node:worker_threads';
import { checkOutputs } from '../check-output.ts';
import { searchFile, SEARCH_FILE } from './search-file.ts';
import type { SearchReply, SearchRequest } from './search-thread.ts';

if (!parentPort) throw new Error('search-worker.ts runs as a worker thread of search-thread.ts');
const port = parentPort;

port.once('message', ({ header, docs }: SearchRequest) => {
  const value = searchFile(header, docs);
  const issues = checkOutputs(new Map([[SEARCH_FILE, { kind: 'json', schema: 'search', value }]]));
  if (issues.length > 0) {
    port.postMessage({ issues } satisfies SearchReply);
    return;
  }
  const bytes = new TextEncoder().encode(`${JSON.stringify(value)}\n`);
  port.postMessage({ issues, bytes } satisfies SearchReply, [bytes.buffer as ArrayBuffer]);
});
