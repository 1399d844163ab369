/**
 * THE endpoint table of /api/v1: operation ids, paths and response schemas, as data. openapi.json,
 * index.json and the sitemap are all derived from it.
 */
export interface Endpoint {
  operationId: string;
  /** Relative to /api/v1. Detail endpoints carry `{slug}`. */
  path: string;
  /** Response schema name in schemas/catalog/. */
  schema: string;
  summary: string;
  /** For detail endpoints: which kind's slugs the `{slug}` takes. */
  slugOf?: 'service' | 'sector' | 'insight';
}

export const ENDPOINTS: readonly Endpoint[] = [
  { operationId: 'getRoot', path: '/index.json', schema: 'index', summary: 'Entry point: every resource with its path and total' },
  { operationId: 'getStatus', path: '/status.json', schema: 'status', summary: 'Indicates that the API is serving' },
  { operationId: 'getOrganization', path: '/organization.json', schema: 'organization', summary: 'The organization, with its schema.org JSON-LD' },
  { operationId: 'listServices', path: '/services.json', schema: 'services-list', summary: 'Services of both service lines' },
  { operationId: 'getServicesBySlug', path: '/services/{slug}.json', schema: 'service', summary: 'One service in full', slugOf: 'service' },
  { operationId: 'listSectors', path: '/sectors.json', schema: 'sectors-list', summary: 'Sectors served' },
  { operationId: 'getSectorsBySlug', path: '/sectors/{slug}.json', schema: 'sector', summary: 'One sector in full', slugOf: 'sector' },
  { operationId: 'listAreas', path: '/areas.json', schema: 'areas-list', summary: 'Geographic coverage areas' },
  { operationId: 'listInsights', path: '/insights.json', schema: 'insights-list', summary: 'Articles' },
  { operationId: 'getInsightsBySlug', path: '/insights/{slug}.json', schema: 'insight', summary: 'One article in full', slugOf: 'insight' },
  { operationId: 'listFaqs', path: '/faqs.json', schema: 'faqs-list', summary: 'Every FAQ with its page of origin' },
  { operationId: 'listPages', path: '/pages.json', schema: 'pages-list', summary: 'Indexable pages and their Markdown versions' },
  { operationId: 'getBundle', path: '/bundle.json', schema: 'bundle', summary: 'The whole catalog in one request' },
  { operationId: 'getSearchIndex', path: '/search.json', schema: 'search', summary: 'A static full-text search index of the catalog, for searching without a server' },
];

/** The endpoints whose content bundle.json carries, so a client that reads the bundle skips them. */
export const BUNDLED = new Set(['getOrganization', 'listServices', 'getServicesBySlug', 'listSectors', 'getSectorsBySlug', 'listAreas', 'listInsights', 'getInsightsBySlug', 'listFaqs', 'listPages']);
