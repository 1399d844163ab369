/**
 * Stage 4 (pure): whole-set checks that no single file can make on its own: duplicate slugs and
 * page addresses, references to slugs or pages that do not exist, and site links in bodies.
 * Everything is looked up in maps built once, so the cost grows with the content, not its square.
 */
import { SERVICE_LINES, sitePath, type CollectionKind } from './collections.ts';
import { docMemo } from './doc-memo.ts';
import { cmp, issue, type Issue } from './issues.ts';
import type { CollectionDoc, Doc, OrganizationDoc } from './validate.ts';

/** A slug the build knows of but leaves out (a draft), so references to it can say why. */
export interface DraftRef {
  kind: CollectionKind;
  slug: string;
  file: string;
}

interface RefRule {
  from: Doc['kind'];
  field: string;
  to: CollectionKind;
  read(doc: Doc): readonly string[] | undefined;
}

/** Every slug reference in the content contract, as data. */
const REF_RULES: readonly RefRule[] = [
  { from: 'service', field: 'related_services', to: 'service', read: (d) => (d.kind === 'service' ? d.fm.related_services : undefined) },
  { from: 'service', field: 'sectors', to: 'sector', read: (d) => (d.kind === 'service' ? d.fm.sectors : undefined) },
  { from: 'sector', field: 'related_services', to: 'service', read: (d) => (d.kind === 'sector' ? d.fm.related_services : undefined) },
  { from: 'sector', field: 'related_insights', to: 'insight', read: (d) => (d.kind === 'sector' ? d.fm.related_insights : undefined) },
  { from: 'insight', field: 'related_services', to: 'service', read: (d) => (d.kind === 'insight' ? d.fm.related_services : undefined) },
  { from: 'insight', field: 'related_sectors', to: 'sector', read: (d) => (d.kind === 'insight' ? d.fm.related_sectors : undefined) },
  { from: 'area', field: 'services_available', to: 'service', read: (d) => (d.kind === 'area' ? d.fm.services_available : undefined) },
  { from: 'organization', field: 'coverage', to: 'area', read: (d) => (d.kind === 'organization' ? d.fm.coverage : undefined) },
];

export function docSitePath(doc: CollectionDoc): string {
  return sitePath(doc.kind, doc.fm.slug, doc.kind === 'page' ? doc.fm.path : undefined);
}

/** A file that exists but failed validation: it still owns its slug and its address. */
export interface PresentRef extends DraftRef {
  path: string | null;
  /**
   * What its file name would give it, when its front matter says otherwise (a slug changed
   * without renaming the file): references to these are broken by that file's own problem, and
   * are reported under it (Issue.causedBy) rather than as problems of their own.
   */
  named?: { slug: string; path: string | null };
}

/**
 * `present` lists the files that exist but failed to parse or validate: references to them are
 * not reported again as dangling (their own issues already stop the build), and they still count
 * when looking for duplicate slugs and addresses. `unreadPages` are page files that could not be
 * parsed, so their address is unknown: a link to a missing page may mean one of them, and says so.
 */
