/**
 * The request handler behind `npm run serve`: answers from the built files held in memory
 * (http/file-store.ts) with what a static host adds from `_headers` (read from the served folder
 * itself, so local and production headers come from one source), compression chosen by
 * Accept-Encoding (the precompressed twins when the build made them), strong content-hash ETags with 304s, single byte ranges, CORS preflight, JSON
 * errors under /api/ and 405 for writes (the API is read-only). An unparseable request target is
 * the client's error (400), and nothing internal ever reaches a response.
 */
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Error400 } from '../../schemas/generated/types/catalog/error-400.ts';
import type { Error404 } from '../../schemas/generated/types/catalog/error-404.ts';
import type { Error405 } from '../../schemas/generated/types/catalog/error-405.ts';
import { API_METHODS, JSON_TYPE, headerMatcher, parseHeadersFile } from './headers.ts';
import { chooseEncoding } from './http/accept-encoding.ts';
import { createFileStore, type Representation, type StoredFile } from './http/file-store.ts';
import { parseRange } from './http/range.ts';
import { targetPath } from './http/target.ts';

/** Refused before any file is looked up, like the 431 of hardening.ts: no schema of the API's own. */
interface Error414 {
  error: 'uri_too_long';
  message: string;
  status: 414;
}
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const TEXT_TYPE = 'text/plain; charset=utf-8';
/** Longer targets get 414, as nginx answers a request line beyond its default 8 KB buffers. */
export const MAX_TARGET_CHARS = 8 << 10;
/** Where `GET /` leads: the site has no page of its own, the API's index says what there is. */
export const INDEX_PATH = '/api/v1/index.json';

export function createCatalogHandler(dir: string): Handler {
  const root = path.resolve(dir);
  const headersFor = headersFileWatcher(path.join(root, '_headers'));
  const store = createFileStore(root, headersFor);

  function handle(req: IncomingMessage, res: ServerResponse): void {
    if ((req.url ?? '').length > MAX_TARGET_CHARS) return uriTooLong(req, res);
    const pathname = targetPath(req.url);
    if (pathname === null) return badRequest(req, res);
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      const ruleHeaders = headersFor(pathname);
      if (method === 'OPTIONS') return preflight(req, res, ruleHeaders);
      return methodNotAllowed(res, pathname, method, ruleHeaders);
    }
    if (pathname === '/') return redirectToIndex(res, headersFor(pathname));
    const file = store.lookup(pathname);
    if (!file) return notFound(res, pathname, headersFor(pathname));
    serveFile(req, res, file, method === 'HEAD');
  }

  return (req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      // Logged for whoever runs the server; the client learns nothing about the machine.
      console.error('catalog server:', error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'Content-Type': TEXT_TYPE });
      res.end('Internal server error\n');
    }
  };
}

function serveFile(req: IncomingMessage, res: ServerResponse, file: StoredFile, head: boolean): void {
  const range = !head && req.headers.range !== undefined && ifRangeHolds(req.headers['if-range'], file.identity.etag);
  // A range is always over the file as it is: the compressed twins are whole-file answers only.
  const coding = range ? null : chooseEncoding(req.headers['accept-encoding'], file.codings);
  const rep: Representation = coding ? file.encoded(coding) : file.identity;
  if (matchesEtag(req.headers['if-none-match'], rep.etag)) {
    const { 'Content-Type': _type, 'Content-Length': _length, 'Content-Encoding': _coding, ...rest } = rep.headers;
    res.writeHead(304, rest);
    res.end();
    return;
  }
  if (range) {
    const length = rep.body.length;
    const answer = parseRange(req.headers.range, length);
    if (answer.kind === 'unsatisfiable') {
      const { 'Content-Type': _type, ETag: _etag, ...rest } = rep.headers;
      res.writeHead(416, { ...rest, 'Content-Range': `bytes */${length}`, 'Content-Length': 0 });
      res.end();
      return;
    }
    if (answer.kind === 'partial') {
      res.writeHead(206, { ...rep.headers, 'Content-Range': `bytes ${answer.start}-${answer.end}/${length}`, 'Content-Length': answer.end - answer.start + 1 });
      res.end(rep.body.subarray(answer.start, answer.end + 1));
      return;
    }
  }
  res.writeHead(200, rep.headers);
  res.end(head ? undefined : rep.body);
}

