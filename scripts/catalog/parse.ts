/**
 * Stage 2 (pure): split each file into front matter and Markdown body. A file that cannot be
 * parsed becomes an issue, never an exception, so the other files still get checked.
 */
import { createHash } from 'node:crypto';
import matter from 'gray-matter';
import { classify, type ContentKind } from './collections.ts';
import { issue, type Issue } from './issues.ts';
import type { SourceFile } from './load.ts';

export interface ParsedDoc {
  file: string;
  kind: ContentKind;
  /** The slug the file name implies; the front matter's `slug` must equal it. */
  fileSlug: string;
  data: Record<string, unknown>;
  body: string;
  sha256: string;
}

export interface ParseResult {
  doc: ParsedDoc | null;
  issues: Issue[];
}

export function parseSource(src: SourceFile): ParseResult {
  const place = classify(src.rel);
  if (!place) {
    return fail(issue(src.file, '(file)', 'unknown_file',
      'is not where a content file can live (expected organization.md or services|sectors|insights|areas|pages/<slug>.md)'));
  }
  const text = src.bytes.toString('utf8');
  let data: unknown;
  let body: string;
  try {
    // Passing an options object turns off gray-matter's global cache keyed by file text, which
    // would otherwise keep every document alive for the life of the process.
    const parsed = matter(text, {});
    data = parsed.data;
    body = parsed.content;
  } catch (error) {
    return fail(issue(src.file, '(front matter)', 'yaml_error', `has invalid YAML front matter: ${yamlReason(error)}`));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return fail(issue(src.file, '(front matter)', 'not_an_object'));
  }
  return {
    doc: {
      file: src.file,
      kind: place.kind,
      fileSlug: place.fileSlug,
      data: data as Record<string, unknown>,
      body: normalizeBody(body),
      sha256: createHash('sha256').update(src.bytes).digest('hex'),
    },
    issues: [],
  };
}

function fail(i: Issue): ParseResult {
  return { doc: null, issues: [i] };
}

/** js-yaml errors carry a reason and a 0-based mark; the line is counted inside the front matter. */
function yamlReason(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { reason?: unknown; mark?: { line?: unknown }; message?: unknown };
    if (typeof e.reason === 'string') {
      const line = typeof e.mark?.line === 'number' ? ` (front matter line ${e.mark.line + 1})` : '';
      return `${e.reason}${line}`;
    }
    if (typeof e.message === 'string') return e.message.split('\n')[0] ?? 'unreadable';
  }
  return String(error);
}

/** CRLF → LF and no leading/trailing blank lines, so the body is the same on every OS. */
function normalizeBody(body: string): string {
  const lf = body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
  return lf.replace(/^\s*\n/, '').trimEnd();
}
