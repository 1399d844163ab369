// A realm linkifier's pattern as a JavaScript RegExp, where RE2 (re2js, which linkifiers.ts runs
// them on) and JavaScript mean the same by it and backtracking cannot blow up: re2js took most of
// a linkified message's render (three searches of 0.6–1.1 µs where a RegExp takes 0.14).
//
// The pattern must be a plain sequence: literal characters, classes of literals and ranges, `\d`,
// `\w`, `\s`, each with an optional quantifier, in groups (named, numbered or not capturing) that
// are not themselves repeated, with no alternation, `.`, anchors, flags or other escapes. Those
// mean the same in both engines (RE2's `\s` is ASCII whitespace, written so; `\d` and `\w` are
// ASCII in both; classes are written as code point ranges), and with no repeated group both
// engines report the same submatches (RE2 follows Perl's leftmost-first choice; JavaScript only
// differs on groups inside repetition and on empty iterations). An unbounded repetition must be
// followed by a character it cannot take (or end the pattern), and bounded ones may offer few
// choices, so that a failed match gives back at most one run per start: time stays linear in the
// text per start. Anything else stays on re2js.
// Group names Zulip reserves around the user's pattern (they cannot collide with user groups).
export const BEFORE = 'linkifier_before_match';
export const OUTER = 'linkifier_actual_match';
export const AFTER = 'linkifier_after_match';

type Ranges = [lo: number, hi: number][];

const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
// RE2's \s (Perl class): tab, newline, form feed, carriage return, space (no vertical tab).
const SPACE: Ranges = [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]];

/** Most alternatives a pattern's bounded repetitions may offer together (their lengths multiplied). */
const MAX_CHOICES = 64;
/** RE2's largest repetition count. */
const MAX_REPEAT = 1000;

const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;
const writeRanges = (ranges: Ranges): string => ranges.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');

/** A character a pattern may hold for itself: printable, not a surrogate half. */
function literalCode(cp: number): boolean {
  return cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp < 0xa0) && !(cp >= 0xd800 && cp <= 0xdfff);
}

function complement(ranges: Ranges): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

function intersects(a: Ranges, b: Ranges): boolean {
  return a.some(([alo, ahi]) => b.some(([blo, bhi]) => alo <= bhi && blo <= ahi));
}

const ESCAPED_CLASSES: Readonly<Record<string, Ranges>> = { d: DIGIT, w: WORD, s: SPACE };
/** ASCII punctuation, which RE2 lets a backslash escape into itself. */
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

interface Atom {
  ranges: Ranges;
  length: number;
}

/** An escape at `i` (the backslash): a class, or a punctuation character; null for any other. */
function escapeAt(src: string, i: number): Atom | null {
  const c = src[i + 1];
  if (c === undefined) return null;
  const known = ESCAPED_CLASSES[c];
  if (known) return { ranges: known, length: 2 };
  if (PUNCTUATION.test(c)) return { ranges: [[c.charCodeAt(0), c.charCodeAt(0)]], length: 2 };
  return null;
}

/** A single character at `i`, escaped punctuation or a literal; null for anything else. */
function singleAt(src: string, i: number): { cp: number; length: number } | null {
  if (src[i] === '\\') {
    const c = src[i + 1];
    return c !== undefined && PUNCTUATION.test(c) ? { cp: c.charCodeAt(0), length: 2 } : null;
  }
  const cp = src.codePointAt(i);
  if (cp === undefined || !literalCode(cp)) return null;
  return { cp, length: cp > 0xffff ? 2 : 1 };
}

/** A class at `i` (the `[`), parsed as Go's regexp/syntax does in Perl mode: `-` is literal where it makes no range. */
function classAt(src: string, i: number): Atom | null {
  let j = i + 1;
  const negated = src[j] === '^';
  if (negated) j++;
  const ranges: Ranges = [];
  let first = true;
  for (;;) {
    const c = src[j];
    if (c === undefined) return null;
    if (c === ']' && !first) break;
    first = false;
    if (c === '[') return null;
    if (c === '\\') {
      const known = ESCAPED_CLASSES[src[j + 1] ?? ''];
      if (known) {
        ranges.push(...known);
        j += 2;
        continue;
      }
    }
    const lo = singleAt(src, j);
    if (!lo) return null;
    j += lo.length;
    if (src[j] === '-' && src[j + 1] !== ']' && src[j + 1] !== undefined) {
      const hi = singleAt(src, j + 1);
      if (!hi || hi.cp < lo.cp) return null;
      ranges.push([lo.cp, hi.cp]);
      j += 1 + hi.length;
    } else ranges.push([lo.cp, lo.cp]);
  }
  return { ranges: negated ? complement(ranges) : ranges, length: j + 1 - i };
}

