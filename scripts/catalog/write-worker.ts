/**
 * The file-writing thread of the build (started by write.ts through worker-entry.ts).
 *
 * It runs batches of operations in order with synchronous calls: no round trip through libuv's
 * thread pool per call (each costs the main thread a wake-up, and on a small VM that was as much
 * as the file system work itself), and the UTF-8 encoding of every file happens here, off the
 * thread that renders. A file sent with `twins` also gets its precompressed twins here, with
 * precompress.ts's policy. One message back per batch: the bytes written, or the first error.
 *
 * A streamed file opened with `twins` (the bundle, llms-full.txt) is compressed here as its
 * pieces arrive, each piece's bytes used once for the file and both compressors. Node has no
 * synchronous streaming compressor, so those pieces go to zlib's streams, which run in libuv's
 * pool while this thread goes on with the next batch; a batch that leaves more than QUEUED_BYTES
 * queued in them is answered only once they have caught up, so what they hold stays bounded.
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type zlib from 'node:zlib';
import { ENCODINGS, LARGE_FILE_BYTES, compressSync, largeFileCompressor } from './precompress.ts';
import type { WriteBatch, WriteOp, WriteReply } from './write-ops.ts';
import { ReusingStream, writeOrLink } from './write-reuse.ts';

/** Input a stream's compressor may have queued before the batch that feeds it waits. */
const QUEUED_BYTES = 1 << 20;

/**
 * A string is written as it is: node encodes it into a scratch buffer freed right after the
 * call, where a Buffer would wait for this thread's garbage collector (hundreds of MB on a large
 * site). Only a short write (rare on a regular file) falls back to a Buffer for the rest.
 */
function writeAll(fd: number, data: string | Uint8Array): number {
  if (typeof data !== 'string') {
    for (let at = 0; at < data.length; ) at += fs.writeSync(fd, data, at, data.length - at);
    return data.length;
  }
  const size = Buffer.byteLength(data, 'utf8');
  const first = fs.writeSync(fd, data, null, 'utf8');
  if (first < size) {
    const bytes = Buffer.from(data, 'utf8');
    for (let at = first; at < size; ) at += fs.writeSync(fd, bytes, at, size - at);
  }
  return size;
}

