/**
 * Stage 7 (I/O): write every output into a fresh folder beside outDir, then swap it in with
 * renames. A build that fails before the swap leaves the previous dist/ exactly as it was, and
 * readers never see a half-written tree.
 *
 * Files arrive through a sink as they are rendered (a whole file, or a stream of pieces) and are
 * written by a couple of worker threads (write-worker.ts) while the main thread goes on
 * rendering. The folders are queued first, at prepareWrite, so the workers create them while the
 * caller is still checking the outputs. At most a bounded amount of rendered text is in flight.
 * A file whose bytes equal the same file's in the folder being replaced is hard-linked from it
 * instead of written again (write-reuse.ts): a rebuild over an existing dist/ writes only what
 * changed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { ENCODINGS } from './precompress.ts';
import { startWorker } from './worker-entry.ts';
import type { WriteOp as Op, WriteReply as Reply } from './write-ops.ts';

/** Characters of rendered text sent but not yet written, before the sink makes its caller wait. */
const IN_FLIGHT_CHARS = 8 << 20;
/** A batch goes to its worker once it holds this much text or this many operations. */
const BATCH_CHARS = 128 << 10;
const BATCH_OPS = 256;
/**
 * Streamed pieces are gathered into appends of about this size: small enough that the joined
 * string stays out of V8's large-object space, which only a full collection frees.
 */
const APPEND_CHARS = 32 << 10;

export interface WriteStats {
  files: number;
  bytes: number;
}

/** A file written piece by piece, in order. */
export interface FileStream {
  write(piece: string): Promise<void>;
  /**
   * Append `text`, and write it as the whole file `rel` too (with a final newline when `newline`):
   * a part of the bundle that is also a file of its own, a twin inside llms-full.txt. The writer
   * threads' streams encode it once for both; a stream without this method leaves the caller to
   * write the two.
   */
  writeAlsoAs?(text: string, rel: string, newline: boolean): Promise<void>;
  end(): Promise<void>;
}

/** Where rendered files go. Every path announced to prepareWrite must be written exactly once. */
export interface WriteSink {
  /** A whole file (text is written as UTF-8); resolves once it is queued (waits while too much is in flight). */
  file(rel: string, data: string | Uint8Array): Promise<void>;
  stream(rel: string): FileStream;
  /**
   * A whole file and its precompressed twins (`rel.br`, `rel.gz`, the bytes precompress.ts's
   * compress() gives), when the sink can make them itself. precompressing() uses it if present.
   */
  fileWithTwins?(rel: string, data: string | Uint8Array): Promise<void>;
  /** The same for a streamed file: its twins are compressed as it streams. */
  streamWithTwins?(rel: string): FileStream;
}

export interface PendingWrite {
  /** Let `produce` write every file through the sink, then swap the folder into place. */
  commit(produce: (sink: WriteSink) => Promise<void>): Promise<WriteStats>;
  /** Drop the fresh folder; outDir is left as it was. */
  discard(): Promise<void>;
}

/**
 * Start a write: create the fresh folder, and queue its subfolders to the writer threads now, so
 * they are made while the caller finishes checking the outputs. `files` are POSIX paths relative
 * to outDir, best listed in the order they will be written (folders are made in that order).
 * `linkUnchanged: false` writes every file even where outDir already holds its bytes.
 */
export function prepareWrite(outDir: string, files: readonly string[], options: { linkUnchanged?: boolean } = {}): PendingWrite {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(path.resolve(outDir));
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // `.dist-*` is ignored by git, and staying in the same parent keeps the rename on one filesystem.
  const fresh = path.join(parent, `.dist-${base}-new-${tag}`);
  const old = path.join(parent, `.dist-${base}-old-${tag}`);
  let writer: Writer | undefined;
  let setupError: unknown;
  try {
    writer = new Writer(fresh, files, options.linkUnchanged === false ? null : previousFolder(outDir));
  } catch (error) {
    setupError = error;
  }
  const discard = async (): Promise<void> => {
    await writer?.close().catch(() => {});
    await rm(fresh, { recursive: true, force: true });
  };
  return {
    discard,
    async commit(produce) {
      try {
        if (!writer) throw setupError;
        await writer.run(produce);
        await writer.close();
        await swap(outDir, fresh, old);
        return writer.stats();
      } catch (error) {
        await discard();
        throw error;
      }
    },
  };
}

