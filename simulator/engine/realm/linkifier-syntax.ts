/**
 * What Zulip accepts as a linkifier: a pattern RE2 compiles (Zulip compiles it with the `re2`
 * module and reports RE2's own error text) and an RFC 6570 URL template as the `uri_template`
 * package parses it. The pattern is checked in two steps: RE2's parser errors, with RE2's text
 * (re2js, the engine the renderer runs, words its errors as Go does), then a compile with re2js
 * for what RE2 refuses after parsing: nested counted repetitions over 1000 and programs too
 * large for RE2's default memory budget.
 */
import { RE2JS } from 're2js';

export type PatternCheck = { ok: true; groups: string[] } | { ok: false; error: string };

/** RE2's RegexpStatus codes, as its error text names them. */
const RE2 = {
  badEscape: 'invalid escape sequence',
  badCharRange: 'invalid character class range',
  missingBracket: 'missing ]',
  missingParen: 'missing )',
  unexpectedParen: 'unexpected )',
  trailingBackslash: 'trailing \\',
  repeatArgument: 'no argument for repetition operator',
  repeatSize: 'invalid repetition size',
  repeatOp: 'bad repetition operator',
  badPerlOp: 'invalid perl operator',
  badNamedCapture: 'invalid named capture group',
} as const;

class Re2Error extends Error {
  constructor(code: string, arg: string) {
    super(arg === '' ? code : `${code}: ${arg}`);
  }
}

const LETTER_ESCAPES = new Set('afnrtvdDsSwWbBAzpPxQEC');
const WORD = /[A-Za-z0-9_]/;
const OCTAL = /[0-7]/;
const HEX = /[0-9A-Fa-f]/;
/** RE2 limits counted repetitions to 1000. */
const MAX_REPEAT = 1000;

/**
 * RE2's parser, as far as its errors go: groups balanced, named groups valid and unique, escapes
 * RE2 knows, classes closed with ordered ranges, no stacked or argument-less repetition, no
 * look-around. Answers the named groups (Zulip's pattern.groupindex) or RE2's error text.
 */
export function checkPattern(pattern: string): PatternCheck {
  let groups: string[];
  try {
    groups = scan(pattern);
  } catch (error) {
    if (error instanceof Re2Error) return { ok: false, error: error.message };
    throw error;
  }
  const compiled = compileCheck(pattern);
  return compiled === null ? { ok: true, groups } : { ok: false, error: compiled };
}

/**
 * RE2 gives its forward program two thirds of max_mem (8 MiB by default) and allows a quarter of
 * that in 8-byte instructions. re2js counts instructions per code point where RE2 counts per
 * UTF-8 byte, so this refuses the same large literal patterns and fewer large Unicode classes.
 */
export const MAX_PROGRAM_SIZE = Math.floor((((8 << 20) * 2) / 3) / 4 / 8);

/**
 * RE2's errors after parsing, or null. A pattern RE2 accepts but re2js cannot compile (`\C`,
 * nesting deeper than 1000) is accepted here, as Zulip does, and links nothing.
 */
function compileCheck(pattern: string): string | null {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    // RE2's repetition walker refuses nested counts whose product passes 1000, with the operator.
    const repeat = /invalid repeat count: `(.*)`$/s.exec(error instanceof Error ? error.message : '');
    return repeat ? `${RE2.repeatSize}: ${repeat[1]}` : null;
  }
  return compiled.programSize() > MAX_PROGRAM_SIZE ? 'pattern too large - compile failed' : null;
}

function scan(whole: string): string[] {
  const s = [...whole];
  const groups: string[] = [];
  let depth = 0;
  // Whether the last item can take a repetition operator (not at the start, after `(` or `|`).
  let canRepeat = false;
  // Where the previous token started, when it was a repetition operator.
  let lastRepeat = -1;
  let i = 0;
  const text = (from: number, to = s.length) => s.slice(from, to).join('');
  while (i < s.length) {
    const c = s[i]!;
    const start = i;
    let repeat = false;
    if (c === '(') {
      i = openGroup(s, i, groups);
      // A flags-only group `(?i)` opens nothing.
      if (s[i - 1] !== ')') depth++;
      canRepeat = s[i - 1] === ')';
    } else if (c === ')') {
      if (depth === 0) throw new Re2Error(RE2.unexpectedParen, whole);
      depth--;
      i++;
      canRepeat = true;
    } else if (c === '|') {
      i++;
      canRepeat = false;
    } else if (c === '[') {
      i = charClass(s, i);
      canRepeat = true;
    } else if (c === '\\') {
      i = escape(s, i, false);
      canRepeat = true;
    } else if (c === '*' || c === '+' || c === '?' || (c === '{' && counted(s, i) !== null)) {
      let end = c === '{' ? counted(s, i)!.end : i + 1;
      const op = text(i, end);
      if (s[end] === '?') end++;
      if (lastRepeat >= 0) throw new Re2Error(RE2.repeatOp, text(lastRepeat, end));
      if (!canRepeat) throw new Re2Error(RE2.repeatArgument, text(i, end));
      if (c === '{') {
        const { min, max } = counted(s, i)!;
        if (min > MAX_REPEAT || (max !== null && (max > MAX_REPEAT || max < min))) throw new Re2Error(RE2.repeatSize, op);
      }
      i = end;
      repeat = true;
    } else {
      i++;
      canRepeat = true;
    }
    lastRepeat = repeat ? start : -1;
  }
  if (depth > 0) throw new Re2Error(RE2.missingParen, whole);
  return groups;
}

