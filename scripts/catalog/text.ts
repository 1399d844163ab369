/** Small text measures shared by the emitters. */

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const WORDS_PER_MINUTE = 200;

/** Words of running text; Markdown punctuation (`##`, `-`, `|`) does not count. */
export function wordCount(markdown: string): number {
  let n = 0;
  for (const _ of markdown.matchAll(WORD)) n += 1;
  return n;
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
