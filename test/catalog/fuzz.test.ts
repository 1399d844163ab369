/**
 * A seeded sample of the front-matter fuzzer (scripts/catalog/front-matter-fuzz.ts): random YAML
 * types and shapes in one file of a valid catalog; the build either succeeds with valid output or
 * fails with located problems, never throws, never changes dist/ when it fails. Longer runs:
 * `npm run fuzz:catalog -- --runs N --seed S`.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { contentKeys, fuzzCases, mutate, runCase } from '../../scripts/catalog/front-matter-fuzz.ts';
import { cleanupTemp, copyContent, tempDir } from './helpers.ts';

let content: string;
let dist: string;
let keys: Map<string, string[]>;
beforeAll(async () => {
  content = await copyContent();
  dist = path.join(await tempDir(), 'dist');
  const first = await buildCatalog({ contentDir: content, outDir: dist, sourceDateEpoch: '' });
  if (!first.ok) throw new Error('the fixture does not build');
  keys = await contentKeys(content);
});
afterAll(cleanupTemp);

it('mutations rewrite the front matter and keep the body', () => {
  const text = '---\ntitle: "a"\nlist: [1, 2]\n---\nCuerpo.\n';
  expect(mutate(text, { op: 'set', key: 'list', at: 1, value: { x: null } })).toBe('---\ntitle: a\nlist:\n  - 1\n  - x: null\n---\nCuerpo.\n');
  expect(mutate(text, { op: 'delete', key: 'title' })).toBe('---\nlist:\n  - 1\n  - 2\n---\nCuerpo.\n');
  expect(mutate(text, { op: 'splice', at: 0, text: '[' })).toBe('---\n[title: "a"\nlist: [1, 2]\n---\nCuerpo.\n');
});

it('random front matter: valid output or located problems, never a crash, never a changed dist/ (seeded sample)', async () => {
  await fc.assert(
    fc.asyncProperty(fuzzCases([...keys.keys()], (f) => keys.get(f) ?? ['title']), async (c) => {
      const outcome = await runCase(content, dist, c);
      expect(outcome.violations).toEqual([]);
    }),
    { numRuns: 40, seed: 20261125 },
  );
});
