/**
 * The request handler behind `npm run serve`: sirv streams the files of dist/, and this layer
 * adds what a static host adds from `_headers` (read from the served folder itself, so local
 * and production headers come from one source), strong content-hash ETags with 304s, CORS
 * preflight, JSON 404s under /api/ and 405 for writes (the API is read-only).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import type { Error404 } from '../../types/catalog/error-404.ts';
import type { Error405 } from '../../types/catalog/error-405.ts';
import { API_METHODS, JSON_TYPE, headerMatcher, parseHeadersFile } from './headers.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const READ_METHODS = new Set(['GET', 'HEAD']);

export function createCatalogHandler(dir: string): Handler {
  const root = path.resolve(dir);
  const headersFor = headersFileWatcher(path.join(root, '_headers'));
  const etags = new Map<string, { key: string; etag: string }>();
  const pending = new WeakMap<ServerResponse, Record<string, string>>();
  // dev mode: look files up on every request, because a rebuild swaps the whole folder.
  const files = sirv(root, {
    dev: true,
    etag: false,
    extensions: [],
    setHeaders: (res) => {
      for (const [k, v] of Object.entries(pending.get(res) ?? {})) res.setHeader(k, v);
    },
    onNoMatch: (req, res) => notFound(res, pathOf(req), headersFor(pathOf(req))),
  });

  async function etagOf(file: string, st: Stats): Promise<string> {
    // Keyed by mtime+size so a changed file is re-hashed; the value is a hash of the bytes, so a
    // rebuild that writes the same bytes keeps the same ETag.
    const key = `${st.mtimeMs}:${st.size}`;
    const hit = etags.get(file);
    if (hit && hit.key === key) return hit.etag;
    const etag = `"${createHash('sha256').update(await readFile(file)).digest('base64url').slice(0, 32)}"`;
    etags.set(file, { key, etag });
    return etag;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = pathOf(req);
    const ruleHeaders = headersFor(pathname);
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') return preflight(req, res, ruleHeaders);
    if (!READ_METHODS.has(method)) return methodNotAllowed(res, pathname, method, ruleHeaders);
    const file = resolveInside(root, pathname);
    const st = file ? await stat(file).catch(() => null) : null;
    if (!file || !st?.isFile()) return notFound(res, pathname, ruleHeaders);
    const etag = await etagOf(file, st);
    const headers: Record<string, string> = { ...ruleHeaders, ETag: etag };
    if (matchesEtag(req.headers['if-none-match'], etag)) {
      const { 'Content-Type': _type, ...rest } = headers;
      res.writeHead(304, rest);
      res.end();
      return;
    }
    pending.set(res, headers);
    files(req, res);
  }

  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Internal error: ${(error as Error).message}\n`);
    });
  };
}

function pathOf(req: IncomingMessage): string {
  const raw = new URL(req.url ?? '/', 'http://localhost').pathname;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The file a path names, or null when it escapes the folder, is hidden or is host configuration. */
function resolveInside(root: string, pathname: string): string | null {
  if (pathname === '/_headers' || pathname.split('/').some((seg) => seg.startsWith('.'))) return null;
  const file = path.resolve(root, `.${pathname}`);
  return file.startsWith(root + path.sep) ? file : null;
}

/** If-None-Match uses weak comparison and may list several tags or `*` (RFC 9110 §13.1.2). */
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

function sendJson(res: ServerResponse, status: number, body: Error404 | Error405, headers: Record<string, string>): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function notFound(res: ServerResponse, pathname: string, ruleHeaders: Record<string, string>): void {
  if (pathname.startsWith('/api/')) {
    sendJson(res, 404, { error: 'not_found', message: `No resource at ${pathname}`, status: 404 }, ruleHeaders);
    return;
  }
  res.writeHead(404, { ...ruleHeaders, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`Not found: ${pathname}\n`);
}

function methodNotAllowed(res: ServerResponse, pathname: string, method: string, ruleHeaders: Record<string, string>): void {
  const headers = { ...ruleHeaders, Allow: API_METHODS };
  const message = `${method} is not allowed: this API is read-only (GET, HEAD, OPTIONS)`;
  if (pathname.startsWith('/api/')) {
    sendJson(res, 405, { error: 'method_not_allowed', message, status: 405 }, headers);
    return;
  }
  res.writeHead(405, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
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
      // No _headers (not built yet): serve with sirv's defaults.
    }
    if (key !== seen) {
      seen = key;
      match = key === 'missing' ? () => ({}) : headerMatcher(parseHeadersFile(readFileSync(file, 'utf8')));
    }
    return match(pathname);
  };
}
