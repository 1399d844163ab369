/** Text checks and measures several resources (and the HTTP layer) share. */

/**
 * Zulip's check_string_is_printable: the 1-based position of the first control, surrogate or
 * unassigned character, or undefined when every character prints.
 */
export function unprintablePosition(text: string): number | undefined {
  let position = 0;
  for (const ch of text) {
    position++;
    if (/[\p{Cc}\p{Cs}\p{Cn}]/u.test(ch)) return position;
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
