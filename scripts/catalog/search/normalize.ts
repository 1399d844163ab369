/**
 * Text → search terms, the same way for the index at build time and for every query: split into
 * words, fold case and accents (so "Automatización" and "automatizacion" meet), drop the
 * commonest Spanish function words, and stem (so "automatizar" meets them too). Pure, no
 * node:* imports: browsers run the same code over the static index.
 */
import { stemSpanish } from './spanish-stemmer.ts';

/** Lower case, and letters without their diacritics (á → a, ñ → n, ü → u, Ç → c). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC');
}

/** Runs of letters and digits: punctuation, Markdown and spaces separate words. */
export function tokenize(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Folded Spanish function words that say nothing about a page. "no", "ia" and "ti" stay out of
 * this list on purpose: "cuándo no usar IA" and "servicios TI" must still match on them.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a al algo algunas algunos ante antes como con contra cual cuando de del desde donde durante e el
   ella ellas ellos en entre era eres es esa esas ese eso esos esta estas este esto estos fue ha han
   hay la las le les lo los me mi mis mas muy nos o os otra otras otro otros para pero por porque que
   quien se sea ser si sin sobre son su sus tambien te tu tus u un una unas uno unos y ya yo`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * Words seen → their terms. A catalog's vocabulary is a few thousand words repeated thousands of
 * times, and folding and stemming each occurrence was most of the time spent indexing. Bounded,
 * so a long-running server fed arbitrary queries does not grow without limit.
 */
const memo = new Map<string, string | null>();
const MEMO_LIMIT = 100_000;

/** One word → its term, or null for a word that is not indexed. */
export function normalizeTerm(word: string): string | null {
  const hit = memo.get(word);
  if (hit !== undefined) return hit;
  const folded = fold(word);
  const term = folded === '' || STOP_WORDS.has(folded) ? null : stemSpanish(folded);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(word, term);
  return term;
}

/** Every term of a text, in order (repeats kept: they weigh in the ranking). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of tokenize(text)) {
    const term = normalizeTerm(word);
    if (term !== null) out.push(term);
  }
  return out;
}
