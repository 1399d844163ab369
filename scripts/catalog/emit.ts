/**
 * Stage 5 (pure): the catalog → every output file, keyed by its path under dist/. JSON files
 * carry the name of the schema they must satisfy; the next stage checks them all.
 */
import type { Bundle } from '../../schemas/generated/types/catalog/bundle.ts';
import type { Index } from '../../schemas/generated/types/catalog/index.ts';
import type { Status } from '../../schemas/generated/types/catalog/status.ts';
import { llmsFullTxt, llmsTxt, robotsTxt, sitemapXml, type SitemapEntry } from './agent-files.ts';
import { detailFile } from './collections.ts';
import { BUNDLED, ENDPOINTS } from './endpoints.ts';
import { formatHeadersFile, headerRules } from './headers.ts';
import { addressesOf, type Catalog } from './model.ts';
import { openapiDocument } from './openapi.ts';
import { searchDocuments } from './search/documents.ts';
import { SEARCH_FILE, searchFile, searchFileHeader } from './search/search-file.ts';
import { schemaRegistry } from './schemas.ts';
import { organization } from './organization.ts';
import * as r from './resources.ts';
import { API_PREFIX, API_VERSION, apiUrl, pageUrl, twinFile } from './site.ts';
import { twinMarkdown, type TwinMemo } from './twins.ts';
import type { CollectionDoc } from './validate.ts';

/** `schema: null` only for openapi.json, which follows the OpenAPI 3.1 schema (checked by the tests). */
export type OutFile =
  | {
      kind: 'json';
      schema: string | null;
      value: unknown;
      /** Assemble from the already stringified items (lists, bundle) instead of stringifying again. */
      compose?: boolean;
      /**
       * The value is in no other output file, so the writer need not look at it before its turn
       * (search.json: its value is built on first access, see lazyJson).
       */
      alone?: boolean;
    }
  /**
   * Text is rendered when written, in pieces. A `{ include }` piece stands for the whole text of
   * another output file (llms-full.txt holds every twin): it is rendered once for both files.
   */
  | {
      kind: 'text';
      render: () => Iterable<TextPiece>;
      /** Holds other outputs (`{ include }` pieces): written before them, teeing each. */
      compose?: boolean;
    };
export type TextPiece = string | { include: string };
export type Outputs = Map<string, OutFile>;

export interface EmitOptions {
  /** ISO date-time for `generated_at`; the caller derives it from SOURCE_DATE_EPOCH or the content. */
  generatedAt: string;
  /** `watch`: twins rendered before, kept while nothing they depend on changes. */
  twins?: TwinMemo;
}

const api = (rel: string): string => `${API_PREFIX.slice(1)}/${rel}`;
const newest = (dates: readonly string[], fallback: string): string => dates.reduce((m, d) => (d > m ? d : m), dates.length ? '0000-00-00' : fallback);

