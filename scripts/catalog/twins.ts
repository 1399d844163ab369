/**
 * The Markdown twin of each indexable page: the facts from the front matter, the body and the
 * page's FAQs, readable by an agent without HTML. Headings are in the site's language.
 */
import { addressesOf, type Catalog } from './model.ts';
import { oneLine } from './text.ts';
import type { CollectionDoc } from './validate.ts';

type Section = [heading: string, lines: readonly string[]];

const bullets = (items: readonly string[]): string[] => items.map((i) => `- ${i}`);
const titled = (items: readonly { title: string; description: string }[]): string[] =>
  items.map((i) => `- **${i.title}**: ${i.description}`);
const numbered = (items: readonly { title: string; description: string }[]): string[] =>
  items.map((i, n) => `${n + 1}. **${i.title}**: ${i.description}`);

function links(c: Catalog, kind: 'service' | 'sector' | 'insight', slugs: readonly string[] | undefined): string[] {
  return (slugs ?? []).map((s) => {
    const l = c.link(kind, s);
    return `- [${l.title}](${l.url})`;
  });
}

/** The kind-specific facts, as sections; an empty list drops its section. */
function facts(c: Catalog, d: CollectionDoc): Section[] {
  switch (d.kind) {
    case 'service':
      return [
        ['Para quién', [d.fm.audience]],
        ['Problemas que resuelve', bullets(d.fm.problems)],
        ['Resultados', bullets(d.fm.outcomes)],
        ['Entregables', bullets(d.fm.deliverables)],
        ['Cómo se hace', numbered(d.fm.process_steps)],
        ['Duración habitual', [d.fm.duration]],
        ['Servicios relacionados', links(c, 'service', d.fm.related_services)],
        ['Sectores', links(c, 'sector', d.fm.sectors)],
      ];
    case 'sector':
      return [
        ['Clientes habituales', bullets(d.fm.typical_clients)],
        ['Fricciones habituales', titled(d.fm.frictions)],
        ['Qué se puede hacer', titled(d.fm.what_can_be_done)],
        ['Servicios relacionados', links(c, 'service', d.fm.related_services)],
        ['Artículos relacionados', links(c, 'insight', d.fm.related_insights)],
      ];
    case 'insight':
      return [
        ['Respuesta corta', [`**${d.fm.question}**`, '', d.fm.answer]],
        ['Puntos clave', bullets(d.fm.key_points)],
        ['Servicios relacionados', links(c, 'service', d.fm.related_services)],
        ['Sectores relacionados', links(c, 'sector', d.fm.related_sectors)],
      ];
    case 'area':
      return [
        ['Modalidad', [d.fm.modality]],
        ['Localidades', bullets(d.fm.localities ?? [])],
        ['Servicios disponibles', links(c, 'service', d.fm.services_available)],
      ];
    case 'page':
      return [];
  }
}

/**
 * Twins already rendered, for `watch`: a twin depends on its document, the site and the links it
 * looked up, so it is rendered again only when one of those is a different object. Owned by the
 * caller (a one-off build keeps none: it streams each twin once and lets it go).
 */
export type TwinMemo = WeakMap<CollectionDoc, { site: Catalog['site']; links: [kind: 'service' | 'sector' | 'insight', slug: string, link: object][]; text: string }>;

export function twinMarkdown(c: Catalog, d: CollectionDoc, memo?: TwinMemo): string {
  if (!memo) return renderTwin(c, d);
  const hit = memo.get(d);
  if (hit && hit.site === c.site && hit.links.every(([kind, slug, link]) => c.findLink(kind, slug) === link)) return hit.text;
  const links: [kind: 'service' | 'sector' | 'insight', slug: string, link: object][] = [];
  const tracked: Catalog = {
    ...c,
    link: (kind, slug) => {
      const link = c.link(kind, slug);
      links.push([kind, slug, link]);
      return link;
    },
  };
  const text = renderTwin(tracked, d);
  memo.set(d, { site: c.site, links, text });
  return text;
}

function renderTwin(c: Catalog, d: CollectionDoc): string {
  const parts: string[] = [`# ${d.fm.title}`, `> ${oneLine(d.fm.summary)}`];
  parts.push(`Fuente: ${addressesOf(c.site, d).url} · Actualizado: ${d.fm.updated}`);
  for (const [heading, lines] of facts(c, d)) {
    if (lines.length > 0) parts.push(`## ${heading}\n\n${lines.join('\n')}`);
  }
  if (d.body) parts.push(d.body);
  const faqs = d.fm.faqs ?? [];
  if (faqs.length > 0) {
    parts.push(`## Preguntas frecuentes\n\n${faqs.map((f) => `### ${f.question}\n\n${f.answer}`).join('\n\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}
