/**
 * Stage 3 (pure): check each document's front matter against its content schema and turn ajv's
 * errors into issues an editor can act on: the file, the field, what is wrong.
 */
import type { AreaFrontMatter } from '../../schemas/generated/types/catalog/frontmatter-area.ts';
import type { InsightFrontMatter } from '../../schemas/generated/types/catalog/frontmatter-insight.ts';
import type { OrganizationFrontMatter } from '../../schemas/generated/types/catalog/frontmatter-organization.ts';
import type { PageFrontMatter } from '../../schemas/generated/types/catalog/frontmatter-page.ts';
import type { SectorFrontMatter } from '../../schemas/generated/types/catalog/frontmatter-sector.ts';
import type { ServiceFrontMatter } from '../../schemas/generated/types/catalog/frontmatter-service.ts';
import { ORGANIZATION_SCHEMA, collectionOf } from './collections.ts';
import { issue, type Issue } from './issues.ts';
import type { ParsedDoc } from './parse.ts';
import { schemaRegistry, type ErrorObject } from './schemas.ts';

interface DocBase {
  file: string;
  sha256: string;
  body: string;
}
export type ServiceDoc = DocBase & { kind: 'service'; fm: ServiceFrontMatter };
export type SectorDoc = DocBase & { kind: 'sector'; fm: SectorFrontMatter };
export type InsightDoc = DocBase & { kind: 'insight'; fm: InsightFrontMatter };
export type AreaDoc = DocBase & { kind: 'area'; fm: AreaFrontMatter };
export type PageDoc = DocBase & { kind: 'page'; fm: PageFrontMatter };
export type OrganizationDoc = DocBase & { kind: 'organization'; fm: OrganizationFrontMatter };
export type CollectionDoc = ServiceDoc | SectorDoc | InsightDoc | AreaDoc | PageDoc;
export type Doc = CollectionDoc | OrganizationDoc;

export interface ValidateResult {
  doc: Doc | null;
  issues: Issue[];
}

export function validateDoc(parsed: ParsedDoc): ValidateResult {
  const schema = parsed.kind === 'organization' ? ORGANIZATION_SCHEMA : collectionOf(parsed.kind).schema;
  const check = schemaRegistry().validator(schema);
  const issues: Issue[] = [];
  if (!check(parsed.data)) issues.push(...toIssues(parsed.file, parsed.data, check.errors ?? []));
  const slug = parsed.data.slug;
  if (parsed.kind !== 'organization' && typeof slug === 'string' && slug !== parsed.fileSlug) {
    issues.push(issue(parsed.file, 'slug', 'slug_mismatch',
      `is "${slug}" but the file name says "${parsed.fileSlug}" (rename the file or fix the slug)`));
  }
  if (issues.length > 0) return { doc: null, issues };
  // The schema check above is what makes this cast true.
  const doc = { kind: parsed.kind, file: parsed.file, sha256: parsed.sha256, body: parsed.body, fm: parsed.data } as unknown as Doc;
  return { doc, issues };
}

/** One issue per field: ajv can report several errors for the same spot (type and pattern…). */
function toIssues(file: string, data: unknown, errors: readonly ErrorObject[]): Issue[] {
  const seen = new Set<string>();
  const out: Issue[] = [];
  for (const e of errors) {
    const i = toIssue(file, data, e);
    if (!i || seen.has(i.field)) continue;
    seen.add(i.field);
    out.push({ ...i, path: pathOf(e) });
  }
  return out;
}

/** The exact path of the field an error is about, key by key (a key may hold dots or brackets). */
function pathOf(e: ErrorObject): string[] {
  const params = e.params as Record<string, unknown>;
  const child = e.keyword === 'required' ? params.missingProperty : e.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
  const parts = e.instancePath ? e.instancePath.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')) : [];
  return child === undefined ? parts : [...parts, String(child)];
}

function toIssue(file: string, data: unknown, e: ErrorObject): Issue | null {
  const at = pointerToField(e.instancePath);
  // An empty key is legal YAML (`"": x`); show it quoted so the field is never blank.
  const child = (raw: string): string => {
    const name = raw === '' ? '""' : raw;
    return at ? `${at}.${name}` : name;
  };
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return issue(file, child(String(params.missingProperty)), 'missing_field');
    case 'additionalProperties':
      return issue(file, child(String(params.additionalProperty)), 'unknown_field');
    case 'type':
      return issue(file, at || '(front matter)', 'wrong_type', `must be ${article(String(params.type))}, got ${describe(valueAt(data, e.instancePath))}`);
    case 'enum':
      return issue(file, at, 'invalid_value', `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(valueAt(data, e.instancePath))}`);
    case 'pattern':
    case 'format':
      return issue(file, at, 'invalid_value', `${JSON.stringify(valueAt(data, e.instancePath))} ${formatHint(e)}`);
    default:
      return issue(file, at || '(front matter)', 'invalid_value', e.message ?? 'is invalid');
  }
}

function formatHint(e: ErrorObject): string {
  const fmt = (e.params as { format?: string }).format;
  if (fmt === 'date' || /\[0-9\]\{4\}-/.test(String((e.params as { pattern?: string }).pattern ?? ''))) {
    return 'is not a date in YYYY-MM-DD form';
  }
  if (fmt) return `is not a valid ${fmt}`;
  return `does not match the expected form ${String((e.params as { pattern?: string }).pattern)}`;
}

/** `/process_steps/2/title` → `process_steps[2].title`. */
export function pointerToField(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function valueAt(data: unknown, pointer: string): unknown {
  let cur = data;
  for (const raw of pointer ? pointer.slice(1).split('/') : []) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return cur;
}

/** YAML turns unquoted dates into Date objects; say so, since that is the usual cause. */
function describe(value: unknown): string {
  if (value instanceof Date) return 'an unquoted date (write it in quotes: "YYYY-MM-DD")';
  if (value === null) return 'null (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function article(type: string): string {
  const name = type === 'array' ? 'list' : type === 'object' ? 'mapping' : type;
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}
