/**
 * Stage 7 (I/O): write every output into a fresh folder beside outDir, then swap it in with
 * renames. A build that fails before the swap leaves the previous dist/ exactly as it was, and
 * readers never see a half-written tree.
 *
 * Files arrive through a sink as they are rendered (a whole file, or a stream of pieces), so
 * rendering, folder creation and writing overlap and no more than a bounded amount of rendered
 * text is held at once, whatever the size of the site.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir as mkdirp, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { mkdir, writeFile } from './io.ts';

/**
 * Whole files in flight. libuv runs file I/O on a small thread pool, so a few dozen requests
 * keep it busy; more only holds more rendered text in memory.
 */
const WRITE_CONCURRENCY = 32;

/**
 * Folders being created at once in the background. libuv's queue is first in, first out: queuing
 * thousands of mkdir calls at once would hold every file write behind them.
 */
const MKDIR_CONCURRENCY = 6;

/** Streamed files are written in pieces of about this size. */
const CHUNK_BYTES = 1 << 20;

export interface WriteStats {
  files: number;
  bytes: number;
}

/** A file written piece by piece, in order. At most one chunk per stream is in flight. */
export interface FileStream {
  write(piece: string): Promise<void>;
  end(): Promise<void>;
}

/** Where rendered files go. Every path announced to prepareWrite must be written exactly once. */
export interface WriteSink {
  /** A whole file; resolves once the write is under way (waits while too many are in flight). */
  file(rel: string, data: string): Promise<void>;
  stream(rel: string): FileStream;
}

export interface PendingWrite {
  /** Let `produce` write every file through the sink, then swap the folder into place. */
  commit(produce: (sink: WriteSink) => Promise<void>): Promise<WriteStats>;
  /** Drop the fresh folder; outDir is left as it was. */
  discard(): Promise<void>;
}

/**
 * Start a write: create the fresh folder and its subfolders now, in the background, while the
 * caller finishes checking the outputs. `files` are POSIX paths relative to outDir, best listed
 * in the order they will be written (folders are created in that order).
 */
export function prepareWrite(outDir: string, files: readonly string[]): PendingWrite {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(path.resolve(outDir));
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // `.dist-*` is ignored by git, and staying in the same parent keeps the rename on one filesystem.
  const fresh = path.join(parent, `.dist-${base}-new-${tag}`);
  const old = path.join(parent, `.dist-${base}-old-${tag}`);
  const dirs = new Folders(fresh, files);
  const discard = async (): Promise<void> => {
    await dirs.settled();
    await rm(fresh, { recursive: true, force: true });
  };
  return {
    discard,
    async commit(produce) {
      try {
        const writer = new Writer(fresh, files, dirs);
        await writer.run(produce);
        await swap(outDir, fresh, old);
        return writer.stats();
      } catch (error) {
        await discard();
        throw error;
      }
    },
  };
}

/** Render, write and swap in one go: each file rendered on its own, as an iterable of pieces. */
export function writeAtomically(outDir: string, files: readonly string[], render: (rel: string) => Iterable<string>): Promise<WriteStats> {
  return prepareWrite(outDir, files).commit(async (sink) => {
    for (const rel of files) {
      const it = render(rel)[Symbol.iterator]();
      const first = it.next();
      const second = first.done ? first : it.next();
      if (second.done) {
        await sink.file(rel, first.done ? '' : first.value);
        continue;
      }
      const stream = sink.stream(rel);
      await stream.write(first.value);
      for (let next: IteratorResult<string> = second; !next.done; next = it.next()) await stream.write(next.value);
      await stream.end();
    }
  });
}

/**
 * The folders the files need. Folders that hold other folders are few (api/v1, servicios…) and
 * made at once, synchronously; the many leaf folders (one per Markdown twin) are made in the
 * background a few at a time, and a file whose folder is not there yet asks for it first.
 */
class Folders {
  readonly #root: string;
  /** Leaf folder → its creation, once started. */
  readonly #leaves = new Map<string, Promise<void> | null>();
  readonly #queue: string[] = [];
  #error: unknown;
  readonly #background: Promise<void>;

  constructor(root: string, files: readonly string[]) {
    this.#root = root;
    const parents = new Set<string>();
    const leaves: string[] = [];
    const seen = new Set<string>();
    for (const rel of files) {
      const dir = path.posix.dirname(rel);
      if (dir === '.' || seen.has(dir)) continue;
      seen.add(dir);
      leaves.push(dir);
      for (let up = path.posix.dirname(dir); up !== '.'; up = path.posix.dirname(up)) parents.add(up);
    }
    for (const dir of leaves) if (!parents.has(dir)) this.#leaves.set(dir, null);
    this.#queue = [...this.#leaves.keys()].reverse();
    try {
      mkdirSync(path.dirname(root), { recursive: true });
      mkdirSync(root);
      for (const dir of [...parents].sort()) mkdirSync(path.join(root, dir), { recursive: true });
      this.#background = Promise.all(Array.from({ length: MKDIR_CONCURRENCY }, () => this.#drain())).then(() => {});
    } catch (error) {
      this.#error = error;
      this.#background = Promise.resolve();
    }
    // Reported by the file that needs the folder; settled() never rejects.
    this.#background.catch(() => {});
  }

