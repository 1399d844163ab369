/**
 * Precompressed twins: beside every JSON, Markdown and text file the build writes `name.br` and
 * `name.gz`, which static servers (nginx `gzip_static`/`brotli_static`, Caddy `precompressed`,
 * `npm run serve`) send to clients that accept them instead of compressing on every request.
 *
 * One module owns the choice of files, the encodings and their settings, so the full build (which
 * wraps its write sink with `precompressing`) and a rebuild of single files (`writeTwinsBeside`)
 * produce the same bytes. Fixed settings and no timestamps in the gzip header keep rebuilds
 * byte-identical. Compression runs in libuv's thread pool (zlib's async API), not on the thread
 * that renders.
 */
import { once } from 'node:events';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FileStream, WriteSink } from './write.ts';

/** Extensions that get twins: text that compresses well. `_headers` is host configuration. */
const COMPRESSIBLE = /\.(json|md|txt|xml)$/;

export interface Encoding {
  /** The `Content-Encoding` / `Accept-Encoding` token. */
  token: 'br' | 'gzip';
  suffix: '.br' | '.gz';
}

/** In order of preference when a client accepts both equally: brotli is smaller. */
export const ENCODINGS: readonly Encoding[] = [
  { token: 'br', suffix: '.br' },
  { token: 'gzip', suffix: '.gz' },
];

/**
 * Compressing is most of what a large build spends (every file twice, the bundle and
 * llms-full.txt included), so the levels are where more effort stops paying. Measured on the
 * 1,000-document synthetic catalog (55 MB of text): brotli quality 5 takes 28% less time than 6
 * for 1.7% more bytes (11 saves another 10% but takes 40 times longer); gzip level 6 (zlib's
 * default) takes 27% less than 9 for 0.3% more.
 */
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
};
/** Node writes mtime 0 into the gzip header, so the bytes depend on the content alone. */
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 6 };

/** Streamed text is handed to the compressors in batches of about this many characters. */
const COMPRESS_BATCH_CHARS = 64 << 10;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export function isCompressible(rel: string): boolean {
  return COMPRESSIBLE.test(rel);
}

/** A twin's path (`api/v1/bundle.json.br`) → its encoding, or null for any other path. */
export function twinEncoding(rel: string): Encoding | null {
  for (const e of ENCODINGS) if (rel.endsWith(e.suffix) && isCompressible(rel.slice(0, -e.suffix.length))) return e;
  return null;
}

/** The paths of the twins of the files that get them, each right after its file. */
export function withTwinPaths(files: readonly string[]): string[] {
  return files.flatMap((rel) => (isCompressible(rel) ? [rel, ...ENCODINGS.map((e) => `${rel}${e.suffix}`)] : [rel]));
}

export function compress(bytes: Uint8Array, e: Encoding): Promise<Buffer> {
  return e.token === 'br' ? brotli(bytes, { ...BROTLI_OPTIONS, params: { ...BROTLI_OPTIONS.params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }) : gzip(bytes, GZIP_OPTIONS);
}

/**
 * The same settings as plain data, for the build's writer threads (write-worker.ts), which
 * compress whole files with zlib's synchronous calls and must give the bytes compress() gives.
 * Each suffix with its encoder's options; brotli also gets the input's size as a hint there.
 */
export const TWIN_SETTINGS = {
  br: { suffix: '.br', params: { ...BROTLI_OPTIONS.params } as Record<number, number> },
  gzip: { suffix: '.gz', options: { ...GZIP_OPTIONS } },
} as const;

/** Both twins of some bytes, by suffix. */
export async function twinsOf(bytes: Uint8Array): Promise<Map<Encoding['suffix'], Buffer>> {
  const out = await Promise.all(ENCODINGS.map(async (e) => [e.suffix, await compress(bytes, e)] as const));
  return new Map(out);
}

/** A write sink that also writes the twins of every compressible file; `flush` waits for them. */
export interface PrecompressingSink extends WriteSink {
  flush(): Promise<void>;
}

/**
 * Wraps a sink so that every compressible file it receives gets its twins. The wrapped sink must
 * have been told about the twins' paths (`withTwinPaths`). A streamed file is compressed as it
 * streams, so it is never held whole in memory (only its compressed form is).
 */
export function precompressing(sink: WriteSink): PrecompressingSink {
  const pending: Promise<void>[] = [];
  const track = (p: Promise<void>): void => {
    // Kept for flush; a failure is reported there, not as an unhandled rejection now.
    p.catch(() => {});
    pending.push(p);
  };
  return {
    async file(rel, data) {
      // A writer that compresses on its own threads (write.ts) does it with fewer round trips.
      if (sink.fileWithTwins && isCompressible(rel)) return sink.fileWithTwins(rel, data);
      await sink.file(rel, data);
      if (!isCompressible(rel)) return;
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      for (const e of ENCODINGS) track(compress(bytes, e).then((z) => sink.file(`${rel}${e.suffix}`, z)));
    },
    stream(rel) {
      const inner = sink.stream(rel);
      if (!isCompressible(rel)) return inner;
      const compressors = ENCODINGS.map((e) => {
        const z = e.token === 'br' ? zlib.createBrotliCompress(BROTLI_OPTIONS) : zlib.createGzip(GZIP_OPTIONS);
        const chunks: Buffer[] = [];
        z.on('data', (chunk: Buffer) => chunks.push(chunk));
        const done = once(z, 'end').then(() => sink.file(`${rel}${e.suffix}`, Buffer.concat(chunks)));
        return { z, done };
      });
      // Pieces reach the compressors in batches: each write to a zlib stream is a round trip
      // through the thread pool, and for list items of a few hundred bytes that round trip cost
      // as much as compressing them (twice the CPU with 1 KB pieces as with 64 KB batches). The
      // compressed bytes do not depend on how the input is cut.
      let batch: string[] = [];
      let size = 0;
      const feed = async (): Promise<void> => {
        if (size === 0) return;
        const bytes = Buffer.from(batch.join(''), 'utf8');
        batch = [];
        size = 0;
        // Backpressure: wait for a compressor that has more input queued than it wants.
        await Promise.all(compressors.map(({ z }) => (z.write(bytes) ? undefined : once(z, 'drain'))));
      };
      const twins: FileStream = {
        async write(piece) {
          await inner.write(piece);
          batch.push(piece);
          size += piece.length;
          if (size >= COMPRESS_BATCH_CHARS) await feed();
        },
        async end() {
          await inner.end();
          await feed();
          for (const { z, done } of compressors) {
            z.end();
            track(done);
          }
        },
      };
      return twins;
    },
    async flush() {
      while (pending.length > 0) await Promise.all(pending.splice(0));
    },
  };
}

/**
 * Rewrite the twins of one file already on disk (for a rebuild that rewrites single files), each
 * through a temporary file and a rename so a server never reads a half-written twin.
 */
export async function writeTwinsBeside(file: string): Promise<void> {
  const bytes = await readFile(file);
  await Promise.all(
    ENCODINGS.map(async (e) => {
      const target = `${file}${e.suffix}`;
      const temp = `${target}.tmp-${process.pid}`;
      try {
        await writeFile(temp, await compress(bytes, e));
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    }),
  );
}