export function checkLinks(docs: readonly Doc[], drafts: readonly DraftRef[] = [], present: readonly PresentRef[] = [], unreadPages: readonly string[] = []): Issue[] {
  const issues: Issue[] = [];
  const slugs = new Map<string, string>(); // `${kind}:${slug}` → file
  const paths = new Map<string, string>(); // site path → file
  const draftKeys = new Map(drafts.map((d) => [`${d.kind}:${d.slug}`, d.file]));
  const namedSlugs = new Map<string, string>(present.flatMap((p) => (p.named ? [[`${p.kind}:${p.named.slug}`, p.file] as const] : [])));
  const namedPaths = new Map<string, string>(present.flatMap((p) => (p.named?.path ? [[p.named.path, p.file] as const] : [])));
  const causedBy = (i: Issue, file: string | undefined): Issue => (file === undefined ? i : { ...i, causedBy: file });
  const ordered = [...docs].sort((a, b) => cmp(a.file, b.file));
  const claims: (PresentRef & { doc?: CollectionDoc })[] = [
    ...present,
    ...ordered.flatMap((d) => (d.kind === 'organization' ? [] : [{ kind: d.kind, slug: d.fm.slug, file: d.file, path: docSitePath(d), doc: d }])),
  ].sort((a, b) => Number(!ownsName(a)) - Number(!ownsName(b)) || cmp(a.file, b.file));

  for (const claim of claims) {
    const key = `${claim.kind}:${claim.slug}`;
    const owner = slugs.get(key);
    if (owner) issues.push(issue(claim.file, 'slug', 'duplicate_slug', `"${claim.slug}" is already used by ${owner}`));
    else slugs.set(key, claim.file);
    if (claim.path === null) continue;
    const pathOwner = paths.get(claim.path);
    if (pathOwner && !owner) {
      issues.push(issue(claim.file, claim.kind === 'page' ? 'path' : 'slug', 'duplicate_path', `${claim.path} is already the address of ${pathOwner}`));
    } else if (!pathOwner) paths.set(claim.path, claim.file);
    if (claim.doc) issues.push(...checkFaqs(claim.doc));
  }

  const maybe = unreadPages.length === 0 ? '' : ` (or it is the address of ${unreadPages.join(', ')}, which could not be read: fix that first)`;

  const positions = new Map<string, string>(); // `${line}:${order}` → file
  for (const doc of ordered) {
    if (doc.kind !== 'service') continue;
    const key = `${doc.fm.service_line}:${doc.fm.order}`;
    const taken = positions.get(key);
    if (taken) issues.push(issue(doc.file, 'order', 'invalid_value', `position ${doc.fm.order} of line "${doc.fm.service_line}" is already taken by ${taken}`));
    else positions.set(key, doc.file);
  }

  for (const doc of ordered) {
    for (const rule of REF_RULES) {
      if (rule.from !== doc.kind) continue;
      (rule.read(doc) ?? []).forEach((slug, i) => {
        const key = `${rule.to}:${slug}`;
        if (slugs.has(key)) return;
        const draft = draftKeys.get(key);
        const why = draft
          ? `refers to ${rule.to} "${slug}", which is a draft (${draft}) and left out of the output`
          : `refers to ${rule.to} "${slug}", which does not exist`;
        issues.push(causedBy(issue(doc.file, `${rule.field}[${i}]`, 'dangling_reference', why), draft ? undefined : namedSlugs.get(key)));
      });
    }
    if (doc.kind === 'organization') issues.push(...checkServiceLines(doc));
    if (doc.kind === 'organization' && !paths.has(doc.fm.contact.contact_page)) {
      issues.push(causedBy(issue(doc.file, 'contact.contact_page', 'dangling_reference',
        `refers to page ${doc.fm.contact.contact_page}, which no file in content/pages has as its path${maybe}`), namedPaths.get(doc.fm.contact.contact_page)));
    }
    for (const target of linksOf(doc)) {
      if (!paths.has(target)) {
        issues.push(causedBy(issue(doc.file, 'body', 'dangling_reference', `links to ${target}, which is not a page of the site${maybe}`), namedPaths.get(target)));
      }
    }
  }
  return issues;
}

/** What a catalog that passed checkLinks already knows: its slugs by kind, and its page addresses. */
export interface KnownTargets {
  hasSlug(kind: CollectionKind, slug: string): boolean;
  paths: ReadonlySet<string>;
}

/**
 * Whether checkLinks would find nothing to say about `doc` once it replaces a document with the
 * same kind, slug and address in a set that passed: every reference and body link resolves and
 * no FAQ is asked twice. `watch` asks this before writing an edited document's own files ahead
 * of the whole-set check; when the answer is no, the whole-set check runs first.
 */
export function resolvesIn(doc: CollectionDoc, known: KnownTargets): boolean {
  for (const rule of REF_RULES) {
    if (rule.from !== doc.kind) continue;
    for (const slug of rule.read(doc) ?? []) if (!known.hasSlug(rule.to, slug)) return false;
  }
  if (checkFaqs(doc).length > 0) return false;
  return linksOf(doc).every((target) => known.paths.has(target));
}

/** Both service lines, each declared once: services name their line by id. */
function checkServiceLines(doc: OrganizationDoc): Issue[] {
  const ids = doc.fm.service_lines.map((l) => l.id);
  const missing = SERVICE_LINES.filter((id) => !ids.includes(id));
  return missing.length === 0 ? [] : [issue(doc.file, 'service_lines', 'invalid_value', `must declare each service line once; missing ${missing.map((m) => `"${m}"`).join(', ')}`)];
}

/** The file whose name is the slug owns it; a duplicate is reported on the other file. */
function ownsName(claim: DraftRef): boolean {
  return claim.file.endsWith(`/${claim.slug}.md`);
}

function checkFaqs(doc: CollectionDoc): Issue[] {
  const seen = new Set<string>();
  const out: Issue[] = [];
  (doc.fm.faqs ?? []).forEach((faq, i) => {
    const q = faq.question.trim().toLowerCase();
    if (seen.has(q)) out.push(issue(doc.file, `faqs[${i}].question`, 'duplicate_faq'));
    seen.add(q);
  });
  return out;
}

/** A document's body links, read once per document object (watch keeps unchanged ones). */
const bodyLinks = docMemo<Doc, string[]>('site links of the body');
function linksOf(doc: Doc): string[] {
  return bodyLinks.get(doc) ?? bodyLinks.set(doc, siteLinks(doc.body));
}

/**
 * Site-relative links to pages in the body (`[x](/servicios/meta-ads/)`), without #fragment or
 * ?query. Only folder-style paths are pages; links to files (`/logo.png`) are not checked.
 */
export function siteLinks(body: string): string[] {
  const out = new Set<string>();
  for (const m of body.matchAll(/\]\((\/[^)\s]*)\)/g)) {
    const target = (m[1] ?? '').replace(/[?#].*$/, '');
    if (target.endsWith('/') && !target.startsWith('//')) out.add(target);
  }
  return [...out].sort();
}
