/** Text checks several resources share. */

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
