/**
 * Precompressed twins: with `--precompress`, beside every JSON, Markdown and text file the build
 * writes `name.br` and `name.gz`, which static servers (nginx `gzip_static`/`brotli_static`, Caddy
 * `precompressed`, `npm run serve`) send to clients that accept them instead of compressing on
 * every request. `npm run serve` makes the same bytes itself when they are missing.
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
 * Compressing is most of what a large build spends (every file twice), so each twin's settings
 * follow one deterministic policy that depends on the file's size alone (never on how it
 * arrived, whole or streamed): same bytes in, same twins out.
 *
 * - Below LARGE_FILE_BYTES (a detail file, a Markdown twin, a short list: what a browser or an
 *   agent fetches one by one, and most requests): brotli quality 5, gzip level 5, a little
 *   faster than the next level for barely larger files. Brotli 4 was left because its twins came
 *   out larger than the gzip ones, so the encoding servers prefer would have been the worse one.
 * - From LARGE_FILE_BYTES up (the bundle, llms-full.txt, the search index, the long lists: tens
 *   to hundreds of MB on a large site, fetched rarely and whole): brotli quality 2 and gzip
 *   level 1, the "fast" end CDNs use when they compress on the fly (nginx's default
 *   gzip_comp_level is 1); clients that accept brotli (every current browser) get the smaller
 *   of the two. The measurements behind both bands are in docs/performance-catalog.md.
 *
 * Large files get no size hint: a stream's size is not known when its compressor starts, and
 * without the hint the bytes are the same whether the file is compressed whole or streamed.
 */
export const LARGE_FILE_BYTES = 1 << 20;

/** One band of the policy. */
export interface TwinBand {
  brotli: Record<number, number>;
  /** Give brotli the input's size (small files: a smaller window for a small input). */
  sizeHint: boolean;
  gzip: zlib.ZlibOptions;
}

const TEXT_MODE = { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT };
/** Node writes mtime 0 into the gzip header, so the bytes depend on the content alone. */
const SMALL_BAND: TwinBand = { brotli: { ...TEXT_MODE, [zlib.constants.BROTLI_PARAM_QUALITY]: 5 }, sizeHint: true, gzip: { level: 5 } };
const LARGE_BAND: TwinBand = { brotli: { ...TEXT_MODE, [zlib.constants.BROTLI_PARAM_QUALITY]: 2 }, sizeHint: false, gzip: { level: 1 } };

const bandOf = (size: number): TwinBand => (size >= LARGE_FILE_BYTES ? LARGE_BAND : SMALL_BAND);

function brotliOptions(band: TwinBand, size: number): zlib.BrotliOptions {
  return { params: band.sizeHint ? { ...band.brotli, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } : band.brotli };
}

/** Streamed text is handed to the compressors in batches of about this many characters. */
const COMPRESS_BATCH_CHARS = 512 << 10;
/** Output buffer of a stream compressor: one callback on this thread per buffer filled. */
const COMPRESSED_CHUNK_BYTES = 256 << 10;

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
  const band = bandOf(bytes.length);
  return e.token === 'br' ? brotli(bytes, brotliOptions(band, bytes.length)) : gzip(bytes, band.gzip);
}

/**
 * compress() with zlib's synchronous calls, the same bytes: for the writer threads
 * (write-worker.ts), where a thread-pool round trip per small file costs more than the work, and
 * for the server's on-the-fly compression of a file that has no twin (http/file-store.ts).
 */
export function compressSync(bytes: Uint8Array, e: Encoding): Buffer {
  const band = bandOf(bytes.length);
  return e.token === 'br' ? zlib.brotliCompressSync(bytes, brotliOptions(band, bytes.length)) : zlib.gzipSync(bytes, band.gzip);
}

/**
 * A stream compressor with the large band, for a file that grows past LARGE_FILE_BYTES while it
 * streams: it gives the bytes compress() gives the whole file (no size hint in that band).
 */
export function largeFileCompressor(e: Encoding): zlib.BrotliCompress | zlib.Gzip {
  return e.token === 'br'
    ? zlib.createBrotliCompress({ ...brotliOptions(LARGE_BAND, 0), chunkSize: COMPRESSED_CHUNK_BYTES })
    : zlib.createGzip({ ...LARGE_BAND.gzip, chunkSize: COMPRESSED_CHUNK_BYTES });
}

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
      if (sink.streamWithTwins && isCompressible(rel)) return sink.streamWithTwins(rel);
      const inner = sink.stream(rel);
      if (!isCompressible(rel)) return inner;
      // The band depends on the whole file's size, unknown until it ends: the first
      // LARGE_FILE_BYTES are held back. A file that ends within them is compressed whole, as
      // file() would; one that grows past them is compressed as it streams, with the large band.
      let held: Buffer[] = [];
      let heldBytes = 0;
      let compressors: { z: zlib.BrotliCompress | zlib.Gzip; done: Promise<void> }[] | null = null;
      const start = (): NonNullable<typeof compressors> =>
        ENCODINGS.map((e) => {
          const z = largeFileCompressor(e);
          const chunks: Buffer[] = [];
          z.on('data', (chunk: Buffer) => chunks.push(chunk));
          const done = once(z, 'end').then(() => sink.file(`${rel}${e.suffix}`, Buffer.concat(chunks)));
          return { z, done };
        });
      // Pieces reach the compressors in batches: each write to a zlib stream is a round trip
      // through the thread pool, and for list items of a few hundred bytes that round trip cost
      // as much as compressing them. The compressed bytes do not depend on how the input is cut.
      let batch: string[] = [];
      let size = 0;
      const feed = async (): Promise<void> => {
        if (size === 0) return;
        const bytes = Buffer.from(batch.join(''), 'utf8');
        batch = [];
        size = 0;
        if (!compressors) {
          held.push(bytes);
          heldBytes += bytes.length;
          if (heldBytes < LARGE_FILE_BYTES) return;
          compressors = start();
        }
        const input = held.length > 0 ? Buffer.concat([...held]) : bytes;
        held = [];
        // Backpressure: wait for a compressor that has more input queued than it wants.
        await Promise.all(compressors.map(({ z }) => (z.write(input) ? undefined : once(z, 'drain'))));
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
          if (!compressors) {
            const bytes = Buffer.concat(held);
            held = [];
            for (const e of ENCODINGS) track(compress(bytes, e).then((z) => sink.file(`${rel}${e.suffix}`, z)));
            return;
          }
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
