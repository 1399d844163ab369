/**
 * The built files, held in memory for the server, each with its response headers worked out
 * once. A request costs one `stat` of its file: when the file's identity (inode, size, times)
 * changed, because a rebuild swapped dist/ or rewrote the file, the entry is read again. Nothing
 * else is cached across a change.
 *
 * Compressed answers come from the precompressed twins when the build wrote them
 * (`--precompress`), and otherwise are made here, the first time a coding is asked for, with the
 * build's own settings (precompress.ts), and kept with the file until it changes: the same bytes
 * and ETags either way. A twin is served only once it is verified to decode to exactly the bytes
 * of its file, so a twin left stale by an interrupted rewrite is never sent (the file is
 * compressed here instead, and the twin looked at again a second later).
 *
 * Containment is checked on the real path, after symbolic links are resolved: a link inside
 * dist/ that leads outside it is not served, one that stays inside is served like the file it
 * names (with the same rules: never `_headers`, never a dot-file).
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { JSON_TYPE, TEXT_TYPES } from '../headers.ts';
import { ENCODINGS, compressSync, isCompressible, twinEncoding, type Encoding } from '../precompress.ts';

export type Coding = Encoding['token'];

export interface Representation {
  body: Buffer;
  etag: string;
  /** Every header of a 200 answer with this representation. */
  headers: Readonly<Record<string, string | number>>;
}

export interface StoredFile {
  identity: Representation;
  /** The file in one of its `codings`: its twin, or compressed the first time it is asked for. */
  encoded(coding: Coding): Representation;
  /** The codings it can be sent in, in order of preference, for negotiation. */
  codings: readonly Coding[];
}

interface Entry {
  key: string;
  file: StoredFile;
  /** Some twins exist but one was missing or stale when read: look again, at most once a second. */
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

  /** The twins on disk that decode to `body`; `complete` is false when some exist but not all are good. */
  function readTwins(pathname: string, file: string, body: Buffer): { encoded: Map<Coding, Representation>; complete: boolean } {
    const encoded = new Map<Coding, Representation>();
    let seen = 0;
    for (const e of ENCODINGS) {
      try {
        const twinPath = contained(`${file}${e.suffix}`);
        if (!twinPath) continue;
        seen++;
        const bytes = readFileSync(twinPath);
        if (!DECODE[e.token](bytes).equals(body)) continue;
        encoded.set(e.token, representation(pathname, bytes, e.token, true));
      } catch {
        // Unreadable or not compressed data: as if stale.
      }
    }
    return { encoded, complete: seen === 0 || encoded.size === ENCODINGS.length };
  }

  function load(pathname: string, file: string, key: string): Entry | null {
    const real = realInside(file);
    if (!real) return null;
    const body = readFileSync(real);
    const compressible = isCompressible(pathname);
    const twins = compressible ? readTwins(pathname, real, body) : { encoded: new Map<Coding, Representation>(), complete: true };
    const { encoded } = twins;
    const entry: Entry = {
      key,
      file: {
        identity: representation(pathname, body, null, compressible),
        codings: compressible ? ENCODINGS.map((e) => e.token) : [],
        encoded(coding) {
          let rep = encoded.get(coding);
          if (!rep) {
            const e = ENCODINGS.find((x) => x.token === coding) as Encoding;
            rep = representation(pathname, compressSync(body, e), coding, true);
            encoded.set(coding, rep);
            entry.bytes += rep.body.length;
            cached += rep.body.length;
          }
          return rep;
        },
      },
      retryTwinsAt: twins.complete ? null : Date.now() + TWIN_RETRY_MS,
      bytes: body.length + [...encoded.values()].reduce((n, r) => n + r.body.length, 0),
    };
    return entry;
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
