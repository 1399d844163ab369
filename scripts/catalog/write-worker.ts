/**
 * The file-writing thread of the build, as source text for `new Worker(…, { eval: true })`: plain
 * JavaScript, so it runs the same under tsx, vitest or plain node without a TypeScript loader.
 *
 * It runs batches of operations in order with synchronous calls: no round trip through libuv's
 * thread pool per call (each costs the main thread a wake-up, and on a small VM that was as much
 * as the file system work itself), and the UTF-8 encoding of every file happens here, off the
 * thread that renders. A file sent with `twins` also gets its precompressed twins here, made with
 * the policy precompress.ts passes in (workerData). One message back per batch: the bytes
 * written, or the first error.
 *
 * A streamed file opened with `twins` (the bundle, llms-full.txt) is compressed here as its
 * pieces arrive, each piece encoded to UTF-8 once for the file and both compressors (on the
 * thread that renders it was encoded twice, and every batch cost that thread a round trip through
 * the compressors). Node has no synchronous streaming compressor, so those pieces go to zlib's
 * streams, which run in libuv's pool while this thread goes on with the next batch; a batch
 * that leaves more than a MB queued in them is answered only once they have caught up, so
 * what they hold stays bounded.
 */
export const WRITE_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const zlib = require('node:zlib');
const fds = new Map();
const twins = workerData && workerData.twins;

// A string is written as it is: node encodes it into a scratch buffer freed right after the
// call, where a Buffer would wait for this thread's garbage collector (hundreds of MB on a
// large site). Only a short write (rare on a regular file) falls back to a Buffer for the rest.
function writeAll(fd, data) {
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

function writeFile(file, data) {
  const fd = fs.openSync(file, 'w');
  try { return writeAll(fd, data); } finally { fs.closeSync(fd); }
}

// precompress.ts's compress(), synchronously: same policy, so the same bytes.
function twinsOf(data) {
  const band = data.length >= twins.largeFileBytes ? twins.large : twins.small;
  const params = band.sizeHint ? { ...band.brotli, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } : band.brotli;
  return [zlib.brotliCompressSync(data, { params }), zlib.gzipSync(data, band.gzip)];
}

function writeTwins(file, [br, gz]) {
  return writeFile(file + twins.br.suffix, br) + writeFile(file + twins.gzip.suffix, gz);
}

/**
 * The twins of a streamed file, as precompress.ts's precompressing() makes them: the band
 * depends on the whole file's size, unknown until it ends, so the first largeFileBytes are held
 * back. A file that ends within them is compressed whole; one that grows past them is
 * compressed as it streams with the large band (no size hint), which gives the bytes
 * compressing it whole would.
 */
class StreamTwins {
  constructor() {
    this.held = [];
    this.heldBytes = 0;
    this.compressors = null;
    this.error = null;
  }
  /**
   * Feed some bytes. Returns null, or a promise when the compressors have more queued than
   * QUEUED_BYTES: the batch's reply then waits until they have caught up.
   */
  push(bytes) {
    if (!this.compressors) {
      this.held.push(bytes);
      this.heldBytes += bytes.length;
      if (this.heldBytes < twins.largeFileBytes) return null;
      this.compressors = [zlib.createBrotliCompress({ params: twins.large.brotli, chunkSize: COMPRESSED_CHUNK_BYTES }), zlib.createGzip({ ...twins.large.gzip, chunkSize: COMPRESSED_CHUNK_BYTES })].map((z) => {
        const out = [];
        z.on('data', (chunk) => out.push(chunk));
        return { z, out, ended: new Promise((resolve) => z.once('end', resolve)) };
      });
      // Rejects when a compressor fails (its 'end' and 'drain' then never come).
      this.failed = new Promise((_, reject) => {
        for (const { z } of this.compressors) z.once('error', (error) => reject((this.error ??= error)));
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
  async finish() {
    if (!this.compressors) return twinsOf(Buffer.concat(this.held));
    for (const { z } of this.compressors) z.end();
    await Promise.race([Promise.all(this.compressors.map((c) => c.ended)), this.failed]);
    return this.compressors.map(({ out }) => Buffer.concat(out));
  }
  check() {
    if (this.error) throw this.error;
  }
  destroy() {
    for (const { z } of this.compressors ?? []) z.destroy();
  }
}
const streamTwins = new Map();
/** Input a stream's compressor may have queued before the batch that feeds it waits. */
const QUEUED_BYTES = 1 << 20;
/** Output buffer of a stream compressor: one callback per buffer filled. */
const COMPRESSED_CHUNK_BYTES = 256 << 10;

async function run(ops) {
  let bytes = 0;
  /** Compressors fed by this batch: the reply waits until they have consumed it. */
  let fed = [];
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
        bytes += writeFile(op.path, op.data);
        break;
      }
      case 'open':
        fds.set(op.path, fs.openSync(op.path, 'w'));
        if (op.twins) streamTwins.set(op.path, new StreamTwins());
        break;
      case 'append': {
        const compressing = streamTwins.get(op.path);
        if (!compressing) {
          bytes += writeAll(fds.get(op.path), op.data);
          break;
        }
        const data = Buffer.from(op.data, 'utf8');
        bytes += writeAll(fds.get(op.path), data);
        const consumed = compressing.push(data);
        if (consumed) fed.push(consumed);
        break;
      }
      case 'close': {
        fs.closeSync(fds.get(op.path));
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

// Batches run one after another, in the order they came.
let queue = Promise.resolve();
parentPort.on('message', ({ id, ops }) => {
  queue = queue.then(async () => {
    try {
      parentPort.postMessage({ id, bytes: await run(ops) });
    } catch (error) {
      for (const fd of fds.values()) try { fs.closeSync(fd); } catch {}
      fds.clear();
      for (const compressing of streamTwins.values()) compressing.destroy();
      streamTwins.clear();
      parentPort.postMessage({ id, bytes: 0, error: { message: error.message, code: error.code } });
    }
  });
});
`;
