/**
 * THE search over the catalog: one implementation for the MCP server and for any static
 * consumer (a browser page, an agent) that loads `/api/v1/search.json`. Same index and same
 * query → same results in the same order, wherever it runs: scores are rounded before sorting
 * and ties go to the document id, so a last-bit difference in Math.log between engines cannot
 * reorder them. No node:* imports (test/catalog/search.test.ts checks).
 *
 * Ranking is MiniSearch's BM25 over five fields, boosted by where a word is found; terms are
 * folded and stemmed (normalize.ts), the last word of a query also matches as a prefix (search as
 * you type) and longer words forgive one typo.
 */
import MiniSearch, { type AsPlainObject, type SearchResult } from 'minisearch';
import { buildMiniSearchJson } from './index-builder.ts';
import { normalizeTerm, tokenize } from './normalize.ts';

export const SEARCH_KINDS = ['service', 'sector', 'insight', 'area', 'page', 'faq'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Indexed fields and how much a match in each counts. */
export const FIELD_BOOST = { title: 4, summary: 2, answer: 2, questions: 2, body: 1 } as const;
export const SEARCH_FIELDS = Object.keys(FIELD_BOOST) as (keyof typeof FIELD_BOOST)[];
/** Kept in the index to answer with and to filter on. */
export const STORED_FIELDS = ['kind', 'slug', 'title', 'description', 'url', 'json_url', 'sectors', 'service_line', 'services'] as const;

/** One searchable document: a page of the site, or one FAQ (which answers on its own). */
export interface SearchDocument {
  /** `kind:slug`, unique. */
  id: string;
  kind: SearchKind;
  slug: string;
  title: string;
  /** Shown with a result: the page's summary, or for a FAQ the title of its page. Not searched. */
  description: string;
  /** The page's summary, searched (empty for a FAQ, whose page title would match every FAQ of it). */
  summary: string;
  /** An insight's question and short answer, a FAQ's answer. */
  answer: string;
  /** The questions of the page's FAQs. */
  questions: string;
  body: string;
  url: string;
  /** The JSON holding it (its detail file, or the list it is in). */
  json_url: string;
  /** Sector slugs it concerns: a service's sectors, a sector itself, an article's related sectors. */
  sectors: string[];
  service_line: string | null;
  /** Service slugs it leads to: itself, or the services it recommends or offers. */
  services: string[];
}

export interface SearchFilters {
  kinds?: readonly SearchKind[];
  sector?: string;
  service_line?: string;
}

export interface SearchHit {
  kind: SearchKind;
  slug: string;
  title: string;
  description: string;
  url: string;
  json_url: string;
  score: number;
  /** The index terms that matched (folded, stemmed). */
  matched: string[];
}

export interface ServiceMatch {
  slug: string;
  title: string;
  description: string;
  url: string;
  json_url: string;
  score: number;
  /** The documents that led to it, best first (at most three). */
  because: { kind: SearchKind; slug: string; title: string; url: string }[];
}

type Stored = Pick<SearchDocument, (typeof STORED_FIELDS)[number]>;

export const SEARCH_OPTIONS = {
  fields: SEARCH_FIELDS,
  storeFields: [...STORED_FIELDS],
  // Letters and digits stay together; everything else separates words. The build's index
  // builder finds the same words in place (words.ts).
  tokenize: (text: string) => tokenize(text),
  processTerm: (term: string) => normalizeTerm(term),
};

/** The build's side: documents → the index object written to search.json. */
export function buildSearchIndex(docs: readonly SearchDocument[]): AsPlainObject {
  return buildMiniSearchJson(docs, SEARCH_OPTIONS);
}

export interface CatalogSearch {
  search(query: string, filters?: SearchFilters, limit?: number): SearchHit[];
  recommendServices(need: string, filters?: Omit<SearchFilters, 'kinds'>, limit?: number): ServiceMatch[];
  /** Every document's stored fields, in index order. */
  documents(): Stored[];
}

const round = (score: number): number => Math.round(score * 1e4) / 1e4;

/** The consumer's side: the `index` of search.json → a search over it. */
export function loadSearchIndex(index: AsPlainObject): CatalogSearch {
  const ms = MiniSearch.loadJSON<SearchDocument>(JSON.stringify(index), SEARCH_OPTIONS);
  const ids = Object.values(index.documentIds) as string[];
  const stored = (id: string): Stored => ms.getStoredFields(id) as unknown as Stored;

  function run(query: string, filters: SearchFilters): { stored: Stored; score: number; matched: string[] }[] {
    const kinds = filters.kinds && filters.kinds.length > 0 ? new Set(filters.kinds) : null;
    const results = ms.search(query, {
      boost: FIELD_BOOST,
      combineWith: 'OR',
      prefix: (term, i, all) => i === all.length - 1 && term.length >= 3,
      fuzzy: (term) => (term.length >= 6 ? 1 : false),
      filter: (r: SearchResult) => {
        const s = r as unknown as Stored;
        if (kinds && !kinds.has(s.kind)) return false;
        if (filters.sector && !s.sectors.includes(filters.sector)) return false;
        if (filters.service_line && s.service_line !== filters.service_line) return false;
        return true;
      },
    });
    return results
      .map((r) => ({ stored: stored(String(r.id)), id: String(r.id), score: round(r.score), matched: [...r.terms].sort() }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  return {
    search(query, filters = {}, limit = 10) {
      return run(query, filters)
        .slice(0, limit)
        .map(({ stored: s, score, matched }) => ({ kind: s.kind, slug: s.slug, title: s.title, description: s.description, url: s.url, json_url: s.json_url, score, matched }));
    },

    recommendServices(need, filters = {}, limit = 3) {
      // A service found itself counts whole; a FAQ of its page nearly so; an article, sector or
      // area that recommends it, half: they speak of the need, the service is the answer.
      const weight = (s: Stored): number => (s.kind === 'service' ? 1 : s.kind === 'faq' && s.service_line !== null ? 0.75 : 0.5);
      const totals = new Map<string, { score: number; because: ServiceMatch['because'] }>();
      for (const hit of run(need, { sector: filters.sector })) {
        for (const slug of hit.stored.services) {
          const t = totals.get(slug) ?? { score: 0, because: [] };
          t.score += hit.score * weight(hit.stored);
          if (t.because.length < 3) t.because.push({ kind: hit.stored.kind, slug: hit.stored.slug, title: hit.stored.title, url: hit.stored.url });
          totals.set(slug, t);
        }
      }
      const out: ServiceMatch[] = [];
      for (const [slug, t] of totals) {
        if (!ms.has(`service:${slug}`)) continue;
        const s = stored(`service:${slug}`);
        if (filters.service_line && s.service_line !== filters.service_line) continue;
        out.push({ slug, title: s.title, description: s.description, url: s.url, json_url: s.json_url, score: round(t.score), because: t.because });
      }
      return out.sort((a, b) => b.score - a.score || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)).slice(0, limit);
    },

    documents() {
      return ids.map(stored);
    },
  };
}
