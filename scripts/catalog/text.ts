/** Small text measures shared by the emitters. */

const WORDS_PER_MINUTE = 200;

/** Character classes for wordCount, below U+2070 (everything above is a word character). */
const SPACE = 1;
const WORD = 2;
const CLASSES = (() => {
  const t = new Uint8Array(0x2070);
  for (const c of [32, 10, 9, 13, 12, 11, 0xa0]) t[c] = SPACE;
  for (let c = 48; c <= 57; c++) t[c] = WORD;
  for (let c = 65; c <= 90; c++) t[c] = WORD;
  for (let c = 97; c <= 122; c++) t[c] = WORD;
  // Every non-ASCII character from À on is a letter for this purpose, except the punctuation
  // block U+2000–U+206F (dashes, quotes, ellipsis); ¡¿«» are below À and do not count either.
  for (let c = 0xc0; c < 0x2000; c++) t[c] = WORD;
  return t;
})();

/**
 * Words of running text: whitespace-separated tokens holding at least one letter or digit, so
 * Markdown punctuation (`##`, `-`, `|`, `>`) does not count. One table lookup per character: this
 * runs over every body of the site and a Unicode-class regex was the slowest step of the build.
 */
export function wordCount(markdown: string): number {
  let words = 0;
  let counted = false; // the current token already has a word character
  for (let i = 0; i < markdown.length; i++) {
    const c = markdown.charCodeAt(i);
    const k = c < 0x2070 ? CLASSES[c] : WORD;
    if (k === SPACE) counted = false;
    else if (k === WORD && !counted) {
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
