/**
 * Content documents → API resources, typed by the types generated from schemas/catalog. Field
 * order here is the order in the JSON files, fixed, so output bytes never depend on input order.
 */
import { createHash } from 'node:crypto';
import type { Area } from '../../schemas/generated/types/catalog/area.ts';
import type { PageFaq, ResourceLink, TitledItem } from '../../schemas/generated/types/catalog/defs.ts';
import type { Faq } from '../../schemas/generated/types/catalog/faq.ts';
import type { Insight } from '../../schemas/generated/types/catalog/insight.ts';
import type { InsightSummary } from '../../schemas/generated/types/catalog/insight-summary.ts';
import type { Page } from '../../schemas/generated/types/catalog/page.ts';
import type { Sector } from '../../schemas/generated/types/catalog/sector.ts';
import type { SectorSummary } from '../../schemas/generated/types/catalog/sector-summary.ts';
import type { Service } from '../../schemas/generated/types/catalog/service.ts';
import type { ServiceSummary } from '../../schemas/generated/types/catalog/service-summary.ts';
import { docMemo } from './doc-memo.ts';
import { addressesOf, sourceOf, type Catalog } from './model.ts';
import { apiUrl } from './site.ts';
import { readingMinutes, wordCount } from './text.ts';
import type { AreaDoc, CollectionDoc, InsightDoc, SectorDoc, ServiceDoc } from './validate.ts';

export function faqId(doc: CollectionDoc, question: string): string {
  const hash = createHash('sha256').update(question.trim()).digest('hex').slice(0, 10);
  return `${doc.kind}.${doc.fm.slug}.${hash}`;
}

/** Rebuilt field by field: YAML keeps the editor's key order, the output has a fixed one. */
function titled(items: readonly TitledItem[]): TitledItem[] {
  return items.map((i) => ({ title: i.title, description: i.description }));
}

/**
 * What a document alone decides, derived once per document object: `watch` keeps unchanged
 * documents across rebuilds, so their word counts and FAQ ids are not computed again (and the
 * same objects come out, which makes comparing a rebuild's output with the last one cheap).
 */
type OwnFields = { faqs: PageFaq[]; body: { body_markdown: string; word_count: number; reading_time_minutes: number } };
const ownFields = docMemo<CollectionDoc, OwnFields>('fields of its own');

function own(doc: CollectionDoc): OwnFields {
  const known = ownFields.get(doc);
  if (known) return known;
  const words = wordCount(doc.body);
  return ownFields.set(doc, {
    faqs: (doc.fm.faqs ?? []).map((f) => ({ id: faqId(doc, f.question), question: f.question, answer: f.answer })),
    body: { body_markdown: doc.body, word_count: words, reading_time_minutes: readingMinutes(words) },
  });
}

/** A page's FAQs with their ids, as every output gives them (derived once per document). */
export function pageFaqs(doc: CollectionDoc): PageFaq[] {
  return own(doc).faqs;
}

function bodyFields(doc: CollectionDoc): { body_markdown: string; word_count: number; reading_time_minutes: number } {
  return own(doc).body;
}

function lineName(c: Catalog, id: string): string {
  return c.organization.fm.service_lines.find((l) => l.id === id)?.name ?? id;
}

export function serviceSummary(c: Catalog, d: ServiceDoc): ServiceSummary {
  const self = c.link('service', d.fm.slug);
  return {
    slug: d.fm.slug, title: d.fm.title, summary: d.fm.summary,
    service_line: d.fm.service_line, service_line_name: lineName(c, d.fm.service_line), order: d.fm.order,
    duration: d.fm.duration, url: self.url, json_url: self.json_url, updated: d.fm.updated, source: sourceOf(d),
  };
}

export function service(c: Catalog, d: ServiceDoc): Service {
  return {
    ...serviceSummary(c, d),
    markdown_url: addressesOf(c.site, d).markdown_url,
    ...(d.fm.published ? { published: d.fm.published } : {}),
    audience: d.fm.audience,
    problems: d.fm.problems, outcomes: d.fm.outcomes, deliverables: d.fm.deliverables,
    process_steps: titled(d.fm.process_steps),
    related_services: d.fm.related_services.map((s) => c.link('service', s)),
    sectors: d.fm.sectors.map((s) => c.link('sector', s)),
    keywords: d.fm.keywords ?? [],
    faqs: pageFaqs(d),
    ...bodyFields(d),
  };
}

export function sectorSummary(c: Catalog, d: SectorDoc): SectorSummary {
  const self = c.link('sector', d.fm.slug);
  return {
    slug: d.fm.slug, title: d.fm.title, summary: d.fm.summary, typical_clients: d.fm.typical_clients,
    url: self.url, json_url: self.json_url, updated: d.fm.updated, source: sourceOf(d),
  };
}

