/**
 * Runs a CommonJS bundle through V8's code cache: the compiled code of the bundle, functions
 * compiled while a previous start ran included, kept in a file beside it. Node 20 keeps none of
 * its own for a user's modules (module.enableCompileCache came in Node 22), and compiling the
 * simulator's 2 MB bundle was the largest share of its start.
 *
 * The cache is the bundle's own: its first 32 bytes are a SHA-256 of Node's version, the
 * architecture, the bundle's bytes and the cached code, so a bundle compiled anew (or another
 * Node) never runs code compiled from an older one, and damaged code is never run (V8 checks
 * its data's version, flags and the source's length, and in a release build no checksum; it
 * refuses what fails: cachedDataRejected). Then 4 bytes say how long the run that wrote it had been going, up to
 * WARM_MS: a run that lasted twice as long (one that served requests, after a `--help`) writes
 * it again, so the cache comes to hold the code of a whole start-up. It is written once per run
 * at most, WARM_MS after the start or at exit if that comes first, beside the bundle (a file per
 * set of Node options) and renamed into place; a folder that cannot be written (read-only, full)
 * leaves the command to run uncached, without a word.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** A run this old has compiled its start-up: it writes the cache, and later ones leave it be. */
export const WARM_MS = 1000;
const KEY_BYTES = 32;
const HEADER_BYTES = KEY_BYTES + 4;
/** Node's own CommonJS wrapper, on a line of its own so that the bundle's line numbers stay. */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) {\n';

/**
 * One cache per set of Node options: V8 refuses code compiled under other flags, and
 * `npm run simulator` (with its options) after `node scripts/run.mjs simulator` (without) would
 * otherwise each throw away the other's cache.
 * @param {string} bundle @param {string} [options] the options, as nodeOptions() gives them
 */
export function codeCachePath(bundle, options = nodeOptions()) {
  return `${bundle}.${createHash('sha256').update(options).digest('hex').slice(0, 8)}.v8-cache`;
}

/** The options this process was started with, on its command line and in NODE_OPTIONS. */
export function nodeOptions() {
  return `${process.execArgv.join(' ')}\n${process.env.NODE_OPTIONS ?? ''}`;
}

/**
 * Of the bundle's bytes (its string would be encoded to UTF-8 again first: 2 MB, about 2.5 ms
 * more) and of the code cached for it.
 * @param {Buffer} bundle @param {Uint8Array} code
 */
export function codeCacheKey(bundle, code) {
  return createHash('sha256').update(`${process.version} ${process.arch}\n`).update(bundle).update(code).digest();
}

/** Written beside, then renamed; any failure leaves no file behind and stops nothing. */
function writeQuietly(/** @type {string} */ file, /** @type {Uint8Array[]} */ parts) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat(parts));
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // A folder that cannot be written has no temporary file in it either.
    }
  }
}

/**
 * Run `bundle` (a CommonJS file) as Node would, its code taken from the cache when the cache is
 * the bundle's. Returns whether V8 took the cached code.
 * @param {string} bundle @param {{ warmMs?: number }} [options]
 */
export function runWithCodeCache(bundle, { warmMs = WARM_MS } = {}) {
  const bytes = readFileSync(bundle);
  const source = bytes.toString('utf8');
  const file = codeCachePath(bundle);
  /** @type {Buffer | undefined} */
  let cachedData;
  /** How long the run that wrote the cache had run, ms; -1: there is no usable cache. */
  let warmth = -1;
  try {
    const data = readFileSync(file);
    const code = data.subarray(HEADER_BYTES);
    if (code.length > 0 && codeCacheKey(bytes, code).equals(data.subarray(0, KEY_BYTES))) {
      warmth = data.readUInt32LE(KEY_BYTES);
      cachedData = code;
    }
  } catch {
    // No cache yet, or one that cannot be read: compile.
  }
  const script = new vm.Script(`${WRAPPER}${source}\n})`, {
    filename: bundle,
    lineOffset: -1,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  if (!used) warmth = -1;
  if (warmth < warmMs) {
    let done = false;
    const write = () => {
      if (done) return;
      done = true;
      const ran = Math.min(warmMs, Math.round(process.uptime() * 1000));
      if (warmth >= 0 && ran < 2 * warmth) return;
      const header = Buffer.alloc(4);
      header.writeUInt32LE(ran);
      const code = script.createCachedData();
      writeQuietly(file, [codeCacheKey(bytes, code), header, code]);
    };
    setTimeout(write, Math.max(0, warmMs - process.uptime() * 1000)).unref();
    process.once('exit', write);
  }
  const module = { exports: {}, filename: bundle, id: '.', loaded: false };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  module.loaded = true;
  return used;
}