export function emitCatalog(c: Catalog, opts: EmitOptions): Outputs {
  const out: Outputs = new Map();
  const json = (rel: string, schema: string | null, value: unknown, compose = false): void =>
    void out.set(api(rel), { kind: 'json', schema, value, ...(compose ? { compose } : {}) });
  const list = (items: readonly unknown[]) => ({ count: items.length, items });
  const sitemap: SitemapEntry[] = [];
  const mapJson = (rel: string, lastmod: string): void => void sitemap.push({ loc: apiUrl(c.site, rel), lastmod });

  const bySector = r.servicesBySector(c);
  const services = c.services.map((d) => r.service(c, d));
  const sectors = c.sectors.map((d) => r.sector(c, d, bySector));
  const insights = c.insights.map((d) => r.insight(c, d));
  const areas = c.areas.map((d) => r.area(c, d));
  const indexable = r.indexableDocs(c);
  const pages = indexable.map((d) => r.page(c, d));
  const faqs = r.faqs(c);
  const org = organization(c);

  // Each detail schema is named after its kind (schemas/catalog/service.schema.json, …).
  for (const [kind, items] of [['service', services], ['sector', sectors], ['insight', insights]] as const) {
    for (const item of items) {
      const rel = detailFile(kind, item.slug);
      json(rel, kind, item);
      mapJson(rel, item.updated);
    }
  }
  json('services.json', 'services-list', list(c.services.map((d) => r.serviceSummary(c, d))), true);
  json('sectors.json', 'sectors-list', list(c.sectors.map((d) => r.sectorSummary(c, d))), true);
  json('insights.json', 'insights-list', list(c.insights.map((d) => r.insightSummary(c, d))), true);
  json('areas.json', 'areas-list', list(areas), true);
  json('faqs.json', 'faqs-list', list(faqs), true);
  json('pages.json', 'pages-list', list(pages), true);
  json('organization.json', 'organization', org);
  for (const [rel, items] of [['services.json', services], ['sectors.json', sectors], ['insights.json', insights], ['areas.json', areas], ['faqs.json', faqs], ['pages.json', pages]] as const) {
    mapJson(rel, newest(items.map((i) => i.updated), c.updated));
  }
  mapJson('organization.json', org.updated);

  const bundle: Bundle = {
    api_version: API_VERSION, generated_at: opts.generatedAt,
    url: pageUrl(c.site, '/'), json_url: apiUrl(c.site, 'bundle.json'),
    organization: org, services, sectors, coverage: areas, articles: insights, faqs, pages,
  };
  json('bundle.json', 'bundle', bundle, true);
  json('status.json', 'status', status(c, opts, { services, sectors, areas, insights, faqs, pages }));
  json('index.json', 'index', index(c, { services, sectors, areas, insights, faqs, pages }));
  json('openapi.json', null, openapiDocument(c));
  out.set(SEARCH_FILE, lazyJson('search', () => searchFile(searchFileHeader(c), searchDocuments(c))));
  for (const rel of ['index.json', 'bundle.json', 'openapi.json', 'search.json']) mapJson(rel, c.updated);

  const text = (rel: string, render: () => Iterable<TextPiece>, compose = false): void =>
    void out.set(rel, { kind: 'text', render, ...(compose ? { compose } : {}) });
  for (const d of indexable) {
    const at = addressesOf(c.site, d);
    out.set(twinFile(at.path), twinOutput(c, d, opts.twins));
    sitemap.push({ loc: at.url, lastmod: d.fm.updated });
  }
  text('llms.txt', () => [llmsTxt(c)]);
  text('llms-full.txt', () => llmsFullTxt(c, (d) => ({ include: twinFile(addressesOf(c.site, d).path) })), true);
  text('robots.txt', () => [robotsTxt(c)]);
  // Pages first, then the JSON endpoints; each group in its own stable order.
  sitemap.sort((a, b) => Number(a.loc.includes(API_PREFIX)) - Number(b.loc.includes(API_PREFIX)));
  text('sitemap.xml', () => [sitemapXml(sitemap)]);
  const textFiles = [...out.entries()].filter(([, f]) => f.kind === 'text').map(([p]) => p);
  text('_headers', () => [formatHeadersFile(headerRules(textFiles))]);
  return out;
}

/**
 * A JSON output whose value is built the first time it is read. The full build reads it while the
 * writer threads are already compressing the files emitted before it (the output check or the
 * writer gets to it first), instead of building it on the main thread while they wait. Assigning
 * `value` (watch swaps in the last run's equal object) replaces it.
 */
function lazyJson(schema: string, build: () => unknown): OutFile {
  let value: unknown;
  let built = false;
  return {
    kind: 'json', schema, alone: true,
    get value() {
      if (!built) {
        value = build();
        built = true;
      }
      return value;
    },
    set value(v: unknown) {
      value = v;
      built = true;
    },
  };
}

function twinOutput(c: Catalog, d: CollectionDoc, memo?: TwinMemo): OutFile {
  return { kind: 'text', render: () => [twinMarkdown(c, d, memo)] };
}

/**
 * The outputs that belong to one document alone: its detail file (services, sectors, insights)
 * and its Markdown twin (indexable pages), made as emitCatalog makes them. `watch` writes these
 * first for the documents an edit touched, before the lists and the bundle.
 */
