/** Output validation: a generator bug is caught before anything is written, wherever it hides. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutputs } from '../../scripts/catalog/check-output.ts';
import { emitCatalog, type Outputs } from '../../scripts/catalog/emit.ts';
import { loadContent } from '../../scripts/catalog/load.ts';
import { buildCatalog } from '../../scripts/catalog/model.ts';
import { checkContent } from '../../scripts/catalog/pipeline.ts';
import { createSite } from '../../scripts/catalog/site.ts';
import { FIXTURE, cleanupTemp } from './helpers.ts';

let fresh: () => Promise<Outputs>;
beforeAll(() => {
  fresh = async () => {
    const { docs } = checkContent(await loadContent(FIXTURE));
    return emitCatalog(buildCatalog(docs, createSite(undefined)), { generatedAt: '2026-01-01T00:00:00.000Z' });
  };
});
afterAll(cleanupTemp);

const json = (outputs: Outputs, rel: string) => {
  const out = outputs.get(rel);
  if (out?.kind !== 'json') throw new Error(`${rel} is not JSON`);
  return out.value as Record<string, any>;
};

describe('checkOutputs', () => {
  it('passes what the emitter produces', async () => {
    expect(checkOutputs(await fresh())).toEqual([]);
  });

  it.each([
    ['a detail file', 'api/v1/services/meta-ads.json', (v: Record<string, any>) => void (v.url = 'not a url'), 'url'],
    ['an item of the bundle only', 'api/v1/bundle.json', (v: Record<string, any>) => void (v.pages = [...v.pages, { kind: 'page' }]), 'pages[7].slug'],
    ['an envelope field of a list', 'api/v1/faqs.json', (v: Record<string, any>) => void (v.count = 'four'), 'count'],
    ['a nested field of a list item', 'api/v1/areas.json', (v: Record<string, any>) => void (v.items = [{ ...v.items[0], modality: 'teleporte' }]), 'items[0].modality'],
  ])('names the file and field of a bad value in %s', async (_name, rel, corrupt, field) => {
    const outputs = await fresh();
    corrupt(json(outputs, rel));
    expect(checkOutputs(outputs)).toContainEqual(expect.objectContaining({ file: `dist/${rel}`, field, code: 'output_invalid' }));
  });

  it('checks a shared object in every file that holds it when it is first seen there broken', async () => {
    const outputs = await fresh();
    const service = json(outputs, 'api/v1/services/meta-ads.json');
    service.word_count = -1;
    const files = checkOutputs(outputs).map((i) => i.file);
    expect(files).toContain('dist/api/v1/services/meta-ads.json');
    expect(files).toContain('dist/api/v1/bundle.json');
  });
});
