/**
 * The validated content, grouped and in its published order, with the lookups every emitter
 * needs. Built once per build; emitters only read it.
 */
import { detailFile, SERVICE_LINES } from './collections.ts';
import { docMemo } from './doc-memo.ts';
import { cmp } from './issues.ts';
import { docSitePath } from './link-check.ts';
import { apiUrl, markdownUrl, pageUrl, type Site } from './site.ts';
import type { AreaDoc, CollectionDoc, Doc, InsightDoc, OrganizationDoc, PageDoc, SectorDoc, ServiceDoc } from './validate.ts';
import type { ResourceLink } from '../../schemas/generated/types/catalog/defs.ts';


export interface Catalog {
  site: Site;
  organization: OrganizationDoc;
  services: ServiceDoc[];
  sectors: SectorDoc[];
  insights: InsightDoc[];
  areas: AreaDoc[];
  /** All published pages, indexable or not (the contact page may be either). */
  pages: PageDoc[];
  /** Newest `updated` in the content: the catalog's own date. */
  updated: string;
  link(kind: 'service' | 'sector' | 'insight', slug: string): ResourceLink;
  /** The same, or undefined when there is no such item. */
  findLink(kind: 'service' | 'sector' | 'insight', slug: string): ResourceLink | undefined;
  area(slug: string): AreaDoc;
}

const bySlug = <T extends CollectionDoc>(a: T, b: T): number => cmp(a.fm.slug, b.fm.slug);

/**
 * `previous` (watch): the last build's catalog, whose link objects are kept where they are
 * unchanged, so that what was rendered from them can be recognised as unchanged too.
 */
export function buildCatalog(docs: readonly Doc[], site: Site, previous?: Catalog): Catalog {
  const pick = <K extends Doc['kind']>(kind: K) => docs.filter((d): d is Extract<Doc, { kind: K }> => d.kind === kind);
  const organization = pick('organization')[0];
  if (!organization) throw new Error('buildCatalog needs the organization (link-check reports it missing)');
  const services = pick('service').sort(
    (a, b) => SERVICE_LINES.indexOf(a.fm.service_line) - SERVICE_LINES.indexOf(b.fm.service_line) || a.fm.order - b.fm.order || bySlug(a, b),
  );
  // Newest first, as a blog lists them; the slug breaks ties so the order never depends on input order.
  const insights = pick('insight').sort((a, b) => cmp(b.fm.published, a.fm.published) || bySlug(a, b));
  const catalog = {
    site,
    organization,
    services,
    sectors: pick('sector').sort(bySlug),
    insights,
    areas: pick('area').sort(bySlug),
    pages: pick('page').sort(bySlug),
    updated: docs.reduce((max, d) => (d.fm.updated > max ? d.fm.updated : max), '0000-00-00'),
  };
  // kind → slug → link: looked up for every reference, so no key string is built per lookup.
  const links = new Map<string, Map<string, ResourceLink>>([['service', new Map()], ['sector', new Map()], ['insight', new Map()]]);
  for (const doc of [...catalog.services, ...catalog.sectors, ...catalog.insights]) {
    const link = {
      slug: doc.fm.slug,
      title: doc.fm.title,
      url: addressesOf(site, doc).url,
      json_url: apiUrl(site, detailFile(doc.kind, doc.fm.slug)),
    };
    const before = previous?.site === site ? previous.findLink(doc.kind, doc.fm.slug) : undefined;
    const same = before && before.title === link.title && before.url === link.url && before.json_url === link.json_url;
    links.get(doc.kind)?.set(doc.fm.slug, same ? before : link);
  }
  const areas = new Map(catalog.areas.map((a) => [a.fm.slug, a]));
  return {
    ...catalog,
    link(kind, slug) {
      const found = links.get(kind)?.get(slug);
      if (!found) throw new Error(`unresolved ${kind} ${slug} (link-check should have caught it)`);
      return found;
    },
    findLink(kind, slug) {
      return links.get(kind)?.get(slug);
    },
    area(slug) {
      const found = areas.get(slug);
      if (!found) throw new Error(`unresolved area ${slug} (link-check should have caught it)`);
      return found;
    },
  };
}

export interface Addresses {
  path: string;
  url: string;
  markdown_url: string;
}

/**
 * Every emitter asks for these (resources, FAQs, pages, twins, llms.txt, the sitemap): derived
 * once per document and site, so a large site does not build and keep the same strings six times.
 * A build has one site; the addresses for another site replace them.
 */
const addressMemo = docMemo<CollectionDoc, { site: Site; at: Addresses }>('addresses');

/** The absolute addresses of a collection item: page and Markdown twin. */
export function addressesOf(site: Site, doc: CollectionDoc): Addresses {
  const known = addressMemo.get(doc);
  if (known?.site === site) return known.at;
  const path = docSitePath(doc);
  const at = { path, url: pageUrl(site, path), markdown_url: markdownUrl(site, path) };
  addressMemo.set(doc, { site, at });
  return at;
}

export function sourceOf(doc: Doc): { path: string; sha256: string } {
  return { path: doc.file, sha256: doc.sha256 };
}
