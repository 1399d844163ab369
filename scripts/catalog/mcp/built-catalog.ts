/**
 * A built dist/ as the MCP server reads it: the bundle (every resource in full), the search
 * index, and the list of API and Markdown files. Read again whenever the files it came from
 * change (a rebuild swaps dist/ or rewrites them), checked with a `stat` on each use, so a
 * long-running server follows `npm run build` and `--watch` without a restart.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Bundle } from '../../../schemas/generated/types/catalog/bundle.ts';
import type { Index } from '../../../schemas/generated/types/catalog/index.ts';
import { loadSearchIndex, type CatalogSearch } from '../search/engine.ts';

export const RESOURCE_KINDS = ['service', 'sector', 'insight', 'area', 'page', 'faq'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** What get and list answer with, per kind: the resource in full, keyed by slug (a FAQ: its id). */
export type Resource = Record<string, unknown> & { url: string };

export interface CatalogFile {
  /** POSIX path under dist/. */
  rel: string;
  /** Its public address: the MCP resource URI. */
  uri: string;
  mimeType: string;
}

export interface CatalogSnapshot {
  siteUrl: string;
  byKind: ReadonlyMap<ResourceKind, ReadonlyMap<string, Resource>>;
  search: CatalogSearch;
  files: readonly CatalogFile[];
  fileByUri: ReadonlyMap<string, CatalogFile>;
  /** Sector slugs and service-line ids, to check filters against. */
  sectors: readonly string[];
  serviceLines: readonly string[];
}

const SOURCES = ['api/v1/index.json', 'api/v1/bundle.json', 'api/v1/search.json'];

function listFiles(dist: string, siteUrl: string): CatalogFile[] {
  const out: CatalogFile[] = [];
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(dist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const isApi = rel.startsWith('api/') && rel.endsWith('.json');
    if (!isApi && !rel.endsWith('.md')) continue;
    out.push({ rel, uri: new URL(rel, siteUrl).href, mimeType: isApi ? 'application/json' : 'text/markdown' });
  }
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

function read(dist: string): CatalogSnapshot {
  const json = <T>(rel: string): T => JSON.parse(readFileSync(path.join(dist, rel), 'utf8')) as T;
  const index = json<Index>('api/v1/index.json');
  const bundle = json<Bundle>('api/v1/bundle.json');
  const searchFile = json<{ index: Parameters<typeof loadSearchIndex>[0] }>('api/v1/search.json');
  const keyed = (items: readonly Resource[], key: (r: Resource) => string): Map<string, Resource> => new Map(items.map((r) => [key(r), r]));
  const bySlug = (r: Resource): string => String(r.slug);
  const byKind = new Map<ResourceKind, Map<string, Resource>>([
    ['service', keyed(bundle.services as unknown as Resource[], bySlug)],
    ['sector', keyed(bundle.sectors as unknown as Resource[], bySlug)],
    ['insight', keyed(bundle.articles as unknown as Resource[], bySlug)],
    ['area', keyed(bundle.coverage as unknown as Resource[], bySlug)],
    ['page', keyed((bundle.pages as unknown as Resource[]).filter((p) => p.kind === 'page'), bySlug)],
    ['faq', keyed(bundle.faqs as unknown as Resource[], (r) => String(r.id))],
  ]);
  const files = listFiles(dist, index.site_url);
  return {
    siteUrl: index.site_url,
    byKind,
    search: loadSearchIndex(searchFile.index),
    files,
    fileByUri: new Map(files.map((f) => [f.uri, f])),
    sectors: bundle.sectors.map((s) => s.slug),
    serviceLines: [...new Set(bundle.services.map((s) => s.service_line))].sort(),
  };
}

export interface BuiltCatalog {
  dist: string;
  /** The current snapshot; throws with a readable message when dist/ holds no build. */
  current(): CatalogSnapshot;
  readFile(file: CatalogFile): string;
}

export function openBuiltCatalog(dir: string): BuiltCatalog {
  const dist = path.resolve(dir);
  let key = '';
  let snapshot: CatalogSnapshot | undefined;
  return {
    dist,
    current() {
      const stats = SOURCES.map((rel) => statSync(path.join(dist, rel), { throwIfNoEntry: false }));
      if (stats.some((s) => !s)) {
        throw new Error(`No built catalog in ${dist} (missing ${SOURCES.filter((_, i) => !stats[i]).join(', ')}): run \`npm run build\` first.`);
      }
      const now = stats.map((s) => `${s?.ino}:${s?.size}:${s?.mtimeMs}`).join('|');
      if (!snapshot || now !== key) {
        snapshot = read(dist);
        key = now;
      }
      return snapshot;
    },
    readFile(file) {
      return readFileSync(path.join(dist, file.rel), 'utf8');
    },
  };
}