interface Quantifier {
  min: number;
  max: number;
  text: string;
}

/** A quantifier at `i` (none: {1,1}); null for one RE2 and JavaScript might read apart. */
function quantifierAt(src: string, i: number): Quantifier | null {
  let q: Quantifier;
  const c = src[i];
  if (c === '*') q = { min: 0, max: Infinity, text: '*' };
  else if (c === '+') q = { min: 1, max: Infinity, text: '+' };
  else if (c === '?') q = { min: 0, max: 1, text: '?' };
  else if (c === '{') {
    const m = /^\{(\d{1,4})(,(\d{1,4})?)?\}/.exec(src.slice(i));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === undefined ? Infinity : Number(m[3]);
    if (min > MAX_REPEAT || max < min || (max !== Infinity && max > MAX_REPEAT)) return null;
    q = { min, max, text: m[0] };
  } else return { min: 1, max: 1, text: '' };
  if (src[i + q.text.length] === '?') q = { ...q, text: `${q.text}?` };
  // A second quantifier (RE2 refuses `a**`; `a+?+` and the like): left to re2js.
  const after = src[i + q.text.length];
  if (after === '*' || after === '+' || after === '?' || after === '{') return null;
  return q;
}

const GROUP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The user's pattern as JavaScript source under the `u` flag, or null where it leaves the subset. */
export function translatePattern(src: string): string | null {
  let out = '';
  let i = 0;
  let depth = 0;
  /** The classes of an unbounded repetition still waiting for a character it cannot take. */
  let open: Ranges | null = null;
  let choices = 1;
  const names = new Set<string>();
  while (i < src.length) {
    const c = src[i]!;
    if (c === '(') {
      if (src.startsWith('(?P<', i)) {
        const close = src.indexOf('>', i);
        const name = close < 0 ? '' : src.slice(i + 4, close);
        if (!GROUP_NAME.test(name) || name.startsWith('linkifier_') || names.has(name)) return null;
        names.add(name);
        out += `(?<${name}>`;
        i = close + 1;
      } else if (src.startsWith('(?:', i)) {
        out += '(?:';
        i += 3;
      } else if (src[i + 1] === '?') return null;
      else {
        out += '(';
        i++;
      }
      depth++;
      continue;
    }
    if (c === ')') {
      if (depth === 0) return null;
      depth--;
      out += ')';
      i++;
      // A repeated group: its submatches and empty iterations are where the engines part.
      if (quantifierAt(src, i)?.text !== '') return null;
      continue;
    }
    let atom: Atom | null;
    if (c === '[') atom = classAt(src, i);
    else if (c === '\\') atom = escapeAt(src, i);
    else if ('|.^$*+?{}]'.includes(c)) atom = null;
    else {
      const single = singleAt(src, i);
      atom = single && { ranges: [[single.cp, single.cp]], length: single.length };
    }
    if (!atom) return null;
    i += atom.length;
    const q = quantifierAt(src, i);
    if (!q) return null;
    i += q.text.length;
    if (open) {
      if (q.min < 1 || intersects(open, atom.ranges)) return null;
      open = null;
    }
    if (q.max === Infinity) open = atom.ranges;
    else if (q.max > q.min) {
      choices *= q.max - q.min + 1;
      if (choices > MAX_CHOICES) return null;
    }
    out += `[${writeRanges(atom.ranges)}]${q.text}`;
  }
  return depth === 0 ? out : null;
}

/**
 * The wrapped pattern (linkifiers.ts preparePattern: the user's pattern after a start, space or
 * opening delimiter, before an end or a character that is no letter or digit) as a RegExp with
 * the `g` and `u` flags, or null where the pattern leaves the subset.
 */
export function nativeLinkifier(pattern: string): RegExp | null {
  const user = translatePattern(pattern);
  if (user === null) return null;
  try {
    return new RegExp(`(?<${BEFORE}>^|[\\t\\n\\f\\r ]|\\u{85}|\\p{Z}|['"(,:<])(?<${OUTER}>${user})(?<${AFTER}>$|[^\\p{L}\\p{N}])`, 'gu');
  } catch {
    return null;
  }
}
