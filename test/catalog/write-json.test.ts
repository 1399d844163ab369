/** The writer (atomic swap, byte count) and the JSON assembler (same bytes as JSON.stringify). */
import { readdir, mkdir, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonCache } from '../../scripts/catalog/json.ts';
import { prepareWrite, writeAtomically } from '../../scripts/catalog/write.ts';
import { cleanupTemp, readTree, tempDir } from './helpers.ts';

afterAll(cleanupTemp);

describe('writeAtomically', () => {
  it('replaces the previous folder whole, counts every byte and leaves no temporary folder', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'stale.txt'), 'old');
    const files = ['a.json', 'x/y/z.md', 'x/big.txt'];
    const big = Array.from({ length: 3000 }, (_, i) => `línea ${i}\n`);
    const stats = await writeAtomically(out, files, (rel) => (rel === 'x/big.txt' ? big : [`${rel}\n`]));
    const tree = await readTree(out);
    expect([...tree.keys()]).toEqual(['a.json', 'x/big.txt', 'x/y/z.md']);
    expect(tree.get('x/big.txt')?.toString('utf8')).toBe(big.join(''));
    expect(stats).toEqual({ files: 3, bytes: [...tree.values()].reduce((n, b) => n + b.length, 0) });
    expect(await readdir(parent)).toEqual(['dist']);
  });

  it('leaves the previous folder untouched when rendering fails midway', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'previous');
    const failing = writeAtomically(out, ['a.txt', 'b.txt'], (rel) => {
      if (rel === 'b.txt') throw new Error('render failed');
      return ['a'];
    });
    await expect(failing).rejects.toThrow('render failed');
    expect(await readFile(path.join(out, 'keep.txt'), 'utf8')).toBe('previous');
    expect(await readdir(parent)).toEqual(['dist']);
  });
});

describe('prepareWrite', () => {
  it('discarding a prepared write leaves the previous folder and no temporary folder', async () => {
    const parent = await tempDir();
    const out = path.join(parent, 'dist');
    await mkdir(out);
    await writeFile(path.join(out, 'keep.txt'), 'previous');
    const pending = prepareWrite(out, ['a/b/c.md', 'a/d/e.md', 'api/v1/x.json']);
    await pending.discard();
    expect(await readdir(parent)).toEqual(['dist']);
    expect(await readdir(out)).toEqual(['keep.txt']);
  });
});

describe('JsonCache', () => {
  it('assembles exactly the bytes JSON.stringify gives, for any JSON object', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (value) => {
        const cache = new JsonCache();
        expect([...cache.chunks(value)].join('')).toBe(JSON.stringify(value));
        expect(cache.of(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 200 },
    );
  });

  it('stringifies a shared object once and reuses it', () => {
    const cache = new JsonCache();
    const item = { slug: 'a' };
    const first = cache.of(item);
    item.slug = 'changed after stringify';
    expect([...cache.chunks({ items: [item, item] })].join('')).toBe(`{"items":[${first},${first}]}`);
  });
});