/** `servicesBySector` is the reverse of each service's `sectors`, computed once by the caller. */
export function sector(c: Catalog, d: SectorDoc, servicesBySector: ReadonlyMap<string, ResourceLink[]>): Sector {
  return {
    ...sectorSummary(c, d),
    markdown_url: addressesOf(c.site, d).markdown_url,
    ...(d.fm.published ? { published: d.fm.published } : {}),
    frictions: titled(d.fm.frictions),
    what_can_be_done: titled(d.fm.what_can_be_done),
    related_services: d.fm.related_services.map((s) => c.link('service', s)),
    related_insights: (d.fm.related_insights ?? []).map((s) => c.link('insight', s)),
    services: servicesBySector.get(d.fm.slug) ?? [],
    faqs: pageFaqs(d),
    ...bodyFields(d),
  };
}

export function servicesBySector(c: Catalog): Map<string, ResourceLink[]> {
  const out = new Map<string, ResourceLink[]>();
  for (const s of c.services) {
    for (const slug of s.fm.sectors) {
      const list = out.get(slug) ?? [];
      list.push(c.link('service', s.fm.slug));
      out.set(slug, list);
    }
  }
  return out;
}

export function insightSummary(c: Catalog, d: InsightDoc): InsightSummary {
  const self = c.link('insight', d.fm.slug);
  return {
    slug: d.fm.slug, title: d.fm.title, summary: d.fm.summary, question: d.fm.question, answer: d.fm.answer,
    author: d.fm.author, tags: d.fm.tags, published: d.fm.published as string,
    url: self.url, json_url: self.json_url, updated: d.fm.updated, source: sourceOf(d),
  };
}

export function insight(c: Catalog, d: InsightDoc): Insight {
  return {
    ...insightSummary(c, d),
    markdown_url: addressesOf(c.site, d).markdown_url,
    key_points: d.fm.key_points,
    related_services: d.fm.related_services.map((s) => c.link('service', s)),
    related_sectors: (d.fm.related_sectors ?? []).map((s) => c.link('sector', s)),
    faqs: pageFaqs(d),
    ...bodyFields(d),
  };
}

export function area(c: Catalog, d: AreaDoc): Area {
  const at = addressesOf(c.site, d);
  return {
    slug: d.fm.slug, name: d.fm.name, title: d.fm.title, summary: d.fm.summary,
    area_type: d.fm.area_type, ...(d.fm.region ? { region: d.fm.region } : {}), modality: d.fm.modality,
    localities: d.fm.localities ?? [],
    services_available: d.fm.services_available.map((s) => c.link('service', s)),
    url: at.url, json_url: apiUrl(c.site, 'areas.json'), markdown_url: at.markdown_url,
    faqs: pageFaqs(d),
    ...(d.fm.published ? { published: d.fm.published } : {}),
    ...bodyFields(d),
    updated: d.fm.updated, source: sourceOf(d),
  };
}

/**
 * Every page an agent may index, in site order: the standalone pages first (by path), then
 * services, sectors, insights and areas in their list order.
 */
export function indexableDocs(c: Catalog): CollectionDoc[] {
  const pages = c.pages.filter((p) => p.fm.indexable).sort((a, b) => (a.fm.path < b.fm.path ? -1 : a.fm.path > b.fm.path ? 1 : 0));
  return [...pages, ...c.services, ...c.sectors, ...c.insights, ...c.areas];
}

export function page(c: Catalog, d: CollectionDoc): Page {
  const at = addressesOf(c.site, d);
  const hasDetail = d.kind === 'service' || d.kind === 'sector' || d.kind === 'insight';
  return {
    kind: d.kind, slug: d.fm.slug, title: d.fm.title,
    description: d.kind === 'page' ? d.fm.description : d.fm.summary,
    url: at.url, markdown_url: at.markdown_url,
    ...(hasDetail ? { json_url: c.link(d.kind, d.fm.slug).json_url } : {}),
    updated: d.fm.updated, source: sourceOf(d),
  };
}

/** Every FAQ of every indexable page, in page order, then in the order the page asks them. */
export function faqs(c: Catalog): Faq[] {
  const out: Faq[] = [];
  const listUrl = apiUrl(c.site, 'faqs.json');
  for (const d of indexableDocs(c)) {
    const at = addressesOf(c.site, d);
    const origin = { kind: d.kind, slug: d.fm.slug, title: d.fm.title, url: at.url };
    for (const f of pageFaqs(d)) {
      out.push({
        id: f.id, question: f.question, answer: f.answer,
        url: at.url, json_url: listUrl, page: origin, updated: d.fm.updated, source: sourceOf(d),
      });
    }
  }
  return out;
}
