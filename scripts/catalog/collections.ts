/**
 * The content kinds as data: where their files live, which schema checks their front matter,
 * where their page lives on the website and where their detail files live under /api/v1.
 * Adding a kind is one entry here plus its schemas, its resource shape (resources.ts) and its
 * outputs (emit.ts).
 */
export type CollectionKind = 'service' | 'sector' | 'insight' | 'area' | 'page';
export type ContentKind = CollectionKind | 'organization';

export interface Collection {
  kind: CollectionKind;
  /** Folder under content/. */
  dir: string;
  /** Front-matter schema name in schemas/catalog/. */
  schema: string;
  /** Website folder of its pages; pages carry their own `path` instead. */
  sitePrefix: string | null;
  /** Folder of its detail files under /api/v1, for kinds that have a detail form. */
  detailDir: string | null;
  /** Heading used for this kind in llms.txt (the site is in Spanish). */
  label: string;
}

export const COLLECTIONS: readonly Collection[] = [
  { kind: 'service', dir: 'services', schema: 'frontmatter-service', sitePrefix: '/servicios/', detailDir: 'services', label: 'Servicios' },
  { kind: 'sector', dir: 'sectors', schema: 'frontmatter-sector', sitePrefix: '/sectores/', detailDir: 'sectors', label: 'Sectores' },
  { kind: 'insight', dir: 'insights', schema: 'frontmatter-insight', sitePrefix: '/insights/', detailDir: 'insights', label: 'Insights' },
  { kind: 'area', dir: 'areas', schema: 'frontmatter-area', sitePrefix: '/zonas/', detailDir: null, label: 'Zonas' },
  { kind: 'page', dir: 'pages', schema: 'frontmatter-page', sitePrefix: null, detailDir: null, label: 'Páginas' },
];

/** The two service lines, in the order the website shows them. */
export const SERVICE_LINES = ['captacion', 'sistemas'] as const;

export const ORGANIZATION_FILE = 'organization.md';
export const ORGANIZATION_SCHEMA = 'frontmatter-organization';

const BY_DIR = new Map(COLLECTIONS.map((c) => [c.dir, c]));
const BY_KIND = new Map(COLLECTIONS.map((c) => [c.kind, c]));

export function collectionOf(kind: CollectionKind): Collection {
  const c = BY_KIND.get(kind);
  if (!c) throw new Error(`unknown collection kind ${kind}`);
  return c;
}

/** Which kind a path relative to content/ belongs to, and the slug its file name implies. */
export function classify(relPath: string): { kind: ContentKind; fileSlug: string } | null {
  if (relPath === ORGANIZATION_FILE) return { kind: 'organization', fileSlug: 'organization' };
  const parts = relPath.split('/');
  if (parts.length !== 2) return null;
  const [dir, name] = parts as [string, string];
  const c = BY_DIR.get(dir);
  if (!c || !name.endsWith('.md')) return null;
  return { kind: c.kind, fileSlug: name.slice(0, -'.md'.length) };
}

/** The detail file of an item under /api/v1 (`services/meta-ads.json`): its json_url and its file. */
export function detailFile(kind: CollectionKind, slug: string): string {
  const dir = collectionOf(kind).detailDir;
  if (dir === null) throw new Error(`${kind} has no detail file`);
  return `${dir}/${slug}.json`;
}

/** The website address (path) of a collection item; pages pass their own `path`. */
export function sitePath(kind: CollectionKind, slug: string, pagePath?: string): string {
  const prefix = collectionOf(kind).sitePrefix;
  if (prefix === null) return pagePath ?? '/';
  return `${prefix}${slug}/`;
}
