/**
 * The catalog → the documents of the search index: every indexable page (standalone pages,
 * services, sectors, articles, areas) and every FAQ on its own, so a question finds its answer
 * directly. "Body" holds what the page says beyond its title and summary: the body text and the
 * kind's facts (a service's problems, outcomes and deliverables; a sector's frictions…), which are
 * what a need is usually described with.
 */
import { detailFile } from '../collections.ts';
import { addressesOf, type Catalog } from '../model.ts';
import { indexableDocs, pageFaqs } from '../resources.ts';
import { apiUrl } from '../site.ts';
import type { CollectionDoc } from '../validate.ts';
import type { SearchDocument } from './engine.ts';

const titled = (items: readonly { title: string; description: string }[]): string[] => items.flatMap((i) => [i.title, i.description]);
/**
 * Link targets are addresses, not words of the page; nor are HTML tags. Each replace is a pass
 * over the whole body, so it runs only when the body has what it removes (most bodies hold no
 * tag at all): the same text either way.
 */
const prose = (markdown: string): string => {
  const unlinked = markdown.includes('](') ? markdown.replace(/\]\([^)]*\)/g, ']') : markdown;
  return unlinked.includes('<') ? unlinked.replace(/<[^>]+>/g, ' ') : unlinked;
};

function facts(d: CollectionDoc): string[] {
  switch (d.kind) {
    case 'service':
      return [d.fm.audience, ...d.fm.problems, ...d.fm.outcomes, ...d.fm.deliverables, ...titled(d.fm.process_steps), ...(d.fm.keywords ?? [])];
    case 'sector':
      return [...d.fm.typical_clients, ...titled(d.fm.frictions), ...titled(d.fm.what_can_be_done)];
    case 'insight':
      return [...d.fm.key_points, ...d.fm.tags];
    case 'area':
      return [d.fm.name, ...(d.fm.region ? [d.fm.region] : []), ...(d.fm.localities ?? [])];
    case 'page':
      return [];
  }
}

function links(d: CollectionDoc): { sectors: string[]; service_line: string | null; services: string[] } {
  switch (d.kind) {
    case 'service':
      return { sectors: [...d.fm.sectors], service_line: d.fm.service_line, services: [d.fm.slug] };
    case 'sector':
      return { sectors: [d.fm.slug], service_line: null, services: [...d.fm.related_services] };
    case 'insight':
      return { sectors: [...(d.fm.related_sectors ?? [])], service_line: null, services: [...d.fm.related_services] };
    case 'area':
      return { sectors: [], service_line: null, services: [...d.fm.services_available] };
    case 'page':
      return { sectors: [], service_line: null, services: [] };
  }
}

export function searchDocuments(c: Catalog): SearchDocument[] {
  const docs: SearchDocument[] = [];
  const faqsUrl = apiUrl(c.site, 'faqs.json');
  for (const d of indexableDocs(c)) {
    const at = addressesOf(c.site, d);
    const hasDetail = d.kind === 'service' || d.kind === 'sector' || d.kind === 'insight';
    const linked = links(d);
    const faqs = d.fm.faqs ?? [];
    docs.push({
      id: `${d.kind}:${d.fm.slug}`,
      kind: d.kind,
      slug: d.fm.slug,
      title: d.fm.title,
      description: d.kind === 'page' ? d.fm.description : d.fm.summary,
      summary: d.kind === 'page' ? d.fm.description : d.fm.summary,
      answer: d.kind === 'insight' ? `${d.fm.question} ${d.fm.answer}` : '',
      questions: faqs.map((f) => f.question).join('\n'),
      body: [...facts(d), prose(d.body)].join('\n'),
      url: at.url,
      json_url: hasDetail ? apiUrl(c.site, detailFile(d.kind, d.fm.slug)) : d.kind === 'area' ? apiUrl(c.site, 'areas.json') : apiUrl(c.site, 'pages.json'),
      ...linked,
    });
    // The ids faqs.json already gives them (a hash of each question, worked out once per document).
    for (const { id, question, answer } of pageFaqs(d)) {
      docs.push({
        id: `faq:${id}`,
        kind: 'faq',
        slug: id,
        title: question,
        description: d.fm.title,
        summary: '',
        answer,
        questions: '',
        body: '',
        url: at.url,
        json_url: faqsUrl,
        // A FAQ speaks for its page: the same sectors, line and services.
        ...linked,
      });
    }
  }
  return docs;
}
