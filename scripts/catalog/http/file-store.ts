/**
 * The built files, held in memory for the server, each with its precompressed twins and its
 * response headers worked out once. A request costs one `stat` of its file: when the file's
 * identity (inode, size, times) changed, because a rebuild swapped dist/ or rewrote the file, the
 * entry is read again. Nothing else is cached across a change.
 *
 * Containment is checked on the real path, after symbolic links are resolved: a link inside
 * dist/ that leads outside it is not served, one that stays inside is served like the file it
 * names (with the same rules: never `_headers`, never a dot-file). A twin is served only once it
 * is verified to decode to exactly the bytes of its file, so a twin left stale by an interrupted
 * rewrite can never be sent.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { JSON_TYPE, TEXT_TYPES } from '../headers.ts';
import { ENCODINGS, isCompressible, twinEncoding, type Encoding } from '../precompress.ts';

export type Coding = Encoding['token'];

export interface Representation {
  body: Buffer;
  etag: string;
  /** Every header of a 200 answer with this representation. */
  headers: Readonly<Record<string, string | number>>;
}

export interface StoredFile {
  identity: Representation;
  encoded: ReadonlyMap<Coding, Representation>;
  /** The codings present, in order of preference, for negotiation. */
  codings: readonly Coding[];
}

interface Entry {
  key: string;
  file: StoredFile;
  /** A twin was missing or stale when read: look again, at most once a second. */
  retryTwinsAt: number | null;
  bytes: number;
}

/** Bodies kept in memory at most; beyond it the oldest entries go (read again when asked). */
const MAX_CACHED_BYTES = 64 << 20;
const TWIN_RETRY_MS = 1000;
const DECODE: Record<Coding, (b: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

const identityOf = (st: Stats): string => `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
const etagOf = (bytes: Buffer): string => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;

/** `_headers`, dot-files and twins are not files of the site: the twins are picked by negotiation. */
function servable(rel: string): boolean {
  return rel !== '_headers' && !rel.split('/').some((seg) => seg.startsWith('.')) && twinEncoding(rel) === null;
}

function fallbackType(rel: string): string {
  const ext = rel.slice(rel.lastIndexOf('.') + 1);
  return ext === 'json' ? JSON_TYPE : (TEXT_TYPES[ext] ?? 'application/octet-stream');
}

export interface FileStore {
  /** The file a URL path names, or null when there is none (or it is not to be served). */
  lookup(pathname: string): StoredFile | null;
}

export function createFileStore(dir: string, headersFor: (pathname: string) => Record<string, string>): FileStore {
  const root = path.resolve(dir);
  const entries = new Map<string, Entry>();
  let cached = 0;

  /** The real path of `file` when it lies inside the real root, else null. */
  function contained(file: string): string | null {
    try {
      const realRoot = realpathSync(root);
      const real = realpathSync(file);
      return real.startsWith(realRoot + path.sep) ? real : null;
    } catch {
      return null;
    }
  }

  /** The same, for a file served by name: what the link leads to must be servable too. */
  function realInside(file: string): string | null {
    const real = contained(file);
    if (!real) return null;
    return servable(path.relative(realpathSync(root), real).split(path.sep).join('/')) ? real : null;
  }

  function representation(pathname: string, body: Buffer, coding: Coding | null, compressible: boolean): Representation {
    const rule = headersFor(pathname);
    const etag = etagOf(body);
    const headers: Record<string, string | number> = { 'Content-Type': fallbackType(pathname), ...rule, ETag: etag };
    if (compressible) headers.Vary = 'Accept-Encoding';
    if (coding) headers['Content-Encoding'] = coding;
    headers['Accept-Ranges'] = 'bytes';
    headers['Content-Length'] = body.length;
    return { body, etag, headers };
  }

  function readTwins(pathname: string, file: string, body: Buffer): { encoded: Map<Coding, Representation>; complete: boolean } {
    const encoded = new Map<Coding, Representation>();
    let complete = true;
    for (const e of ENCODINGS) {
      try {
        const twinPath = contained(`${file}${e.suffix}`);
        if (!twinPath) throw new Error('missing or outside');
        const bytes = readFileSync(twinPath);
        if (!DECODE[e.token](bytes).equals(body)) throw new Error('stale');
        encoded.set(e.token, representation(pathname, bytes, e.token, true));
      } catch {
        complete = false;
      }
    }
    return { encoded, complete };
  }

  function load(pathname: string, file: string, key: string): Entry | null {
    const real = realInside(file);
    if (!real) return null;
    const body = readFileSync(real);
    const compressible = isCompressible(pathname);
    const twins = compressible ? readTwins(pathname, real, body) : { encoded: new Map<Coding, Representation>(), complete: true };
    const codings = ENCODINGS.map((e) => e.token).filter((c) => twins.encoded.has(c));
    const bytes = body.length + [...twins.encoded.values()].reduce((n, r) => n + r.body.length, 0);
    return {
      key,
      file: { identity: representation(pathname, body, null, compressible), encoded: twins.encoded, codings },
      retryTwinsAt: twins.complete ? null : Date.now() + TWIN_RETRY_MS,
      bytes,
    };
  }

  function remember(file: string, entry: Entry): void {
    const old = entries.get(file);
    if (old) {
      cached -= old.bytes;
      entries.delete(file);
    }
    entries.set(file, entry);
    cached += entry.bytes;
    for (const [name, e] of entries) {
      if (cached <= MAX_CACHED_BYTES || name === file) break;
      entries.delete(name);
      cached -= e.bytes;
    }
  }

  return {
    lookup(pathname) {
      const rel = pathname.replace(/^\/+/, '');
      // A file asked for as a folder (`meta-ads.json/`) is no file, as nginx and Caddy answer.
      if (rel.endsWith('/') || !servable(rel)) return null;
      const file = path.resolve(root, rel);
      if (!file.startsWith(root + path.sep)) return null;
      let st: Stats | undefined;
      try {
        st = statSync(file, { throwIfNoEntry: false });
      } catch {
        // ENOTDIR (a path through a file), ENAMETOOLONG, ELOOP…: nothing is there to serve.
        return null;
      }
      if (!st?.isFile()) return null;
      const key = identityOf(st);
      const hit = entries.get(file);
      if (hit && hit.key === key && (hit.retryTwinsAt === null || Date.now() < hit.retryTwinsAt)) return hit.file;
      const entry = load(pathname, file, key);
      if (!entry) return null;
      remember(file, entry);
      return entry.file;
    },
  };
}
