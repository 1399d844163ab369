/**
 * Stage 1 (I/O): find the content files and read their bytes. Everything after this stage is
 * pure until `write`.
 */
import path from 'node:path';
import fg from 'fast-glob';
import { mapLimit } from './concurrency.ts';
import { readFile } from './io.ts';

export interface SourceFile {
  /** POSIX path as published in provenance: `content/<relative path>`. */
  file: string;
  /** Path relative to the content folder, POSIX. */
  rel: string;
  bytes: Buffer;
}

/** Read concurrency: enough to keep the disk busy without opening thousands of handles. */
const READ_CONCURRENCY = 64;

/**
 * Files given to another thread to read and parse (the build's side thread): `count(total)` of
 * them, from the end of the sorted list; `parse` answers their results in that order.
 */
export interface HandOff<T> {
  count(total: number): number;
  parse(rels: readonly string[]): Promise<T[]>;
}

export async function loadContent(contentDir: string): Promise<SourceFile[]>;
/**
 * With `each`, every file is handed over as soon as it is read and only the results are kept:
 * parsing overlaps the reads still in flight, and the raw bytes are not held until the end.
 * With `handOff`, the last files of the list are read and parsed elsewhere meanwhile: the
 * results are in the order of the list either way.
 */
export async function loadContent<T>(contentDir: string, each: (src: SourceFile) => T, handOff?: HandOff<T>): Promise<T[]>;
export async function loadContent<T>(contentDir: string, each?: (src: SourceFile) => T, handOff?: HandOff<T>): Promise<(T | SourceFile)[]> {
  // README.md at the top documents the contract for editors; it is not content.
  const rels = await fg('**/*.md', { cwd: contentDir, ignore: ['README.md'], dot: false, onlyFiles: true });
  rels.sort();
  const handed = each && handOff ? Math.max(0, Math.min(rels.length, Math.floor(handOff.count(rels.length)))) : 0;
  const kept = rels.length - handed;
  const theirs: Promise<T[]> = handed > 0 ? handOff!.parse(rels.slice(kept)) : Promise.resolve([]);
  theirs.catch(() => {}); // awaited below, once this thread's share is done
  const mine = await mapLimit(rels.slice(0, kept), READ_CONCURRENCY, async (rel) => {
    const src = { file: `content/${rel}`, rel, bytes: await readFile(path.join(contentDir, rel)) };
    return each ? each(src) : src;
  });
  return handed > 0 ? [...mine, ...(await theirs)] : mine;
}
