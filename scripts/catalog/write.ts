/**
 * Stage 7 (I/O): write every output into a fresh folder beside outDir, then swap it in with
 * renames. A build that fails before the swap leaves the previous dist/ exactly as it was, and
 * readers never see a half-written tree.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir as mkdirp, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from './concurrency.ts';
import { mkdir, writeFile } from './io.ts';

/**
 * Files in flight while writing. libuv runs file I/O on a pool of 4 threads, so a few dozen
 * requests keep it busy; more only adds memory.
 */
const WRITE_CONCURRENCY = 32;

export interface WriteStats {
  files: number;
  bytes: number;
}

/** Large files are written in pieces of about this size. */
const CHUNK_BYTES = 1 << 20;

export interface PendingWrite {
  /** Write every file (rendered as it is written) and swap the folder into place. */
  commit(render: (rel: string) => Iterable<string>): Promise<WriteStats>;
  /** Drop the fresh folder; outDir is left as it was. */
  discard(): Promise<void>;
}

/**
 * Start a write: create the fresh folder and its subfolders now, in the background, while the
 * caller finishes checking the outputs. Creating thousands of folders (one per Markdown twin) is
 * slow on some disks; this takes it off the critical path. `files` are POSIX paths relative to
 * outDir.
 */
export function prepareWrite(outDir: string, files: readonly string[]): PendingWrite {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(path.resolve(outDir));
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // `.dist-*` is ignored by git, and staying in the same parent keeps the rename on one filesystem.
  const fresh = path.join(parent, `.dist-${base}-new-${tag}`);
  const old = path.join(parent, `.dist-${base}-old-${tag}`);
  const ready = makeDirs(fresh, files);
  ready.catch(() => {}); // reported by commit(); discard() must not leave an unhandled rejection
  const discard = async (): Promise<void> => {
    await ready.catch(() => {});
    await rm(fresh, { recursive: true, force: true });
  };
  return {
    discard,
    async commit(render) {
      try {
        await ready;
        let bytes = 0;
        await mapLimit(files, WRITE_CONCURRENCY, async (rel) => {
          const written = await writePieces(path.join(fresh, rel), render(rel));
          bytes += written; // not `bytes += await …`: that reads `bytes` before the await and loses updates
        });
        await swap(outDir, fresh, old);
        return { files: files.length, bytes };
      } catch (error) {
        await discard();
        throw error;
      }
    },
  };
}

/** Render, write and swap in one go. */
export function writeAtomically(outDir: string, files: readonly string[], render: (rel: string) => Iterable<string>): Promise<WriteStats> {
  return prepareWrite(outDir, files).commit(render);
}

/** One piece: one writeFile. More: one handle, pieces batched into ~1 MB writes. Returns bytes. */
async function writePieces(file: string, pieces: Iterable<string>): Promise<number> {
  const it = pieces[Symbol.iterator]();
  const first = it.next();
  const second = first.done ? first : it.next();
  if (second.done) {
    const data = Buffer.from(first.done ? '' : first.value, 'utf8');
    await writeFile(file, data);
    return data.length;
  }
  const handle = await open(file, 'w');
  try {
    let bytes = 0;
    let batch: string[] = [first.value, second.value];
    let size = first.value.length + second.value.length;
    const flush = async (): Promise<void> => {
      const data = Buffer.from(batch.join(''), 'utf8');
      batch = [];
      size = 0;
      bytes += data.length;
      await handle.write(data);
    };
    for (let next = it.next(); !next.done; next = it.next()) {
      batch.push(next.value);
      size += next.value.length;
      if (size >= CHUNK_BYTES) await flush();
    }
    await flush();
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * Every folder the files need. Folders that hold other folders are few (api/v1, servicios…) and
 * made first, synchronously; the many leaf folders are then all queued at once, so the thread
 * pool keeps creating them even while the main thread is busy checking outputs.
 */
async function makeDirs(root: string, files: readonly string[]): Promise<void> {
  await mkdirp(path.dirname(root), { recursive: true });
  const dirs = new Set<string>();
  for (const rel of files) {
    for (let dir = path.posix.dirname(rel); dir !== '.' && !dirs.has(dir); dir = path.posix.dirname(dir)) dirs.add(dir);
  }
  const parents = new Set<string>();
  for (const dir of dirs) {
    const up = path.posix.dirname(dir);
    if (up !== '.') parents.add(up);
  }
  mkdirSync(root);
  for (const dir of [...parents].sort()) mkdirSync(path.join(root, dir), { recursive: true });
  await Promise.all([...dirs].filter((d) => !parents.has(d)).map((dir) => mkdir(path.join(root, dir))));
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
