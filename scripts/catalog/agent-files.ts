/**
 * Files for crawlers and agents at the site root: llms.txt (llmstxt.org), llms-full.txt,
 * sitemap.xml (pages and JSON endpoints, lastmod from the content) and robots.txt.
 */
import { COLLECTIONS } from './collections.ts';
import { addressesOf, type Catalog } from './model.ts';
import { indexableDocs } from './resources.ts';
import { apiUrl, pageUrl } from './site.ts';
import { escapeXml, oneLine } from './text.ts';
import { twinMarkdown } from './twins.ts';
import type { CollectionDoc } from './validate.ts';

function describe(d: CollectionDoc): string {
  return oneLine(d.kind === 'page' ? d.fm.description : d.fm.summary);
}

export function llmsTxt(c: Catalog): string {
  const org = c.organization.fm;
  const out = [`# ${org.name}`, '', `> ${oneLine(org.description)}`, ''];
  out.push(`Catálogo público en JSON (solo lectura): ${apiUrl(c.site, 'index.json')}. Todo el catálogo en una petición: ${apiUrl(c.site, 'bundle.json')}.`, '');
  const docs = indexableDocs(c);
  for (const col of COLLECTIONS) {
    const entries = docs.filter((d) => d.kind === col.kind);
    if (entries.length === 0) continue;
    out.push(`## ${col.label}`, '');
    for (const d of entries) out.push(`- [${oneLine(d.fm.title)}](${addressesOf(c.site, d).markdown_url}): ${describe(d)}`);
    out.push('');
  }
  out.push('## API', '');
  out.push(`- [index.json](${apiUrl(c.site, 'index.json')}): punto de entrada con todos los recursos y sus totales`);
  out.push(`- [bundle.json](${apiUrl(c.site, 'bundle.json')}): servicios, sectores, zonas, artículos, preguntas frecuentes, páginas y organización`);
  out.push(`- [openapi.json](${apiUrl(c.site, 'openapi.json')}): descripción OpenAPI 3.1 de la API`);
  out.push(`- [search.json](${apiUrl(c.site, 'search.json')}): índice de búsqueda de texto completo, para buscar sin servidor`);
  out.push('', '## Optional', '');
  out.push(`- [llms-full.txt](${pageUrl(c.site, '/llms-full.txt')}): el texto completo de todas las páginas en Markdown`);
  return `${out.join('\n')}\n`;
}

/**
 * Every twin in llms.txt order, one after another, so one fetch gives all the text. Yielded in
 * pieces so the file never sits in memory whole; `twin` stands in for each page's twin (the
 * build passes a reference to the twin file, so each twin is rendered once for both files).
 */
export function* llmsFullTxt<T = string>(c: Catalog, twin: (d: CollectionDoc) => string | T = (d) => twinMarkdown(c, d)): Generator<string | T> {
  const org = c.organization.fm;
  yield `# ${org.name}\n\n> ${oneLine(org.description)}\n`;
  for (const d of indexableDocs(c)) {
    yield '\n---\n\n';
    yield twin(d);
  }
}

export interface SitemapEntry {
  loc: string;
  lastmod: string;
}

export function sitemapXml(entries: readonly SitemapEntry[]): string {
  const urls = entries.map((e) => `  <url>\n    <loc>${escapeXml(e.loc)}</loc>\n    <lastmod>${e.lastmod}</lastmod>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Non-indexable pages are disallowed too, so crawlers that ignore meta robots still skip them. */
export function robotsTxt(c: Catalog): string {
  const hidden = c.pages.filter((p) => !p.fm.indexable).map((p) => `Disallow: ${p.fm.path}`);
  return ['User-agent: *', 'Allow: /', ...hidden, '', `Sitemap: ${pageUrl(c.site, '/sitemap.xml')}`, ''].join('\n');
}
