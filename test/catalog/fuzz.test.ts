/**
 * A seeded sample of the front-matter fuzzer (scripts/fuzz/front-matter.ts): random YAML
 * types and shapes in one file of a valid catalog; the build either succeeds with valid output or
 * fails with located problems, never throws, never changes dist/ when it fails. Longer runs:
 * `npm run fuzz:catalog -- --runs N --seed S`.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { contentKeys, fuzzCases, mutate, runCase } from '../../scripts/fuzz/front-matter.ts';
import { rawRequest, targetCases, targetViolations } from '../../scripts/fuzz/request-targets.ts';
import { startCatalogServer } from '../../scripts/cli/catalog-server.ts';
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

it('random request targets to the server: never a 5xx, JSON errors under /api/ (seeded sample)', async () => {
  // Its own built copy: the front-matter cases above rewrite dist/ as they run.
  const served = path.join(await tempDir(), 'dist');
  const built = await buildCatalog({ contentDir: await copyContent(), outDir: served, sourceDateEpoch: '' });
  if (!built.ok) throw new Error('the fixture does not build');
  const server = await startCatalogServer({ dir: served, port: 0 });
  try {
    const port = Number(new URL(server.url).port);
    const known = [
      { method: 'GET' as const, target: '/api/v1/index.json/extra' },
      { method: 'GET' as const, target: '/api/v1/services/meta-ads.json/' },
      { method: 'GET' as const, target: `/api/v1/${'x'.repeat(12_000)}` },
    ];
    for (const c of known) expect(targetViolations(c, await rawRequest(port, c))).toEqual([]);
    await fc.assert(
      fc.asyncProperty(targetCases(), async (c) => {
        expect(targetViolations(c, await rawRequest(port, c))).toEqual([]);
      }),
      { numRuns: 150, seed: 20261202 },
    );
  } finally {
    await server.close();
  }
});

it('the target property catches a 5xx and a non-JSON error under /api/', () => {
  const c = { method: 'GET' as const, target: '/api/v1/x' };
  expect(targetViolations(c, { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal server error\n' })).toHaveLength(2);
  expect(targetViolations(c, { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"status":404}' })).toEqual([]);
});
