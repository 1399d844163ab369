/** Text checks and measures several resources (and the HTTP layer) share. */

const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;

/**
 * Zulip's check_string_is_printable: the 1-based position of the first control, surrogate or
 * unassigned character, or undefined when every character prints.
 */
export function unprintablePosition(text: string): number | undefined {
  // Nearly every text prints: one test of the whole, and a walk only to find the position.
  if (!UNPRINTABLE.test(text)) return undefined;
  let position = 0;
  for (const ch of text) {
    position++;
    if (UNPRINTABLE.test(ch)) return position;
  }
  return undefined;
}

/**
 * A string's length as Zulip (Python's len) counts it: code points, not UTF-16 units, so an
 * emoji outside the Basic Multilingual Plane is one character.
 */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The characters Python's str.isspace() accepts, which str.strip() removes (not U+FEFF, unlike JS's trim). */
const PYTHON_WHITESPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Python's str.rstrip(): trailing whitespace removed, by Python's idea of whitespace. */
export function pythonRstrip(text: string): string {
  let end = text.length;
  while (end > 0 && PYTHON_WHITESPACE.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** Python's str.strip(). */
export function pythonStrip(text: string): string {
  const right = pythonRstrip(text);
  let start = 0;
  while (start < right.length && PYTHON_WHITESPACE.includes(right[start]!)) start++;
  return right.slice(start);
}

/**
 * Python's str.lower(): each code point on its own. JavaScript's toLowerCase() agrees except for a
 * capital sigma, which it lowers by context (final ς); Python always gives σ.
 */
export function pythonLower(text: string): string {
  const lowered = text.toLowerCase();
  if (!text.includes('\u03a3')) return lowered;
  let out = '';
  for (const ch of text) out += ch.toLowerCase();
  return out;
}
