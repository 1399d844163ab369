/**
 * Stage 7 (I/O): write every output into a fresh folder beside outDir, then swap it in with
 * renames. A build that fails before the swap leaves the previous dist/ exactly as it was, and
 * readers never see a half-written tree.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from './concurrency.ts';

/** Open files at once while writing; enough to overlap I/O, few enough to stay under ulimits. */
const WRITE_CONCURRENCY = 64;

export interface WriteStats {
  files: number;
  bytes: number;
}

/** `files` maps a POSIX path relative to outDir to its bytes. */
export async function writeAtomically(outDir: string, files: ReadonlyMap<string, Buffer>): Promise<WriteStats> {
  const parent = path.dirname(path.resolve(outDir));
  const base = path.basename(path.resolve(outDir));
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  // `.dist-*` is ignored by git, and staying in the same parent keeps the rename on one filesystem.
  const fresh = path.join(parent, `.dist-${base}-new-${tag}`);
  const old = path.join(parent, `.dist-${base}-old-${tag}`);
  await mkdir(parent, { recursive: true });
  try {
    const dirs = new Set<string>();
    for (const rel of files.keys()) dirs.add(path.posix.dirname(rel));
    for (const dir of [...dirs].sort()) await mkdir(path.join(fresh, dir), { recursive: true });
    let bytes = 0;
    const entries = [...files.entries()];
    await mapLimit(entries, WRITE_CONCURRENCY, async ([rel, data]) => {
      bytes += data.length;
      await writeFile(path.join(fresh, rel), data);
    });
    await swap(outDir, fresh, old);
    return { files: entries.length, bytes };
  } catch (error) {
    await rm(fresh, { recursive: true, force: true });
    throw error;
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
