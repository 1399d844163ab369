/**
 * A generator bug (an emitted value its schema refuses) fails the build with an issue naming the
 * file and field, although the writer threads start writing before the check ends: dist/ is left
 * as it was and no half-written folder stays behind.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkOutputs, checkOutputsInSlices } from '../../scripts/catalog/check-output.ts';
import * as emit from '../../scripts/catalog/emit.ts';
import { loadContent } from '../../scripts/catalog/load.ts';
import { buildCatalog as assembleCatalog } from '../../scripts/catalog/model.ts';
import { buildCatalog, checkContent } from '../../scripts/catalog/pipeline.ts';
import { createSite } from '../../scripts/catalog/site.ts';
import { FIXTURE, cleanupTemp, readTree, tempDir } from './helpers.ts';

const corrupt = vi.hoisted(() => ({ on: false }));
vi.mock('../../scripts/catalog/emit.ts', async (importOriginal) => {
  const real = await importOriginal<typeof emit>();
  return {
    ...real,
    emitCatalog: (...args: Parameters<typeof real.emitCatalog>) => {
      const outputs = real.emitCatalog(...args);
      const service = outputs.get('api/v1/services/meta-ads.json');
      if (corrupt.on && service?.kind === 'json') (service.value as { url: string }).url = 'not a url';
      return outputs;
    },
  };
});
afterAll(cleanupTemp);

describe('the output check during the write', () => {
  it('a value its schema refuses fails the build, names file and field, and leaves dist/ and its folder as they were', async () => {
    const parent = await tempDir();
    const dist = path.join(parent, 'dist');
    corrupt.on = false;
    const good = await buildCatalog({ contentDir: FIXTURE, outDir: dist, sourceDateEpoch: '' });
    expect(good.ok).toBe(true);
    const before = await readTree(dist);
    corrupt.on = true;
    const bad = await buildCatalog({ contentDir: FIXTURE, outDir: dist, sourceDateEpoch: '' });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.issues).toContainEqual(expect.objectContaining({ file: 'dist/api/v1/services/meta-ads.json', field: 'url', code: 'output_invalid' }));
    expect(await readTree(dist)).toEqual(before);
    expect(await readdir(parent)).toEqual(['dist']);
  });

  it('checked in slices, the outputs give the issues of the one-pass check, in the same order', async () => {
    corrupt.on = true;
    const { docs } = checkContent(await loadContent(FIXTURE));
    const outputs = emit.emitCatalog(assembleCatalog(docs, createSite(undefined)), { generatedAt: '2026-01-01T00:00:00.000Z' });
    const once = checkOutputs(outputs);
    expect(once.length).toBeGreaterThan(0);
    expect(await checkOutputsInSlices(outputs, undefined, 0)).toEqual(once);
  });
});
