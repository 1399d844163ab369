/**
 * The words of a text as the search's tokenizer finds them (normalize.ts's `tokenize`: runs of
 * letters and numbers, /[\p{L}\p{N}]+/gu), found in place: the index builder visits every
 * occurrence of every word of the catalog (over a million at 1,000 documents), and cutting each
 * one out as a string and hashing it for a Map lookup, with the regex's array of them, was most
 * of the time spent building search.json and much of the garbage. Here a scan classifies each
 * character, hashes the run as it goes and looks it up in a table of the words seen so far,
 * comparing characters; a word becomes a string only the first time it is met. Pure, no node:*
 * imports.
 */

/** Code unit → 1 letter or number, 2 neither, 0 not yet known (filled on first sight). */
const BMP_CLASS = new Uint8Array(0x10000);
const ASTRAL_CLASS = new Map<number, boolean>();
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

for (let c = 0; c < 0x80; c++) BMP_CLASS[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 2;
// Lone surrogates are code points of their own in a /u regex, and neither letters nor numbers.
for (let c = 0xd800; c < 0xe000; c++) BMP_CLASS[c] = 2;

/** How many code units the letter or number at `i` takes (1, or 2 for a surrogate pair); 0 for any other character. */
export function wordUnitsAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d < 0xe000) {
      const cp = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
      let word = ASTRAL_CLASS.get(cp);
      if (word === undefined) ASTRAL_CLASS.set(cp, (word = WORD_CHAR.test(String.fromCodePoint(cp))));
      return word ? 2 : 0;
    }
  }
  let k = BMP_CLASS[c] as number;
  if (k === 0) BMP_CLASS[c] = k = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
  return k === 1 ? 1 : 0;
}

/**
 * Words → a value each, looked up by a stretch of a text without cutting it out. Open addressing
 * over a power-of-two table, keyed by a hash of the word's code units (FNV-1a, 32 bits).
 */
export class WordTable<V> {
  #words: (string | undefined)[] = new Array<string | undefined>(1024);
  #hashes = new Int32Array(1024);
  #values: (V | undefined)[] = new Array<V | undefined>(1024);
  #size = 0;

  /** The value of the word `text.slice(start, end)`, whose hash is `hash`; `make` gives it the first time. */
  get(text: string, start: number, end: number, hash: number, make: (word: string) => V): V {
    const mask = this.#words.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const word = this.#words[slot];
      if (word === undefined) break;
      if (this.#hashes[slot] === hash && word.length === length && sameUnits(word, text, start)) return this.#values[slot] as V;
    }
    const word = text.slice(start, end);
    const value = make(word);
    if ((this.#size + 1) * 2 > this.#words.length) this.#grow();
    this.#put(word, hash, value);
    this.#size += 1;
    return value;
  }

  #put(word: string, hash: number, value: V): void {
    const mask = this.#words.length - 1;
    let slot = hash & mask;
    while (this.#words[slot] !== undefined) slot = (slot + 1) & mask;
    this.#words[slot] = word;
    this.#hashes[slot] = hash;
    this.#values[slot] = value;
  }

  #grow(): void {
    const words = this.#words;
    const hashes = this.#hashes;
    const values = this.#values;
    const size = words.length * 2;
    this.#words = new Array<string | undefined>(size);
    this.#hashes = new Int32Array(size);
    this.#values = new Array<V | undefined>(size);
    for (let slot = 0; slot < words.length; slot++) {
      const word = words[slot];
      if (word !== undefined) this.#put(word, hashes[slot] as number, values[slot] as V);
    }
  }
}

function sameUnits(word: string, text: string, start: number): boolean {
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** FNV-1a's offset basis and prime: hash = (hash ^ unit) * prime, from the basis. */
export const HASH_START = 0x811c9dc5 | 0;
export const HASH_PRIME = 16777619;

/**
 * Visit every word of `text`, in order: `visit(start, end, hash)` for `text.slice(start, end)`,
 * the same words, in the same order, as normalize.ts's `tokenize(text)` gives.
 */
export function forEachWord(text: string, visit: (start: number, end: number, hash: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let units = wordUnitsAt(text, i);
    if (units === 0) {
      i += 1;
      continue;
    }
    const start = i;
    let hash = HASH_START;
    do {
      hash = Math.imul(hash ^ text.charCodeAt(i), HASH_PRIME);
      if (units === 2) hash = Math.imul(hash ^ text.charCodeAt(i + 1), HASH_PRIME);
      i += units;
    } while (i < n && (units = wordUnitsAt(text, i)) !== 0);
    visit(start, i, hash);
  }
}
