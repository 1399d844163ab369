/**
 * Search without a server: the normaliser (fold, stop words, Spanish stemming), the static
 * index the build writes, and the one search implementation over it (ranking, filters, "which
 * service fits", the same answer however often it is loaded), run on the real content.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stemmer as snowballSpanish } from '@orama/stemmers/spanish';
import fc from 'fast-check';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../scripts/catalog/pipeline.ts';
import { loadSearchIndex, SEARCH_KINDS, type CatalogSearch } from '../../scripts/catalog/search/engine.ts';
import { fold, normalizeTerm, STOP_WORDS, terms, tokenize } from '../../scripts/catalog/search/normalize.ts';
import { stemSpanish } from '../../scripts/catalog/search/spanish-stemmer.ts';
import { CONTENT, ROOT, cleanupTemp, readJson, tempDir } from './helpers.ts';

const stripAccents = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '');
const spanishWord = fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzáéíóúüñÁÉÍÓÚÑ'), { minLength: 1, maxLength: 14 }).map((cs) => cs.join(''));

describe('the normaliser', () => {
  it('folds case and accents, and folding twice changes nothing', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const f = fold(s);
        expect(fold(f)).toBe(f);
        expect(f).toBe(f.toLowerCase());
        expect(f.normalize('NFD')).not.toMatch(/\p{M}/u);
      }),
    );
  });

  it('gives a word the same term whatever its accents or case', () => {
    fc.assert(
      fc.property(spanishWord, (w) => {
        expect(normalizeTerm(stripAccents(w).toUpperCase())).toBe(normalizeTerm(w));
      }),
    );
  });

  // A stem may coincide with a stop word ("sina" → "sin"); what must never happen is a stop word
  // itself becoming a term, or a term that is empty or longer than its word.
  it('drops every stop word, and never yields an empty term or one longer than its word', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.oneof(spanishWord, fc.constantFrom(...STOP_WORDS))).map((ws) => ws.join(' '))), (text) => {
        for (const w of tokenize(text)) {
          const term = normalizeTerm(w);
          if (STOP_WORDS.has(fold(w))) expect(term).toBeNull();
          else expect(term?.length ?? 0).toBeGreaterThan(0);
          expect((term ?? '').length).toBeLessThanOrEqual(fold(w).length);
        }
      }),
    );
  });

  it('keeps a word whose stem happens to be a stop word', () => {
    expect(terms('Sina sin')).toEqual(['sin']);
  });

  it.each([
    [['automatización', 'automatizacion', 'Automatizar', 'automatizaciones', 'automatizado', 'AUTOMATIZACIÓN']],
    [['integración', 'integraciones', 'integrar', 'Integracion']],
    [['servicio', 'servicios']],
    [['provincia', 'provincias']],
    [['inmobiliario', 'inmobiliaria', 'inmobiliarios']],
    [['campaña', 'campañas', 'campana']],
    [['diagnóstico', 'diagnostico']],
  ])('stems %j to one term', (words) => {
    expect(new Set(words.map(normalizeTerm)).size).toBe(1);
  });

  it('drops function words but keeps "no" and "IA"', () => {
    expect(terms('Cuándo NO usar la IA en la empresa')).toEqual(['no', 'usar', 'ia', 'empres']);
  });

  it('agrees with Snowball Spanish (@orama/stemmers) on at least 97% of the words of the content', async () => {
    const words = new Set<string>();
    for (const file of await fg('**/*.md', { cwd: CONTENT, absolute: true })) {
      for (const w of (await readFile(file, 'utf8')).toLowerCase().match(/\p{L}+/gu) ?? []) words.add(w);
    }
    // The differences are the accented verb endings left out on purpose (spanish-stemmer.ts).
    const differ = [...words].filter((w) => stemSpanish(fold(w)) !== fold(snowballSpanish(w)));
    expect(words.size).toBeGreaterThan(1000);
    expect(differ.length / words.size, differ.join(' ')).toBeLessThan(0.03);
  });
});