/** The output folder being replaced, whose unchanged files the writer threads link (write-reuse.ts). */
function previousFolder(outDir: string): string | null {
  try {
    return statSync(outDir).isDirectory() ? path.resolve(outDir) : null;
  } catch {
    return null;
  }
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

/** One writer thread: operations run in the order they were queued. */
class Lane {
  readonly worker: Worker;
  ops: Op[] = [];
  /** The buffers of the queued operations' bytes, moved to the thread with them. */
  transfer: ArrayBuffer[] = [];
  chars = 0;
  next = 0;
  /** Batches sent and not yet answered: id → characters of text they carry. */
  readonly waiting = new Map<number, number>();
  /** Characters queued or in flight on this thread. */
  load = 0;

  constructor(onReply: (lane: Lane, reply: Reply) => void, onCrash: (error: Error) => void) {
    // A small young generation: the thread turns the bundle's text into Buffers for its
    // compressors, and collecting them sooner keeps peak memory lower.
    this.worker = startWorker(import.meta.url, 'catalog-write-worker', './write-worker.ts', { resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    this.worker.on('message', (reply: Reply) => onReply(this, reply));
    this.worker.on('error', onCrash);
  }
}

/** The sink behind commit(): routes operations to the writer threads, keeps exact accounts. */
class Writer implements WriteSink {
  readonly #root: string;
  /** The folder this one replaces, if any: a file there with the same bytes is linked, not written. */
  readonly #previous: string | null;
  readonly #expected: Set<string>;
  readonly #written = new Set<string>();
  readonly #lanes: Lane[];
  /** One-file folder → the lane that makes it; its file goes through that same lane. */
  readonly #laneOfDir = new Map<string, Lane>();
  #inFlight = 0;
  #bytes = 0;
  #error: Error | undefined;
  #resume: (() => void)[] = [];
  #closed = false;
  /** Streams opened and not yet ended: path → its lane, so a failed build still closes them. */
  readonly #open = new Map<string, Lane>();

  constructor(root: string, files: readonly string[], previous: string | null) {
    this.#root = root;
    this.#previous = previous;
    this.#expected = new Set(files);
    // Folders that hold other folders or several files (api/v1, api/v1/insights, servicios…)
    // are few: made here, before any thread starts, so their files can go to either thread.
    // The many one-file folders (a Markdown twin each) are queued to the threads, each with
    // its file following it on the same thread.
    const filesIn = new Map<string, number>();
    const parents = new Set<string>();
    for (const rel of files) {
      const dir = path.posix.dirname(rel);
      if (dir === '.') continue;
      filesIn.set(dir, (filesIn.get(dir) ?? 0) + 1);
      for (let up = path.posix.dirname(dir); up !== '.'; up = path.posix.dirname(up)) parents.add(up);
    }
    const shared = new Set([...filesIn].filter(([dir, n]) => n > 1 || parents.has(dir)).map(([dir]) => dir));
    for (const dir of parents) shared.add(dir);
    mkdirSync(path.dirname(root), { recursive: true });
    mkdirSync(root);
    for (const dir of [...shared].sort()) mkdirSync(path.join(root, dir), { recursive: true });
    // Two threads: faster than one even on a 2-CPU machine (docs/performance-catalog.md), though
    // they spend more system time contending for the same folders and journal.
    const count = Math.max(1, Math.min(2, os.availableParallelism()));
    this.#lanes = Array.from({ length: count }, () => new Lane((lane, reply) => this.#onReply(lane, reply), (e) => this.#fail(e)));
    let i = 0;
    for (const dir of filesIn.keys()) {
      if (shared.has(dir)) continue;
      const lane = this.#lanes[i++ % count] as Lane;
      this.#laneOfDir.set(dir, lane);
      this.#queue(lane, { op: 'dir', path: path.join(root, dir) }, 0);
    }
    for (const lane of this.#lanes) this.#send(lane);
  }

  async run(produce: (sink: WriteSink) => Promise<void>): Promise<void> {
    await produce(this);
    await this.#drain();
    if (this.#error) throw this.#error;
    // Its last pieces were never sent: the file would be silently cut short.
    if (this.#open.size > 0) throw new Error(`stream never ended: ${[...this.#open.keys()].join(', ')}`);
    const missing = [...this.#expected].filter((f) => !this.#written.has(f));
    if (missing.length > 0) throw new Error(`not written: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}`);
  }

  stats(): WriteStats {
    return { files: this.#written.size, bytes: this.#bytes };
  }

  /** Wait for everything queued (unless a write failed), then stop the threads. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const [file, lane] of this.#open) this.#queue(lane, { op: 'close', path: file }, 0);
    this.#open.clear();
    await this.#drain().catch(() => {});
    await Promise.all(this.#lanes.map((l) => l.worker.terminate()));
  }

  async file(rel: string, data: string | Uint8Array): Promise<void> {
    this.#claim(rel);
    await this.#room();
    const lane = this.#laneOf(rel);
    const bytes = encoded(data);
    // A caller's own bytes stay the caller's: only those encoded here are moved.
    this.#queue(lane, { op: 'file', path: path.join(this.#root, rel), data: bytes, ...this.#previousOf(rel) }, bytes.length, bytes === data ? undefined : bytes);
  }

  #previousOf(rel: string): { previous?: string } {
    return this.#previous === null ? {} : { previous: path.join(this.#previous, rel) };
  }

  /**
   * The file and its twins, compressed on the writer thread with zlib's synchronous calls: the
   * asynchronous ones cost about twice the CPU on files of a few KB (a thread-pool round trip
   * and a stream per call), and the twins then never travel back to this thread.
   */
  async fileWithTwins(rel: string, data: string | Uint8Array): Promise<void> {
    for (const twin of [rel, ...ENCODINGS.map((e) => `${rel}${e.suffix}`)]) this.#claim(twin);
    await this.#room();
    const lane = this.#laneOf(rel);
    this.#queue(lane, { op: 'file', path: path.join(this.#root, rel), data, twins: true }, data.length);
  }

  stream(rel: string): FileStream {
    return this.#stream(rel, false);
  }

  /** Compressed on the writer thread too, as the pieces arrive: each is encoded once, there. */
  streamWithTwins(rel: string): FileStream {
    return this.#stream(rel, true);
  }

  #stream(rel: string, twins: boolean): FileStream {
    if (twins) for (const twin of ENCODINGS.map((e) => `${rel}${e.suffix}`)) this.#claim(twin);
    this.#claim(rel);
    const lane = this.#laneOf(rel);
    const file = path.join(this.#root, rel);
    this.#queue(lane, { op: 'open', path: file, ...(twins ? { twins } : this.#previousOf(rel)) }, 0);
    this.#open.set(file, lane);
    let pieces: string[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      const data = pieces.join('');
      pieces = [];
      size = 0;
      await this.#room();
      const bytes = encoded(data);
      this.#queue(lane, { op: 'append', path: file, data: bytes }, bytes.length, bytes);
    };
    const stream: FileStream = {
      write: async (piece) => {
        pieces.push(piece);
        size += piece.length;
        if (size >= APPEND_CHARS) await flush();
      },
      end: async () => {
        await flush();
        this.#open.delete(file);
        this.#queue(lane, { op: 'close', path: file }, 0);
      },
    };
    // A stream with twins compresses what it appends on its thread: its pieces stay its own.
    if (twins) return stream;
    stream.writeAlsoAs = async (text, rel, newline) => {
      const own = this.#laneOfDir.get(path.posix.dirname(rel));
      if (own !== undefined && own !== lane) {
        // The file's folder is made by the other thread, which must write it.
        await this.file(rel, newline ? `${text}\n` : text);
        await stream.write(text);
        return;
      }
      if (pieces.length > 0) await flush();
      this.#claim(rel);
      await this.#room();
      const bytes = encoded(newline ? `${text}\n` : text);
      // Both operations hold views of one buffer, so they are queued as one: it moves with the
      // batch that holds both.
      this.#queue(
        lane,
        [{ op: 'file', path: path.join(this.#root, rel), data: bytes, ...this.#previousOf(rel) }, { op: 'append', path: file, data: newline ? bytes.subarray(0, bytes.length - 1) : bytes }],
        bytes.length,
        bytes,
      );
    };
    return stream;
  }

  #claim(rel: string): void {
    if (this.#error) throw this.#error;
    if (!this.#expected.has(rel)) throw new Error(`${rel} was not announced to prepareWrite`);
    if (this.#written.has(rel)) throw new Error(`${rel} written twice`);
    this.#written.add(rel);
  }

  /** A file in a folder a thread makes goes through that thread; any other, the least busy. */
  #laneOf(rel: string): Lane {
    const own = this.#laneOfDir.get(path.posix.dirname(rel));
    if (own) return own;
    let best = this.#lanes[0] as Lane;
    for (const lane of this.#lanes) if (lane.load < best.load) best = lane;
    return best;
  }

  /** `moved`: bytes of the operation's own (encoded()), handed over to the thread rather than copied. */
  #queue(lane: Lane, op: Op | Op[], chars: number, moved?: Uint8Array): void {
    if (Array.isArray(op)) lane.ops.push(...op);
    else lane.ops.push(op);
    if (moved && moved.byteLength > 0) lane.transfer.push(moved.buffer as ArrayBuffer);
    lane.chars += chars;
    lane.load += chars;
    this.#inFlight += chars;
    if (lane.chars >= BATCH_CHARS || lane.ops.length >= BATCH_OPS) this.#send(lane);
  }

  #send(lane: Lane): void {
    if (lane.ops.length === 0) return;
    const id = lane.next++;
    lane.waiting.set(id, lane.chars);
    lane.worker.postMessage({ id, ops: lane.ops }, lane.transfer);
    lane.ops = [];
    lane.transfer = [];
    lane.chars = 0;
  }

  #onReply(lane: Lane, reply: Reply): void {
    const chars = lane.waiting.get(reply.id) ?? 0;
    this.#inFlight -= chars;
    lane.load -= chars;
    lane.waiting.delete(reply.id);
    this.#bytes += reply.bytes;
    if (reply.error) this.#fail(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
    this.#wake();
  }

  #fail(error: Error): void {
    this.#error ??= error;
    this.#wake();
  }

  #wake(): void {
    const resume = this.#resume;
    this.#resume = [];
    for (const r of resume) r();
  }

  /** Waits while too much text is queued; sends what is gathered so the threads never idle. */
  async #room(): Promise<void> {
    while (this.#inFlight >= IN_FLIGHT_CHARS && !this.#error) {
      for (const lane of this.#lanes) this.#send(lane);
      await new Promise<void>((resolve) => this.#resume.push(resolve));
    }
    if (this.#error) throw this.#error;
  }

  /** Send every partial batch and wait until the threads have answered them all. */
  async #drain(): Promise<void> {
    for (const lane of this.#lanes) this.#send(lane);
    while (!this.#error && this.#lanes.some((l) => l.waiting.size > 0)) await new Promise<void>((resolve) => this.#resume.push(resolve));
    if (this.#error) throw this.#error;
  }
}

const utf8 = new TextEncoder();

/**
 * A file's bytes in a buffer of their own, which postMessage then moves to the writer thread.
 * Posting the string instead copies it twice (serialised here, rebuilt there: two bytes a
 * character once the text holds any letter beyond Latin-1's ASCII half) before the thread
 * encodes it anyway; that copying was 1.4 s of this thread's CPU at 10,000 documents.
 */
function encoded(data: string | Uint8Array): Uint8Array {
  return typeof data === 'string' ? utf8.encode(data) : data;
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
