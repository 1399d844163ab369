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

parentPort.on('message', ({ id, ops }) => {
  let bytes = 0;
  try {
    for (const op of ops) {
      switch (op.op) {
        case 'dir':
          fs.mkdirSync(op.path);
          break;
        case 'file': {
          if (op.twins) {
            // precompress.ts's compress(), synchronously: same policy, so the same bytes.
            const data = typeof op.data === 'string' ? Buffer.from(op.data, 'utf8') : op.data;
            const band = data.length >= twins.largeFileBytes ? twins.large : twins.small;
            const params = band.sizeHint ? { ...band.brotli, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } : band.brotli;
            const br = zlib.brotliCompressSync(data, { params });
            const gz = zlib.gzipSync(data, band.gzip);
            bytes += writeFile(op.path, data) + writeFile(op.path + twins.br.suffix, br) + writeFile(op.path + twins.gzip.suffix, gz);
            break;
          }
          bytes += writeFile(op.path, op.data);
          break;
        }
        case 'open':
          fds.set(op.path, fs.openSync(op.path, 'w'));
          break;
        case 'append':
          bytes += writeAll(fds.get(op.path), op.data);
          break;
        case 'close':
          fs.closeSync(fds.get(op.path));
          fds.delete(op.path);
          break;
      }
    }
    parentPort.postMessage({ id, bytes });
  } catch (error) {
    for (const fd of fds.values()) try { fs.closeSync(fd); } catch {}
    fds.clear();
    parentPort.postMessage({ id, bytes, error: { message: error.message, code: error.code } });
  }
});
`;