describe('the search module runs in a browser', () => {
  it('engine, index builder, word scanner, normaliser and stemmer import nothing but each other and minisearch', async () => {
    const dir = path.join(ROOT, 'scripts/catalog/search');
    for (const name of ['engine.ts', 'index-builder.ts', 'words.ts', 'normalize.ts', 'spanish-stemmer.ts']) {
      const source = await readFile(path.join(dir, name), 'utf8');
      const specifiers = [...source.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      for (const s of specifiers) expect(['minisearch', 'minisearch/SearchableMap', './index-builder.ts', './words.ts', './normalize.ts', './spanish-stemmer.ts'], `${name} imports ${s}`).toContain(s);
      expect(source, name).not.toMatch(/['"]node:|\bprocess\.|\brequire\(/);
    }
  });
});

describe('the static index on the real content', () => {
  let search: CatalogSearch;
  let file: { index: Parameters<typeof loadSearchIndex>[0]; document_count: number; kinds: string[] };
  let dist: string;

  beforeAll(async () => {
    dist = path.join(await tempDir(), 'dist');
    const result = await buildCatalog({ contentDir: CONTENT, outDir: dist, sourceDateEpoch: '' });
    if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3)));
    file = await readJson(path.join(dist, 'api/v1/search.json'));
    search = loadSearchIndex(file.index);
  });
  afterAll(cleanupTemp);

  it('is listed by index.json, openapi.json and llms.txt, and holds every page and FAQ', async () => {
    const index = await readJson<{ search_url: string }>(path.join(dist, 'api/v1/index.json'));
    expect(index.search_url).toBe('https://tramontanaconsultores.es/api/v1/search.json');
    const openapi = await readJson<{ paths: Record<string, { get: { operationId: string } }> }>(path.join(dist, 'api/v1/openapi.json'));
    expect(openapi.paths['/search.json']?.get.operationId).toBe('getSearchIndex');
    expect(await readFile(path.join(dist, 'llms.txt'), 'utf8')).toContain('/api/v1/search.json');
    const pages = await readJson<{ count: number }>(path.join(dist, 'api/v1/pages.json'));
    const faqs = await readJson<{ count: number }>(path.join(dist, 'api/v1/faqs.json'));
    expect(file.document_count).toBe(pages.count + faqs.count);
    expect(file.kinds).toEqual([...SEARCH_KINDS]);
  });

  it('"automatización", "automatizacion" and "automatizar" give the same ranking, led by the service', () => {
    const rankings = ['automatización', 'automatizacion', 'automatizar'].map((q) => search.search(q).map((h) => `${h.kind}:${h.slug}`));
    expect(rankings[0]?.[0]).toBe('service:ia-y-automatizacion');
    expect(rankings[1]).toEqual(rankings[0]);
    expect(rankings[2]).toEqual(rankings[0]);
  });

  it.each([
    ['cuándo no usar IA', 'insight:cuando-no-usar-ia'],
    ['captar clientes con anuncios en Meta', 'service:meta-ads'],
    ['inmobiliaria', 'sector:inmobiliario-y-gestion-de-activos'],
  ])('"%s" finds %s first', (query, first) => {
    const [top] = search.search(query);
    expect(`${top?.kind}:${top?.slug}`).toBe(first);
    expect(top?.url).toMatch(/^https:\/\/tramontanaconsultores\.es\//);
    expect(top?.json_url).toMatch(/^https:\/\/tramontanaconsultores\.es\/api\/v1\//);
  });

  it('ranks best first and returns the same answer from a fresh load', () => {
    const hits = search.search('proceso comercial y seguimiento de clientes', {}, 20);
    expect(hits.length).toBeGreaterThan(3);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]?.score).toBeGreaterThanOrEqual(hits[i]?.score ?? 0);
    expect(loadSearchIndex(structuredClone(file.index)).search('proceso comercial y seguimiento de clientes', {}, 20)).toEqual(hits);
  });

  it('filters by kind, sector and service line', () => {
    const kinds = search.search('automatización', { kinds: ['faq', 'insight'] }, 50);
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds.map((h) => h.kind))).toEqual(new Set(['faq', 'insight']));
    const line = search.search('automatización', { kinds: ['service'], service_line: 'captacion' }, 50);
    const allServices = search.search('automatización', { kinds: ['service'] }, 50);
    expect(line.length).toBeGreaterThan(0);
    expect(line.length).toBeLessThan(allServices.length);
    const stored = new Map(search.documents().map((d) => [`${d.kind}:${d.slug}`, d]));
    for (const h of line) expect(stored.get(`${h.kind}:${h.slug}`)?.service_line).toBe('captacion');
    const sector = search.search('clientes', { sector: 'automocion-y-movilidad' }, 50);
    expect(sector.length).toBeGreaterThan(0);
    for (const h of sector) expect(stored.get(`${h.kind}:${h.slug}`)?.sectors).toContain('automocion-y-movilidad');
  });

  it('finds nothing for words the catalog does not use, and for stop words alone', () => {
    expect(search.search('xylofono zzzz')).toEqual([]);
    expect(search.search('de la que el')).toEqual([]);
  });

  it('answers "which service fits" with services and the pages that led to them', () => {
    const fits = search.recommendServices('necesito conectar el ERP con el CRM y dejar de copiar datos a mano');
    expect(fits.length).toBeGreaterThan(0);
    expect(fits[0]?.slug).toBe('integraciones-y-sistemas');
    for (const f of fits) {
      expect(f.json_url).toBe(`https://tramontanaconsultores.es/api/v1/services/${f.slug}.json`);
      expect(f.url).toBe(`https://tramontanaconsultores.es/servicios/${f.slug}/`);
      expect(f.because.length).toBeGreaterThan(0);
    }
    const captacion = search.recommendServices('necesito más clientes', { service_line: 'captacion' }, 11);
    const stored = new Map(search.documents().map((d) => [d.slug, d]));
    for (const f of captacion) expect(stored.get(f.slug)?.service_line).toBe('captacion');
  });
});