  /** Resolves when the folder of `rel` exists. */
  ready(rel: string): Promise<void> {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    const dir = path.posix.dirname(rel);
    return this.#leaves.has(dir) ? this.#start(dir) : Promise.resolve();
  }

  /** Every background creation has finished (successfully or not). */
  async settled(): Promise<void> {
    await this.#background.catch(() => {});
  }

  #start(dir: string): Promise<void> {
    let p = this.#leaves.get(dir);
    if (!p) {
      p = mkdir(path.join(this.#root, dir)).then(() => {});
      this.#leaves.set(dir, p);
    }
    return p;
  }

  async #drain(): Promise<void> {
    for (let dir = this.#queue.pop(); dir !== undefined; dir = this.#queue.pop()) {
      if (this.#leaves.get(dir) === null) await this.#start(dir);
    }
  }
}

/** The sink behind commit(): bounded whole-file writes, buffered streams, exact bookkeeping. */
class Writer implements WriteSink {
  readonly #root: string;
  readonly #dirs: Folders;
  readonly #expected: Set<string>;
  readonly #written = new Set<string>();
  /** Whole-file writes under way (each removes itself when done). */
  readonly #inFlight = new Set<Promise<void>>();
  /** Streams not yet ended, so a failed build still closes their handles. */
  readonly #open = new Set<() => Promise<void>>();
  #bytes = 0;
  #error: unknown;

  constructor(root: string, files: readonly string[], dirs: Folders) {
    this.#root = root;
    this.#dirs = dirs;
    this.#expected = new Set(files);
  }

  async run(produce: (sink: WriteSink) => Promise<void>): Promise<void> {
    try {
      await produce(this);
    } finally {
      await Promise.all(this.#inFlight);
      await Promise.all([...this.#open].map((close) => close()));
    }
    if (this.#error !== undefined) throw this.#error;
    const missing = [...this.#expected].filter((f) => !this.#written.has(f));
    if (missing.length > 0) throw new Error(`not written: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
  }

  stats(): WriteStats {
    return { files: this.#written.size, bytes: this.#bytes };
  }

  async file(rel: string, data: string): Promise<void> {
    this.#claim(rel);
    while (this.#inFlight.size >= WRITE_CONCURRENCY) await Promise.race(this.#inFlight);
    if (this.#error !== undefined) throw this.#error;
    const bytes = Buffer.from(data, 'utf8');
    const task: Promise<void> = this.#dirs
      .ready(rel)
      .then(() => writeFile(path.join(this.#root, rel), bytes))
      .then(() => void (this.#bytes += bytes.length), (error: unknown) => void (this.#error ??= error))
      .finally(() => this.#inFlight.delete(task));
    this.#inFlight.add(task);
  }

  stream(rel: string): FileStream {
    this.#claim(rel);
    let handle: Promise<FileHandle> | undefined;
    let pending: Promise<void> = Promise.resolve();
    let batch: string[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      const data = Buffer.from(batch.join(''), 'utf8');
      batch = [];
      size = 0;
      await pending; // one chunk in flight per stream keeps the bytes in order and memory bounded
      handle ??= this.#dirs.ready(rel).then(() => open(path.join(this.#root, rel), 'w'));
      const h = handle;
      pending = h.then((fh) => fh.writeFile(data)).then(() => void (this.#bytes += data.length));
      pending.catch(() => {}); // awaited by the next flush or by end()
    };
    const close = async (): Promise<void> => {
      this.#open.delete(close);
      await pending.catch(() => {});
      const fh = await handle?.catch(() => undefined);
      await fh?.close();
    };
    this.#open.add(close);
    return {
      write: async (piece) => {
        batch.push(piece);
        size += piece.length;
        if (size >= CHUNK_BYTES) await flush();
      },
      end: async () => {
        try {
          await flush();
          await pending;
        } finally {
          await close();
        }
      },
    };
  }

  #claim(rel: string): void {
    if (!this.#expected.has(rel)) throw new Error(`${rel} was not announced to prepareWrite`);
    if (this.#written.has(rel)) throw new Error(`${rel} written twice`);
    this.#written.add(rel);
  }
}

async function swap(outDir: string, fresh: string, old: string): Promise<void> {
  let hadPrevious = true;
  try {
    await rename(outDir, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    hadPrevious = false;
  }
  try {
    await rename(fresh, outDir);
  } catch (error) {
    if (hadPrevious) await rename(old, outDir);
    throw error;
  }
  if (hadPrevious) await rm(old, { recursive: true, force: true });
}
