/**
 * The build's side thread (started by side-thread.ts through worker-entry.ts): its jobs, one
 * after another, each answered once. Parsing is parse.ts's, on bytes read here with one
 * synchronous call each; search.json is search-file.ts's value, put through the same output
 * check as every file (check-output.ts) and answered as the bytes the writer would have made of
 * it (compact JSON, a newline), or as its problems.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { checkOutputs } from './check-output.ts';
import { parseSource, type ParseResult } from './parse.ts';
import { searchFile, SEARCH_FILE } from './search/search-file.ts';
import type { SearchReply, SideReply, SideRequest } from './side-thread.ts';

if (!parentPort) throw new Error('side-worker.ts runs as a worker thread of side-thread.ts');
const port = parentPort;

function parseFiles(contentDir: string, rels: readonly string[]): ParseResult[] {
  return rels.map((rel) => parseSource({ file: `content/${rel}`, rel, bytes: readFileSync(path.join(contentDir, rel)) }));
}

function search(request: Extract<SideRequest, { job: 'search' }>): { reply: SearchReply; transfer: ArrayBuffer[] } {
  const value = searchFile(request.header, request.docs);
  const issues = checkOutputs(new Map([[SEARCH_FILE, { kind: 'json', schema: 'search', value }]]));
  if (issues.length > 0) return { reply: { issues }, transfer: [] };
  const bytes = new TextEncoder().encode(`${JSON.stringify(value)}\n`);
  return { reply: { issues, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
}

port.on('message', (request: SideRequest) => {
  try {
    if (request.job === 'parse') {
      port.postMessage({ id: request.id, value: parseFiles(request.contentDir, request.rels) } satisfies SideReply);
      return;
    }
    const { reply, transfer } = search(request);
    port.postMessage({ id: request.id, value: reply } satisfies SideReply, transfer);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    port.postMessage({ id: request.id, error: { message: e.message ?? String(error), ...(e.code === undefined ? {} : { code: e.code }) } } satisfies SideReply);
  }
});