/** `{n}`, `{n,}` or `{n,m}` at i (anything else is a literal brace), with its end. */
function counted(s: string[], i: number): { min: number; max: number | null; end: number } | null {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i, i + 24).join(''));
  if (!m) return null;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
  return { min, max, end: i + [...m[0]].length };
}

/** After `(`: a plain group, `(?:`, flags, or a named group `(?P<name>` / `(?<name>`. */
function openGroup(s: string[], i: number, groups: string[]): number {
  if (s[i + 1] !== '?') return i + 1;
  const rest = s.slice(i).join('');
  if (/^\(\?(=|!|<=|<!)/.test(rest)) throw new Re2Error(RE2.badPerlOp, rest.startsWith('(?<') ? rest.slice(0, 4) : rest.slice(0, 3));
  const named = /^\(\?P?</.exec(rest);
  if (named) {
    const close = rest.indexOf('>');
    if (close < 0) throw new Re2Error(RE2.badNamedCapture, rest);
    const capture = rest.slice(0, close + 1);
    const name = rest.slice(named[0].length, close);
    if (!/^[A-Za-z0-9_]+$/.test(name) || groups.includes(name)) throw new Re2Error(RE2.badNamedCapture, capture);
    groups.push(name);
    return i + [...capture].length;
  }
  // Flags: (?flags) or (?flags:re), flags from imsU with at most one `-`.
  let j = i + 2;
  let negated = false;
  let sawFlag = false;
  for (; j < s.length; j++) {
    const c = s[j]!;
    if ('imsU'.includes(c)) {
      sawFlag = true;
      continue;
    }
    if (c === '-' && !negated) {
      negated = true;
      sawFlag = false;
      continue;
    }
    if ((c === ':' || c === ')') && (sawFlag || (!negated && j === i + 2 && c === ':'))) return j + 1;
    break;
  }
  throw new Re2Error(RE2.badPerlOp, s.slice(i, Math.min(j + 1, s.length)).join(''));
}

/** A character class from `[` at i to its `]`, ranges in order; answers the index after it. */
function charClass(s: string[], i: number): number {
  let j = i + 1;
  if (s[j] === '^') j++;
  let first = true;
  while (j < s.length && (s[j] !== ']' || first)) {
    first = false;
    if (s[j] === '[' && s[j + 1] === ':') {
      const end = s.slice(j).join('').indexOf(':]');
      if (end > 0) {
        j += [...s.slice(j).join('').slice(0, end + 2)].length;
        continue;
      }
    }
    const lo = classChar(s, j);
    j = lo.end;
    if (s[j] === '-' && s[j + 1] !== undefined && s[j + 1] !== ']') {
      const hi = classChar(s, j + 1);
      if (lo.cp !== null && hi.cp !== null && hi.cp < lo.cp) {
        throw new Re2Error(RE2.badCharRange, s.slice(lo.start, hi.end).join(''));
      }
      j = hi.end;
    }
  }
  if (j >= s.length) throw new Re2Error(RE2.missingBracket, s.slice(i).join(''));
  return j + 1;
}

/** One member of a class: a character or an escape (classes like \d have no code point). */
function classChar(s: string[], j: number): { start: number; end: number; cp: number | null } {
  if (s[j] !== '\\') return { start: j, end: j + 1, cp: s[j]!.codePointAt(0)! };
  const end = escape(s, j, true);
  const body = s.slice(j + 1, end).join('');
  const single = body.length === 1 && !/[dDsSwWpP]/.test(body) ? body.codePointAt(0)! : null;
  return { start: j, end, cp: single };
}

/** An escape at i (`\` then …); answers the index after it. */
function escape(s: string[], i: number, inClass: boolean): number {
  const c = s[i + 1];
  if (c === undefined) throw new Re2Error(RE2.trailingBackslash, '');
  const bad = (end: number) => new Re2Error(RE2.badEscape, s.slice(i, end).join(''));
  if (c >= '1' && c <= '7') {
    // A lone digit is a back-reference, which RE2 refuses; more octal digits make a character.
    if (!OCTAL.test(s[i + 2] ?? '')) throw bad(i + 2);
    return i + (OCTAL.test(s[i + 3] ?? '') ? 4 : 3);
  }
  if (c === '0') return i + 2 + (OCTAL.test(s[i + 2] ?? '') ? (OCTAL.test(s[i + 3] ?? '') ? 2 : 1) : 0);
  if (c === '8' || c === '9') throw bad(i + 2);
  if (c === 'x') {
    if (s[i + 2] === '{') {
      let j = i + 3;
      while (HEX.test(s[j] ?? '')) j++;
      if (s[j] !== '}' || j === i + 3) throw bad(Math.min(j + 1, s.length));
      return j + 1;
    }
    if (!HEX.test(s[i + 2] ?? '') || !HEX.test(s[i + 3] ?? '')) throw bad(Math.min(i + 4, s.length));
    return i + 4;
  }
  if (c === 'p' || c === 'P') {
    if (s[i + 2] === '{') {
      const close = s.indexOf('}', i + 3);
      if (close < 0) throw bad(s.length);
      return close + 1;
    }
    if (s[i + 2] === undefined) throw bad(i + 2);
    return i + 3;
  }
  if (c === 'Q' && !inClass) {
    const end = s.slice(i + 2).join('').indexOf('\\E');
    return end < 0 ? s.length : i + 2 + [...s.slice(i + 2).join('').slice(0, end)].length + 2;
  }
  if (LETTER_ESCAPES.has(c)) {
    // \b is a backspace inside a class; the assertions make no sense there.
    if (inClass && 'bBAzQEC'.includes(c) && c !== 'b') throw bad(i + 2);
    return i + 2;
  }
  if (c.codePointAt(0)! < 0x80 && !WORD.test(c)) return i + 2;
  throw bad(i + 2);
}

/**
 * RealmFilter.full_clean, its errors by field as Django collects them: the fields' own checks
 * (blank, URL template syntax), then the model's clean() (the pattern compiles; the template's
 * variables and the pattern's groups name each other), then uniqueness of the pattern in the
 * realm (`taken`: another linkifier of the realm has this pattern). Empty when it is valid.
 */
export function linkifierErrors(pattern: string, urlTemplate: string, taken: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (pattern === '') add('pattern', 'This field cannot be blank.');
  const variables = urlTemplate === '' ? null : templateVariables(urlTemplate);
  if (urlTemplate === '') add('url_template', 'This field cannot be blank.');
  else if (variables === null) add('url_template', 'Invalid URL template.');

  const compiled = checkPattern(pattern);
  if (!compiled.ok) add('__all__', `Bad regular expression: ${compiled.error}`);
  else if (variables !== null) {
    const groups = new Set(compiled.groups);
    const missingInPattern = variables.filter((v) => !groups.has(v)).sort();
    const missingInUrl = compiled.groups.filter((g) => !variables.includes(g)).sort();
    if (missingInPattern.length > 0) add('__all__', `Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`);
    else if (missingInUrl.length > 0) add('__all__', `Group '${missingInUrl[0]}' in linkifier pattern is not present in URL template.`);
  }
  if (!errors.pattern && taken) add('__all__', 'Realm filter with this Realm and Pattern already exists.');
  return errors;
}

// ---------------------------------------------------------------- URL templates

const VAR_START = /[A-Za-z0-9_%]/;
const VAR_CHAR = /[A-Za-z0-9_.]/;

/**
 * The variable names of an RFC 6570 template, as the `uri_template` package parses it (its
 * extensions included: `name/key`, `=default`, `[]`), or null when it refuses the template.
 * Literal text may be anything but braces.
 */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  for (const part of template.split(/(\{[^}]*\})/)) {
    if (part === '') continue;
    if (!part.startsWith('{') || !part.endsWith('}') || part.length < 2) {
      if (part.includes('{') || part.includes('}')) return null;
      continue;
    }
    const expansion = part.slice(1, -1);
    let list: string;
    if (/^([a-zA-Z0-9_]|%[0-9a-fA-F]{2})/.test(expansion)) list = expansion;
    else if ('+#./;?&'.includes(expansion[0] ?? '}')) list = expansion.slice(1);
    else if (expansion[0] === ',') list = expansion.slice(expansion[1] === '+' ? 2 : 1);
    else return null;
    for (const spec of list.split(',')) {
      const name = variableName(spec);
      if (name === null) return null;
      if (!names.includes(name)) names.push(name);
    }
  }
  return names;
}

function variableName(raw: string): string | null {
  if (raw === '' || !VAR_START.test(raw[0]!)) return null;
  let spec = raw.includes('=') ? raw.slice(0, raw.indexOf('=')) : raw;
  if (spec.includes(':')) {
    const length = spec.slice(spec.indexOf(':') + 1);
    if (!/^\d{1,3}$/.test(length) || Number(length) === 0) return null;
    spec = spec.slice(0, spec.indexOf(':'));
  } else if (spec.endsWith('*')) spec = spec.slice(0, -1);
  else if (spec.endsWith('[]')) spec = spec.slice(0, -2);
  let key = '';
  let name = '';
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i]!;
    if (c === '%' && i + 2 < spec.length && HEX.test(spec[i + 1]!) && HEX.test(spec[i + 2]!)) {
      key += spec.slice(i, i + 3);
      i += 2;
    } else if (VAR_CHAR.test(c)) key += c;
    else if (c === '/') {
      name = key;
      key = '';
    } else return null;
  }
  return name || key;
}