function writeFile(file: string, data: string | Uint8Array): number {
  const fd = fs.openSync(file, 'w');
  try {
    return writeAll(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/** The twins of a file, in ENCODINGS order. */
function twinsOf(data: Uint8Array): Buffer[] {
  return ENCODINGS.map((e) => compressSync(data, e));
}

function writeTwins(file: string, twins: readonly Buffer[]): number {
  return ENCODINGS.reduce((bytes, e, i) => bytes + writeFile(`${file}${e.suffix}`, twins[i] as Buffer), 0);
}

interface Compressor {
  z: zlib.BrotliCompress | zlib.Gzip;
  out: Buffer[];
  ended: Promise<unknown>;
}

/**
 * The twins of a streamed file, as precompress.ts's precompressing() makes them: the band
 * depends on the whole file's size, unknown until it ends, so the first LARGE_FILE_BYTES are held
 * back. A file that ends within them is compressed whole; one that grows past them is compressed
 * as it streams with the large band, which gives the bytes compressing it whole would.
 */
class StreamTwins {
  held: Buffer[] = [];
  heldBytes = 0;
  compressors: Compressor[] | null = null;
  error: Error | null = null;
  failed: Promise<never> = new Promise<never>(() => {});

  /**
   * Feed some bytes. Returns null, or a promise when the compressors have more queued than
   * QUEUED_BYTES: the batch's reply then waits until they have caught up.
   */
  push(bytes: Buffer): Promise<unknown> | null {
    if (!this.compressors) {
      this.held.push(bytes);
      this.heldBytes += bytes.length;
      if (this.heldBytes < LARGE_FILE_BYTES) return null;
      const compressors = ENCODINGS.map((e): Compressor => {
        const z = largeFileCompressor(e);
        const out: Buffer[] = [];
        z.on('data', (chunk: Buffer) => out.push(chunk));
        return { z, out, ended: new Promise((resolve) => z.once('end', resolve)) };
      });
      this.compressors = compressors;
      // Rejects when a compressor fails (its 'end' and 'drain' then never come).
      this.failed = new Promise<never>((_, reject) => {
        for (const { z } of compressors) z.once('error', (error: Error) => reject((this.error ??= error)));
      });
      this.failed.catch(() => {});
      bytes = Buffer.concat(this.held);
      this.held = [];
    }
    for (const { z } of this.compressors) z.write(bytes);
    const behind = this.compressors.filter(({ z }) => z.writableLength > QUEUED_BYTES);
    if (behind.length === 0) return null;
    return Promise.race([Promise.all(behind.map(({ z }) => new Promise((resolve) => z.once('drain', resolve)))), this.failed]);
  }

  async finish(): Promise<Buffer[]> {
    if (!this.compressors) return twinsOf(Buffer.concat(this.held));
    for (const { z } of this.compressors) z.end();
    await Promise.race([Promise.all(this.compressors.map((c) => c.ended)), this.failed]);
    return this.compressors.map(({ out }) => Buffer.concat(out));
  }

  check(): void {
    if (this.error) throw this.error;
  }

  destroy(): void {
    for (const { z } of this.compressors ?? []) z.destroy();
  }
}

const fds = new Map<string, number>();
const streamTwins = new Map<string, StreamTwins>();
/** Streams with a previous version to compare with (write-reuse.ts). */
const reusing = new Map<string, ReusingStream>();

function fdOf(file: string): number {
  const fd = fds.get(file);
  if (fd === undefined) throw new Error(`${file} is not open`);
  return fd;
}

async function run(ops: readonly WriteOp[]): Promise<number> {
  let bytes = 0;
  /** Compressors fed by this batch: the reply waits until they have consumed it. */
  let fed: Promise<unknown>[] = [];
  for (const op of ops) {
    switch (op.op) {
      case 'dir':
        fs.mkdirSync(op.path);
        break;
      case 'file': {
        if (op.twins) {
          const data = typeof op.data === 'string' ? Buffer.from(op.data, 'utf8') : op.data;
          bytes += writeFile(op.path, data) + writeTwins(op.path, twinsOf(data));
          break;
        }
        bytes += op.previous === undefined ? writeFile(op.path, op.data) : writeOrLink(op.path, op.data, op.previous);
        break;
      }
      case 'open':
        if (op.previous !== undefined && !op.twins) {
          reusing.set(op.path, new ReusingStream(op.path, op.previous));
          break;
        }
        fds.set(op.path, fs.openSync(op.path, 'w'));
        if (op.twins) streamTwins.set(op.path, new StreamTwins());
        break;
      case 'append': {
        const reused = reusing.get(op.path);
        if (reused) {
          bytes += reused.append(op.data);
          break;
        }
        const compressing = streamTwins.get(op.path);
        if (!compressing) {
          bytes += writeAll(fdOf(op.path), op.data);
          break;
        }
        const data = typeof op.data === 'string' ? Buffer.from(op.data, 'utf8') : Buffer.from(op.data.buffer, op.data.byteOffset, op.data.byteLength);
        bytes += writeAll(fdOf(op.path), data);
        const consumed = compressing.push(data);
        if (consumed) fed.push(consumed);
        break;
      }
      case 'close': {
        const reused = reusing.get(op.path);
        if (reused) {
          reusing.delete(op.path);
          reused.close();
          break;
        }
        fs.closeSync(fdOf(op.path));
        fds.delete(op.path);
        const compressing = streamTwins.get(op.path);
        if (compressing) {
          // A stream that is ending never emits 'drain': catch up first.
          await Promise.all(fed);
          fed = [];
          bytes += writeTwins(op.path, await compressing.finish());
          streamTwins.delete(op.path);
        }
        break;
      }
    }
  }
  if (fed.length > 0) await Promise.all(fed);
  for (const compressing of streamTwins.values()) compressing.check();
  return bytes;
}

function reply(message: WriteReply): void {
  parentPort?.postMessage(message);
}

if (!parentPort) throw new Error('write-worker.ts runs as a worker thread of write.ts');
// Batches run one after another, in the order they came.
let queue = Promise.resolve();
parentPort.on('message', ({ id, ops }: WriteBatch) => {
  queue = queue.then(async () => {
    try {
      reply({ id, bytes: await run(ops) });
    } catch (error) {
      for (const fd of fds.values()) {
        try {
          fs.closeSync(fd);
        } catch {
          // Already closed or never opened: nothing left to release.
        }
      }
      fds.clear();
      for (const stream of reusing.values()) {
        try {
          stream.abort();
        } catch {
          // Already closed: nothing left to release.
        }
      }
      reusing.clear();
      for (const compressing of streamTwins.values()) compressing.destroy();
      streamTwins.clear();
      const { message, code } = error as NodeJS.ErrnoException;
      reply({ id, bytes: 0, error: { message, ...(code === undefined ? {} : { code }) } });
    }
  });
});