/** If-Range with a strong ETag (RFC 9110 section 13.1.5): the range holds only for that exact file. */
function ifRangeHolds(header: string | string[] | undefined, etag: string): boolean {
  return header === undefined || (typeof header === 'string' && header.trim() === etag);
}

/** If-None-Match uses weak comparison and may list several tags or `*` (RFC 9110 section 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function preflight(req: IncomingMessage, res: ServerResponse, ruleHeaders: Record<string, string>): void {
  const { 'Content-Type': _type, ...rest } = ruleHeaders;
  res.writeHead(204, {
    ...rest,
    Allow: API_METHODS,
    'Access-Control-Allow-Methods': API_METHODS,
    'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'If-None-Match',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: Error400 | Error404 | Error405 | Error414, headers: Record<string, string>): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'Content-Type': TEXT_TYPE, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The raw target is not echoed back: it is what could not be understood. */
function badRequest(req: IncomingMessage, res: ServerResponse): void {
  const message = 'The request target is not a valid path';
  const headers = { 'Access-Control-Allow-Origin': '*' };
  if ((req.url ?? '').startsWith('/api/')) sendJson(res, 400, { error: 'bad_request', message, status: 400 }, headers);
  else sendText(res, 400, `${message}\n`, headers);
}

function uriTooLong(req: IncomingMessage, res: ServerResponse): void {
  const message = `The request target is longer than ${MAX_TARGET_CHARS} characters`;
  const headers = { 'Access-Control-Allow-Origin': '*', Connection: 'close' };
  if ((req.url ?? '').startsWith('/api/')) sendJson(res, 414, { error: 'uri_too_long', message, status: 414 }, headers);
  else sendText(res, 414, `${message}\n`, headers);
}

function redirectToIndex(res: ServerResponse, ruleHeaders: Record<string, string>): void {
  const { 'Content-Type': _type, ...rest } = ruleHeaders;
  sendText(res, 302, `See ${INDEX_PATH}\n`, { ...rest, Location: INDEX_PATH });
}

function notFound(res: ServerResponse, pathname: string, ruleHeaders: Record<string, string>): void {
  if (pathname.startsWith('/api/')) {
    sendJson(res, 404, { error: 'not_found', message: `No resource at ${pathname}`, status: 404 }, ruleHeaders);
    return;
  }
  sendText(res, 404, `Not found: ${pathname}\n`, ruleHeaders);
}

function methodNotAllowed(res: ServerResponse, pathname: string, method: string, ruleHeaders: Record<string, string>): void {
  const headers = { ...ruleHeaders, Allow: API_METHODS };
  const message = `${method} is not allowed: this API is read-only (GET, HEAD, OPTIONS)`;
  if (pathname.startsWith('/api/')) {
    sendJson(res, 405, { error: 'method_not_allowed', message, status: 405 }, headers);
    return;
  }
  sendText(res, 405, `${message}\n`, headers);
}

/** The header rules of the served folder, re-read when `_headers` changes (a rebuild swaps it). */
function headersFileWatcher(file: string): (pathname: string) => Record<string, string> {
  let seen = '';
  let match: (pathname: string) => Record<string, string> = () => ({});
  return (pathname) => {
    let key = 'missing';
    try {
      const st = statSync(file);
      key = `${st.ino}:${st.mtimeMs}:${st.size}`;
    } catch {
      // No _headers (not built yet): serve with the types known by extension.
    }
    if (key !== seen) {
      seen = key;
      match = key === 'missing' ? () => ({}) : headerMatcher(parseHeadersFile(readFileSync(file, 'utf8')));
    }
    return match(pathname);
  };
}
