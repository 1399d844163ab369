/** Small text measures shared by the emitters. */

const WORDS_PER_MINUTE = 200;

/**
 * Words of running text: whitespace-separated tokens holding at least one letter or digit, so
 * Markdown punctuation (`##`, `-`, `|`, `>`) does not count. A plain character loop: this runs
 * over every body of the site and a Unicode-class regex was the slowest step of the build.
 */
export function wordCount(markdown: string): number {
  let words = 0;
  let inToken = false;
  let counted = false;
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0) {
      inToken = false;
      continue;
    }
    if (!inToken) {
      inToken = true;
      counted = false;
    }
    // ASCII letters and digits, and every non-ASCII character except punctuation blocks (¡¿«»…).
    const wordChar = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && (c < 0x2000 || c > 0x206f));
    if (wordChar && !counted) {
      words += 1;
      counted = true;
    }
  }
  return words;
}

export function readingMinutes(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** One line for llms.txt and Markdown lists: no line breaks inside an entry. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
