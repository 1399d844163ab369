/**
 * The build's own index builder writes exactly what MiniSearch itself would (`addAll` then
 * `toJSON`), so search.json keeps its bytes and every MiniSearch consumer loads it as before:
 * checked on any documents (property) and on the real content.
 */
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/model.ts';
import { loadContent } from '../../scripts/catalog/load.ts';
import { checkContent } from '../../scripts/catalog/pipeline.ts';
import { searchDocuments } from '../../scripts/catalog/search/documents.ts';
import { SEARCH_KINDS, SEARCH_OPTIONS, type SearchDocument } from '../../scripts/catalog/search/engine.ts';
import { buildMiniSearchJson } from '../../scripts/catalog/search/index-builder.ts';
import { tokenize } from '../../scripts/catalog/search/normalize.ts';
import { forEachWord } from '../../scripts/catalog/search/words.ts';
import { createSite } from '../../scripts/catalog/site.ts';
import { CONTENT } from './helpers.ts';

const byMiniSearch = (docs: readonly SearchDocument[]): string => {
  const ms = new MiniSearch<SearchDocument>(SEARCH_OPTIONS);
  ms.addAll(docs);
  return JSON.stringify(ms.toJSON());
};
const byBuilder = (docs: readonly SearchDocument[]): string => JSON.stringify(buildMiniSearchJson(docs, SEARCH_OPTIONS));

// A small vocabulary, so words repeat, share prefixes (the radix tree splits and merges), differ
// only by accents or case, and include stop words; plus any text at all.
const word = fc.constantFrom('automatización', 'automatizacion', 'Automatizar', 'auto', 'autor', 'a', 'de', 'la', 'IA', 'no', 'servicio', 'servicios', 'serv', 'ñu', '2026', 'x1');
/** Any UTF-16 text: astral letters and digits (𝐀, 𝟙), other astral characters, lone surrogates. */
const anyUnits = fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), fc.constantFrom('𝐀', '𝟙', '😀', 'ß', 'ǅ', '٣')), maxLength: 30 });
const text = fc.oneof(
  fc.array(word, { maxLength: 12 }).chain((ws) => fc.constantFrom(' ', ', ', '\n', '](x) ').map((sep) => ws.join(sep))),
  fc.string({ maxLength: 30 }),
  anyUnits,
);
const document = (id: string): fc.Arbitrary<SearchDocument> =>
  fc.record({
    kind: fc.constantFrom(...SEARCH_KINDS), slug: fc.string({ maxLength: 5 }),
    title: text, description: text, summary: text, answer: text, questions: text, body: text,
    url: fc.constant('https://example.org/x'), json_url: fc.constant('https://example.org/x.json'),
    sectors: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }), service_line: fc.option(fc.string({ maxLength: 4 })),
    services: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  }).map((d) => ({ id, ...d }));
const documents = fc.integer({ min: 0, max: 8 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => document(`d${i}`))));

describe('the search index builder', () => {
  it('finds the words the tokenizer gives, in order, in any text', () => {
    fc.assert(fc.property(fc.oneof(anyUnits, text), (t) => {
      const found: string[] = [];
      forEachWord(t, (start, end) => void found.push(t.slice(start, end)));
      expect(found).toEqual(tokenize(t));
    }), { numRuns: 1000 });
  });

  it('gives the same JSON as MiniSearch for any documents', () => {
    fc.assert(fc.property(documents, (docs) => {
      expect(byBuilder(docs)).toBe(byMiniSearch(docs));
    }), { numRuns: 300 });
  });

  it('gives the same JSON as MiniSearch on the real content', async () => {
    const checked = checkContent(await loadContent(CONTENT));
    expect(checked.issues).toEqual([]);
    const docs = searchDocuments(buildCatalog(checked.docs, createSite(undefined)));
    expect(docs.length).toBeGreaterThan(50);
    expect(byBuilder(docs)).toBe(byMiniSearch(docs));
  });

  it('refuses a duplicate id as MiniSearch does', () => {
    const doc = { id: 'same', title: 'a', summary: '', answer: '', questions: '', body: '' } as unknown as SearchDocument;
    expect(() => new MiniSearch<SearchDocument>(SEARCH_OPTIONS).addAll([doc, doc])).toThrow('MiniSearch: duplicate ID same');
    expect(() => buildMiniSearchJson([doc, doc], SEARCH_OPTIONS)).toThrow('MiniSearch: duplicate ID same');
  });
});
