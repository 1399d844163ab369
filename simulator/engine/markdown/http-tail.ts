// linkify-it's `http:` schema (also `https:` and `ftp:`, its aliases) validates what follows the
// schema with one regular expression (linkify-it/index.mjs, `re.http`): `//`, user info, host,
// port, then the path (linkify-it/lib/re.mjs `src_path`), an alternation of lookaheads over
// Unicode classes tried at every character of the path. Here the path is read by a scanner
// that gives the same length for ASCII text, and the rest keeps linkify-it's own expressions.
import type { MarkdownIt } from 'markdown-it';

/** The parts of linkify-it's compiled expressions (its `re`) the validator reads. */
interface LinkifyRe {
  src_auth: string;
  src_host_port_strict: string;
  src_path: string;
  src_ZCc: string;
  src_pseudo_letter: string;
  http?: RegExp;
}

interface Tables {
  /** `^//` + user info + host + port, as linkify-it's `re.http` starts. */
  prefix: RegExp;
  /** linkify-it's whole `re.http`, for text the scanner does not read. */
  whole: RegExp;
  /** Per ASCII code: matched by src_pseudo_letter (read from the expression, not restated). */
  pseudoLetter: boolean[];
}

const tablesByRe = new WeakMap<object, Tables>();

function tablesFor(re: LinkifyRe): Tables {
  let t = tablesByRe.get(re);
  if (!t) {
    const letter = new RegExp(`^${re.src_pseudo_letter}$`);
    const zcc = new RegExp(`^(?:${re.src_ZCc})$`);
    // The scanner takes ASCII space and controls (0–0x20, 0x7F) as src_ZCc and nothing else of
    // ASCII; a linkify-it whose classes differ keeps its own expression.
    for (let c = 0; c < 0x80; c++) {
      if (zcc.test(String.fromCharCode(c)) !== (c <= 0x20 || c === 0x7f)) throw new Error('linkify-it: unexpected src_ZCc');
    }
    t = {
      prefix: new RegExp(`^\\/\\/${re.src_auth}${re.src_host_port_strict}`, 'i'),
      whole: re.http ?? new RegExp(`^\\/\\/${re.src_auth}${re.src_host_port_strict}${re.src_path}`, 'i'),
      pseudoLetter: Array.from({ length: 0x80 }, (_, c) => letter.test(String.fromCharCode(c))),
    };
    tablesByRe.set(re, t);
  }
  return t;
}

/** The original validator: the length linkify-it's `re.http` matches at the tail, or 0. */
export function httpTailByRegex(re: LinkifyRe, tail: string): number {
  const m = tablesFor(re).whole.exec(tail);
  return m ? m[0].length : 0;
}

/**
 * The same length, with src_path read by a scanner where the text up to its first space or
 * control is ASCII (no match reaches past that character, and none looks further than it).
 *
 * src_path is optional and ends the expression, so the host part matches as it would alone (the
 * path never makes it backtrack), and the path's loop takes its alternatives greedily, never
 * giving back an iteration: each step below is the first alternative that matches there.
 */
export function httpTail(re: LinkifyRe, tail: string): number {
  let e = 0;
  while (e < tail.length) {
    const c = tail.charCodeAt(e);
    if (c <= 0x20 || c === 0x7f) break;
    if (c >= 0x80) return httpTailByRegex(re, tail);
    e++;
  }
  const t = tablesFor(re);
  const m = t.prefix.exec(tail);
  if (!m) return 0;
  return pathEnd(t, tail, m[0].length, e);
}

/** src_path from `p`, in text whose characters before `e` are printable ASCII. */
function pathEnd(t: Tables, s: string, p: number, e: number): number {
  if (p >= e) return p;
  const c = s.charCodeAt(p);
  if (c !== 0x2f && c !== 0x3f && c !== 0x23) return p; // [/?#]
  let i = p + 1;
  for (;;) {
    const j = step(t, s, i, e);
    if (j < 0) break;
    i = j;
  }
  if (i > p + 1) return i;
  // `[/?#]` with no step after it fails; the alternative `\/` takes a lone slash.
  return c === 0x2f ? p + 1 : p;
}

/** One iteration of src_path's loop at `i`: where it ends, or -1 when no alternative matches. */
function step(t: Tables, s: string, i: number, e: number): number {
  if (i >= e) return -1;
  const c = s.charCodeAt(i);
  switch (c) {
    case 0x3c: // < and > are linkify-it's text separators
    case 0x3e:
    case 0x5d: // ] ) }: no alternative starts with them
    case 0x29:
    case 0x7d:
      return -1;
    case 0x5b: // \[(?:(?!ZCc|\]).)*\]
      return closing(s, i, e, 0x5d, 0);
    case 0x28:
      return closing(s, i, e, 0x29, 0);
    case 0x7b:
      return closing(s, i, e, 0x7d, 0);
    case 0x22: // \"(?:(?!ZCc|["]).)+\"
      return closing(s, i, e, 0x22, 1);
    case 0x27: {
      // \'(?:(?!ZCc|[']).)+\'  then  \'(?=pseudo_letter|[-])
      const k = closing(s, i, e, 0x27, 1);
      if (k >= 0) return k;
      if (i + 1 >= e) return -1;
      const n = s.charCodeAt(i + 1);
      return t.pseudoLetter[n] || n === 0x2d ? i + 1 : -1;
    }
    case 0x2e: {
      // \.{2,}[a-zA-Z0-9%/&]  then  \.(?!ZCc|[.]|$)
      let k = i;
      while (k < e && s.charCodeAt(k) === 0x2e) k++;
      if (k - i >= 2 && k < e && isDotsEnd(s.charCodeAt(k))) return k + 1;
      return i + 1 < e && s.charCodeAt(i + 1) !== 0x2e ? i + 1 : -1;
    }
    case 0x2d: {
      // \-+
      let k = i + 1;
      while (k < e && s.charCodeAt(k) === 0x2d) k++;
      return k;
    }
    case 0x2c: // ,(?!ZCc|$)
    case 0x3b: // ;(?!ZCc|$)
      return i + 1 < e ? i + 1 : -1;
    case 0x21: {
      // \!+(?!ZCc|[!]|$): only the whole run can be followed by something else
      let k = i + 1;
      while (k < e && s.charCodeAt(k) === 0x21) k++;
      return k < e ? k : -1;
    }
    case 0x3f: // \?(?!ZCc|[?]|$)
      return i + 1 < e && s.charCodeAt(i + 1) !== 0x3f ? i + 1 : -1;
    default:
      // (?!ZCc|text separators|[()[\]{}.,"'?!\-;]).
      return i + 1;
  }
}

/** An opening character's group up to the first `close` before `e` (with at least `min` inside). */
function closing(s: string, i: number, e: number, close: number, min: number): number {
  for (let k = i + 1; k < e; k++) {
    if (s.charCodeAt(k) === close) return k - i - 1 >= min ? k + 1 : -1;
  }
  return -1;
}

function isDotsEnd(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x25 || c === 0x2f || c === 0x26;
}

/**
 * Puts the scanner in place of the `http:` validator of markdown-it's linkify-it (its aliases
 * follow it when linkify-it compiles again). A linkify-it with the `---` option (which changes
 * the path's `-` rule) keeps its own.
 */
export function scanHttpTails(md: MarkdownIt): void {
  const linkify = md.linkify as unknown as { __opts__: Record<string, unknown>; add(schema: string, definition: unknown): unknown };
  if (linkify.__opts__['---']) return;
  linkify.add('http:', {
    validate: (text: string, pos: number, self: { re: LinkifyRe }) => httpTail(self.re, text.slice(pos)),
  });
}
