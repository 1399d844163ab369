/**
 * Stage 2 (pure): split each file into front matter and Markdown body. A file that cannot be
 * parsed becomes an issue, never an exception, so the other files still get checked.
 */
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import matter from 'gray-matter';
import { classify, type ContentKind } from './collections.ts';
import { issue, type Issue } from './issues.ts';
import { openQuoteBefore } from './open-quote.ts';
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
  /**
   * For a page whose YAML does not parse: the `path:` line read from its text as it stands, so
   * links to that page are not reported as dangling on top of the YAML error.
   */
  salvagedPath?: string;
}

export function parseSource(src: SourceFile): ParseResult {
  const place = classify(src.rel);
  if (!place) {
    return fail(issue(src.file, '(file)', 'unknown_file',
      'is not where a content file can live (expected organization.md or services|sectors|insights|areas|pages/<slug>.md)'));
  }
  // Decoding would turn each bad byte into U+FFFD and publish it: refuse the file instead.
  if (!isUtf8(src.bytes)) return fail(encodingIssue(src));
  const text = src.bytes.toString('utf8');
  if (text.trim() === '') return fail(issue(src.file, '(file)', 'empty_file'));
  if (!/^\uFEFF?---/.test(text)) {
    return fail(at(issue(src.file, '(front matter)', 'missing_front_matter',
      'has no front matter: the file must start with a line "---", then its fields in YAML, then "---"'), 1, 1));
  }
  let data: unknown;
  let body: string;
  let frontMatter: string;
  try {
    // Passing an options object turns off gray-matter's global cache keyed by file text, which
    // would otherwise keep every document alive for the life of the process.
    const parsed = matter(text, {});
    data = parsed.data;
    body = parsed.content;
    frontMatter = parsed.matter;
  } catch (error) {
    const failed = fail(yamlIssue(src.file, error, text));
    const salvaged = place.kind === 'page' ? /^path:[ \t]*["']?(\/[^"'\s#]*)/m.exec(text)?.[1] : undefined;
    return salvaged ? { ...failed, salvagedPath: salvaged } : failed;
  }
  if (frontMatter.trim() === '') {
    return fail(at(issue(src.file, '(front matter)', 'missing_front_matter', 'has an empty front matter: its fields go between the two "---" lines'), 1, 1));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return fail(at(issue(src.file, '(front matter)', 'not_an_object'), 2, 1));
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

function at(i: Issue, line: number, column: number): Issue {
  return { ...i, line, column };
}

/**
 * js-yaml errors carry a reason and a 0-based mark inside the front matter, whose first line is
 * the rest of the opening `---` line: line 0 of the front matter is line 1 of the file.
 */
function yamlIssue(file: string, error: unknown, text: string): Issue {
  const e = (error && typeof error === 'object' ? error : {}) as { reason?: unknown; mark?: { line?: unknown; column?: unknown }; message?: unknown };
  const reason = typeof e.reason === 'string' ? e.reason : typeof e.message === 'string' ? (e.message.split('\n')[0] ?? 'unreadable') : String(error);
  const { line, column } = e.mark ?? {};
  if (typeof line !== 'number' || typeof column !== 'number') return issue(file, '(front matter)', 'yaml_error', `has invalid YAML front matter: ${reason}`);
  // A quote left open lines before is where the fix is: YAML read on past it and failed later.
  const quote = openQuoteBefore(text, line + 1);
  if (quote) {
    const detail = `a quoted value opens on line ${quote.line} and does not close on that line, so YAML read on and failed at line ${line + 1}, column ${column + 1}: ${reason}`;
    return at(issue(file, '(front matter)', 'yaml_error', `has invalid YAML front matter: ${detail}`), quote.line, quote.column);
  }
  return at(issue(file, '(front matter)', 'yaml_error', `has invalid YAML front matter: ${reason}`), line + 1, column + 1);
}

/**
 * The first byte that is not part of a valid UTF-8 sequence: decoding maps each invalid sequence
 * to U+FFFD, and everything before the first such U+FFFD re-encodes to exactly the bytes it
 * came from (a U+FFFD that the file really holds is EF BF BD, and is skipped).
 */
export function firstInvalidUtf8(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) {
    const offset = Buffer.byteLength(text.slice(0, i), 'utf8');
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset;
  }
  return -1;
}

function encodingIssue(src: SourceFile): Issue {
  const offset = firstInvalidUtf8(src.bytes);
  const before = src.bytes.subarray(0, Math.max(0, offset));
  const line = before.filter((b) => b === 0x0a).length + 1;
  const lineStart = before.lastIndexOf(0x0a) + 1;
  const column = before.subarray(lineStart).toString('utf8').length + 1;
  const byte = (src.bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return at(issue(src.file, '(file)', 'encoding_error',
    `is not valid UTF-8: byte 0x${byte} at offset ${offset} (line ${line}) cannot be decoded; save the file as UTF-8`), line, column);
}

/** CRLF → LF and no leading/trailing blank lines, so the body is the same on every OS. */
function normalizeBody(body: string): string {
  const lf = body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
  return lf.replace(/^\s*\n/, '').trimEnd();
}
