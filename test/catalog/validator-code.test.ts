/**
 * The generated validators count a string's length in UTF-16 units (cheap) rather than code
 * points (a walk over the whole string). That gives the same verdict only for `minLength` 0 or
 * 1, the one bound our schemas use; the generator refuses any other.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaRegistry } from '../../scripts/catalog/schemas.ts';
import { boundsNeedingCodePoints, validatorModuleSource } from '../../scripts/catalog/validator-code.ts';

const withSchema = (extra: Record<string, unknown>) =>
  new Map([...schemaRegistry().schemas, ['extra', { $id: 'https://example.org/extra.schema.json', type: 'string', ...extra }]]);

describe('length bounds of the generated validators', () => {
  it('finds every bound that counts characters, wherever it is nested', () => {
    expect(boundsNeedingCodePoints({ properties: { a: { maxLength: 5 }, b: { items: [{ minLength: 2 }] }, c: { minLength: 1 } } }))
      .toEqual(['#/properties/a/maxLength', '#/properties/b/items/0/minLength']);
  });

  it('finds none in the schemas of schemas/catalog', () => {
    expect([...schemaRegistry().schemas.values()].flatMap((s) => boundsNeedingCodePoints(s))).toEqual([]);
  });

  it.each([[{ maxLength: 10 }], [{ minLength: 2 }]])('refuses to generate validators for %o', (bound) => {
    expect(() => validatorModuleSource(withSchema(bound))).toThrow(/extra\.schema\.json#\/m(ax|in)Length/);
  });

  it('gives the code-point verdict of minLength 1 for any string: only the empty one fails', () => {
    const check = schemaRegistry().validator('faq');
    const faq = (question: string) => ({
      id: 'service.x.0123456789', question, answer: 'a', url: 'https://example.org/x/', json_url: 'https://example.org/api/v1/faqs.json',
      page: { kind: 'service', slug: 'x', title: 't', url: 'https://example.org/x/' }, updated: '2026-01-01', source: { path: 'content/services/x.md', sha256: 'a'.repeat(64) },
    });
    expect(check(faq('a'))).toBe(true);
    fc.assert(fc.property(fc.string({ unit: 'grapheme-composite' }), (s) => {
      expect(check(faq(s))).toBe([...s].length >= 1);
    }), { numRuns: 300 });
  });
});
