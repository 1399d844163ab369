/** Output validation: a generator bug is caught before anything is written, wherever it hides. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutputs, searchIndexPasses } from '../../scripts/catalog/check-output.ts';
import { emitCatalog, type Outputs } from '../../scripts/catalog/emit.ts';
import { loadContent } from '../../scripts/catalog/load.ts';
import { buildCatalog } from '../../scripts/catalog/model.ts';
import { checkContent } from '../../scripts/catalog/pipeline.ts';
import { schemaRegistry } from '../../scripts/catalog/schemas.ts';
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

describe('checkOutputs on search.json', () => {
  const SEARCH = 'api/v1/search.json';
  const firstPostings = (v: Record<string, any>): Record<string, Record<string, number>> => v.index.index[0][1];

  it.each([
    ['an empty term', (v: Record<string, any>) => void (v.index.index[0][0] = ''), 'index.index[0][0]'],
    ['a count of zero', (v: Record<string, any>) => {
      const docs = Object.values(firstPostings(v))[0] as Record<string, number>;
      docs[Object.keys(docs)[0] as string] = 0;
    }, /^index\.index\[0\]\[1\]\[\d+\]\[\d+\]$/],
    ['a fractional count', (v: Record<string, any>) => {
      const docs = Object.values(firstPostings(v))[0] as Record<string, number>;
      docs[Object.keys(docs)[0] as string] = 1.5;
    }, /^index\.index\[0\]\[1\]\[\d+\]\[\d+\]$/],
    ['a field that is not an object', (v: Record<string, any>) => void ((firstPostings(v) as Record<string, unknown>)['0'] = [1]), 'index.index[0][1][0]'],
    ['an entry of three items', (v: Record<string, any>) => void v.index.index[0].push({}), 'index.index[0]'],
    ['a term list that is not a list', (v: Record<string, any>) => void (v.index.index = {}), 'index.index'],
    ['a bad count of documents', (v: Record<string, any>) => void (v.document_count = -1), 'document_count'],
    ['a stored document without its url', (v: Record<string, any>) => void delete v.index.storedFields['0'].url, 'index.storedFields[0].url'],
  ])('reports %s at its place', async (_name, corrupt, field) => {
    const outputs = await fresh();
    corrupt(json(outputs, SEARCH));
    const found = checkOutputs(outputs).filter((i) => i.file === `dist/${SEARCH}`);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toContainEqual(expect.objectContaining({ code: 'output_invalid', field: typeof field === 'string' ? field : expect.stringMatching(field) }));
    expect(found.every((i) => i.message.endsWith('(schema search)'))).toBe(true);
  });

  it('reports a broken term list exactly as the whole schema does', async () => {
    const outputs = await fresh();
    const value = json(outputs, SEARCH);
    value.index.index[1][0] = '';
    value.index.index[2] = ['x'];
    const validate = schemaRegistry().validator('search');
    expect(validate(value)).toBe(false);
    const whole = (validate.errors ?? []).length;
    expect(checkOutputs(outputs).filter((i) => i.file === `dist/${SEARCH}`)).toHaveLength(whole);
  });

  it('passes the index only when the schema would', async () => {
    const outputs = await fresh();
    const value = json(outputs, SEARCH);
    const validate = schemaRegistry().validator('search');
    expect(searchIndexPasses(value, validate)).toBe(true);
    expect(validate(value)).toBe(true);
    value.index.index[0][1] = null;
    expect(searchIndexPasses(value, validate)).toBe(false);
    expect(validate(value)).toBe(false);
  });
});