export function documentOutputs(c: Catalog, d: CollectionDoc, twins?: TwinMemo): Outputs {
  const out: Outputs = new Map();
  if (d.kind === 'service') out.set(api(detailFile('service', d.fm.slug)), { kind: 'json', schema: 'service', value: r.service(c, d) });
  if (d.kind === 'sector') out.set(api(detailFile('sector', d.fm.slug)), { kind: 'json', schema: 'sector', value: r.sector(c, d, r.servicesBySector(c)) });
  if (d.kind === 'insight') out.set(api(detailFile('insight', d.fm.slug)), { kind: 'json', schema: 'insight', value: r.insight(c, d) });
  if (d.kind !== 'page' || d.fm.indexable) out.set(twinFile(addressesOf(c.site, d).path), twinOutput(c, d, twins));
  return out;
}

interface Totals {
  services: unknown[];
  sectors: unknown[];
  areas: unknown[];
  insights: unknown[];
  faqs: unknown[];
  pages: unknown[];
}

function status(c: Catalog, opts: EmitOptions, t: Totals): Status {
  return {
    status: 'ok', api_version: API_VERSION, content_updated: c.updated, generated_at: opts.generatedAt,
    totals: { services: t.services.length, sectors: t.sectors.length, areas: t.areas.length, insights: t.insights.length, faqs: t.faqs.length, pages: t.pages.length },
    url: pageUrl(c.site, '/'), json_url: apiUrl(c.site, 'status.json'),
  };
}

function index(c: Catalog, t: Totals): Index {
  const totals: Record<string, number> = {
    getOrganization: 1, listServices: t.services.length, listSectors: t.sectors.length, listAreas: t.areas.length,
    listInsights: t.insights.length, listFaqs: t.faqs.length, listPages: t.pages.length,
  };
  const details = new Map(ENDPOINTS.filter((e) => e.slugOf).map((e) => [e.path.split('/')[1], e.path]));
  const resources = ENDPOINTS.filter((e) => e.operationId in totals).map((e) => {
    const name = e.path.slice(1, -'.json'.length);
    const detail = details.get(name);
    return {
      name, operation_id: e.operationId, path: e.path, url: apiUrl(c.site, e.path.slice(1)),
      total: totals[e.operationId] ?? 0, ...(detail ? { detail_path: detail } : {}),
      schema: `openapi.json#/components/schemas/${String(schemaRegistry().schemas.get(e.schema)?.title ?? e.schema)}`,
    };
  });
  // Counted from the files the bundle makes unnecessary, not written down: it follows the content.
  const replaced = ENDPOINTS.filter((e) => BUNDLED.has(e.operationId));
  const detailFiles = { service: t.services.length, sector: t.sectors.length, insight: t.insights.length };
  const replacesRequests = replaced.reduce((n, e) => n + (e.slugOf ? detailFiles[e.slugOf] : 1), 0);
  return {
    api_version: API_VERSION,
    name: c.organization.fm.name,
    description: c.organization.fm.description,
    site_url: pageUrl(c.site, '/'),
    base_url: apiUrl(c.site, '').replace(/\/$/, ''),
    url: pageUrl(c.site, '/'),
    json_url: apiUrl(c.site, 'index.json'),
    updated: c.updated,
    resources,
    bundle: { url: apiUrl(c.site, 'bundle.json'), replaces_requests: replacesRequests, replaces: replaced.map((e) => e.path) },
    organization_json_ld: { location: 'organization.json#/json_ld', description: 'The organization as schema.org JSON-LD is embedded in organization.json under json_ld.' },
    openapi_url: apiUrl(c.site, 'openapi.json'),
    status_url: apiUrl(c.site, 'status.json'),
    search_url: apiUrl(c.site, 'search.json'),
    agent_files: {
      llms_txt: pageUrl(c.site, '/llms.txt'), llms_full_txt: pageUrl(c.site, '/llms-full.txt'),
      sitemap: pageUrl(c.site, '/sitemap.xml'), robots_txt: pageUrl(c.site, '/robots.txt'),
    },
  };
}
