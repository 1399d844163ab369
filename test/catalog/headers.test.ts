/** The `_headers` table: written by the build, read back by the server. */
import { describe, expect, it } from 'vitest';
import { formatHeadersFile, headerMatcher, headerRules, parseHeadersFile } from '../../scripts/catalog/headers.ts';

describe('_headers', () => {
  const rules = headerRules(['llms.txt', 'servicios/a/index.md', 'sitemap.xml']);
  const match = headerMatcher(parseHeadersFile(formatHeadersFile(rules)));

  it('round-trips through the file format', () => {
    expect(parseHeadersFile(formatHeadersFile(rules))).toEqual(rules);
  });

  it.each([
    ['/api/v1/services/a.json', 'application/json; charset=utf-8'],
    ['/api/v1/index.json', 'application/json; charset=utf-8'],
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/servicios/a/index.md', 'text/markdown; charset=utf-8'],
    ['/sitemap.xml', 'application/xml; charset=utf-8'],
  ])('gives %s the type %s, CORS and caching once', (p, type) => {
    const h = match(p);
    expect(h['Content-Type']).toBe(type);
    expect(h['Access-Control-Allow-Origin']).toBe('*');
    expect(h['Cache-Control']).toBe('public, max-age=300, must-revalidate');
  });

  it('joins a header repeated by two matching rules, as static hosts do', () => {
    const m = headerMatcher(parseHeadersFile('/*\n  X-A: 1\n/api/*\n  x-a: 2\n'));
    expect(m('/api/x')).toEqual({ 'X-A': '1, 2' });
    expect(m('/other')).toEqual({ 'X-A': '1' });
  });
});
