/** What the watch tests share: a save that appends a line, and the watched dist/ against a full build. */
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { readTree, tempDir } from './helpers.ts';

/** Every file of the watched dist/ holds a fresh full build's bytes, and no other file is there. */
export async function expectSameAsFullBuild(content: string, dist: string, precompress = false): Promise<void> {
  const out = path.join(await tempDir(), 'dist');
  const result = await buildCatalog({ contentDir: content, outDir: out, sourceDateEpoch: '', ...(precompress ? { precompress } : {}) });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  const [watched, full] = [await readTree(dist), await readTree(out)];
  expect([...watched.keys()]).toEqual([...full.keys()]);
  for (const [rel, bytes] of full) expect(watched.get(rel)?.equals(bytes), rel).toBe(true);
}

export const append = async (content: string, rel: string, text: string) => writeFile(path.join(content, rel), `${await readFile(path.join(content, rel), 'utf8')}\n${text}\n`);
export const holds = (dist: string, rel: string, text: string): boolean => readFileSync(path.join(dist, rel), 'utf8').includes(text);
