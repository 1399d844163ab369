/**
 * The value of `api/v1/search.json`: a header that says what the file is, then the index. Pure:
 * the build makes it on its side thread (side-worker.ts), `build --watch` in its own pass,
 * from the same documents, so both give the same bytes.
 */
import type { Catalog } from '../model.ts';
import { API_PREFIX, API_VERSION, apiUrl, pageUrl } from '../site.ts';
import { buildSearchIndex, FIELD_BOOST, SEARCH_KINDS, type SearchDocument } from './engine.ts';

/** The file's path under dist/. */
export const SEARCH_FILE = `${API_PREFIX.slice(1)}/search.json`;

/** What the header says, from the catalog (the documents carry the rest). */
export interface SearchFileHeader {
  api_version: string;
  url: string;
  json_url: string;
}

export function searchFileHeader(c: Catalog): SearchFileHeader {
  return { api_version: API_VERSION, url: pageUrl(c.site, '/'), json_url: apiUrl(c.site, 'search.json') };
}

/** The whole value, in the order of its schema (schemas/catalog/search.schema.json). */
export function searchFile(header: SearchFileHeader, docs: readonly SearchDocument[]) {
  return {
    ...header,
    engine: 'minisearch' as const,
    kinds: [...SEARCH_KINDS],
    field_boost: { ...FIELD_BOOST },
    document_count: docs.length,
    index: buildSearchIndex(docs),
  };
}
