/**
 * Build problems as data. Every stage returns issues instead of throwing, so one build reports
 * every broken file at once (editors fix everything in one pass, not one error per run).
 */

/** The closed set of problems a build can report; the code is what tests and tools key on. */
export const ISSUE_CODES = {
  unknown_file: 'is not where a content file can live',
  encoding_error: 'is not valid UTF-8',
  empty_file: 'the file is empty',
  missing_front_matter: 'has no front matter',
  missing_file: 'is required but missing',
  yaml_error: 'has invalid YAML front matter',
  not_an_object: 'front matter must be a mapping of fields',
  missing_field: 'is required but missing',
  unknown_field: 'is not a known field for this kind of content',
  wrong_type: 'has the wrong type',
  invalid_value: 'has an invalid value',
  slug_mismatch: 'does not match the file name',
  duplicate_slug: 'is already used by another file',
  duplicate_path: 'is already the address of another page',
  duplicate_faq: 'repeats a question already asked on this page',
  dangling_reference: 'refers to something that does not exist',
  output_invalid: 'emitted a file that does not match its schema',
  invalid_config: 'is not a valid build setting',
} as const;

export type IssueCode = keyof typeof ISSUE_CODES;

export interface Issue {
  /** POSIX path of the file at fault, e.g. `content/services/meta-ads.md`. */
  file: string;
  /** Dotted path of the field at fault (`process_steps[2].title`), `(front matter)` or `body`. */
  field: string;
  code: IssueCode;
  message: string;
  /** The field's exact path in the front matter, key by key, when the field string is not enough. */
  path?: readonly (string | number)[];
  /** Where in the file, 1-based, when known: the field's key or value, or the YAML error. */
  line?: number;
  column?: number;
  /**
   * The file whose own problem this follows from (a reference to the slug that file's name gives,
   * after its slug was changed): listed under that file's problems, which come first.
   */
  causedBy?: string;
}

export function issue(file: string, field: string, code: IssueCode, detail?: string): Issue {
  return { file, field, code, message: detail ?? ISSUE_CODES[code] };
}

/**
 * Problems that stop a file from being read at all. Others often follow from them (a reference
 * to a slug whose file did not parse), so they are listed first: fix these, then rebuild.
 */
const ROOT_CAUSES: ReadonlySet<IssueCode> = new Set(['invalid_config', 'encoding_error', 'empty_file', 'missing_front_matter', 'yaml_error', 'not_an_object', 'unknown_file', 'missing_file']);

export function isRootCause(i: Issue): boolean {
  return ROOT_CAUSES.has(i.code);
}

/**
 * Root causes first, then the files whose problems break references, then by file, field and
 * message; each file's consequences (Issue.causedBy) right after that file's own problems. The
 * order is part of the output contract.
 */
export function sortIssues(issues: readonly Issue[]): Issue[] {
  const causes = new Set(issues.flatMap((i) => (i.causedBy === undefined ? [] : [i.causedBy])));
  const own = issues.filter((i) => i.causedBy === undefined || !issues.some((c) => c.causedBy === undefined && c.file === i.causedBy));
  // Files that could not be read at all, then files whose problems break references, then the rest.
  const rank = (i: Issue): number => (isRootCause(i) ? 2 : causes.has(i.file) ? 1 : 0);
  const byPlace = (a: Issue, b: Issue): number => cmp(a.file, b.file) || cmp(a.field, b.field) || cmp(a.message, b.message);
  const sorted = [...own].sort((a, b) => rank(b) - rank(a) || byPlace(a, b));
  const out: Issue[] = [];
  for (const [index, i] of sorted.entries()) {
    out.push(i);
    const last = sorted[index + 1]?.file !== i.file;
    if (last && causes.has(i.file)) out.push(...issues.filter((c) => c.causedBy === i.file && !own.includes(c)).sort(byPlace));
  }
  return out;
}

export interface FormatOptions {
  /**
   * The content folder as the user named it (`--content ../site`): issue files are published as
   * `content/…` and printed under this name instead, so the paths are the ones the user can open.
   */
  contentLabel?: string;
}

/** `file:line:column: field: message [code]`, the form editors and CI annotate lines from. */
export function formatIssue(i: Issue, opts: FormatOptions = {}): string {
  const label = opts.contentLabel?.replace(/[\\/]+$/, '');
  const file = label !== undefined && i.file.startsWith('content/') ? `${label || '.'}/${i.file.slice('content/'.length)}` : i.file;
  const at = i.line === undefined ? '' : `:${i.line}:${i.column ?? 1}`;
  return `${file}${at}: ${i.field}: ${i.message} [${i.code}]`;
}

export function formatIssues(issues: readonly Issue[], opts: FormatOptions = {}): string {
  const files = new Set(issues.map((i) => i.file)).size;
  const lines: string[] = [];
  let under: string | undefined;
  for (const i of sortIssues(issues)) {
    const folded = i.causedBy !== undefined && issues.some((c) => c.causedBy === undefined && c.file === i.causedBy);
    if (!folded) {
      under = undefined;
      lines.push(`  ${formatIssue(i, opts)}`);
      continue;
    }
    if (under !== i.causedBy) {
      under = i.causedBy;
      const count = issues.filter((c) => c.causedBy === i.causedBy).length;
      const named = (i.causedBy ?? '').replace(/^.*\//, '').replace(/\.md$/, '');
      lines.push(`    which breaks ${count} reference${count === 1 ? '' : 's'} to "${named}", the name its file gives it:`);
    }
    lines.push(`      ${formatIssue(i, opts)}`);
  }
  const noun = issues.length === 1 ? 'problem' : 'problems';
  return [`Build failed: ${issues.length} ${noun} in ${files} file(s):`, ...lines].join('\n');
}

/** UTF-16 code-unit comparison: locale-independent, so the order is the same on every machine. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
