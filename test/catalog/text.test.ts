/** Text measures: the word count behind `word_count` and `reading_time_minutes`. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readingMinutes, wordCount } from '../../scripts/catalog/text.ts';

/** The definition, written the slow and obvious way. */
function reference(text: string): number {
  return text.split(/[ \n\t\r\f\v\u00a0]+/).filter((token) => /[0-9A-Za-z\u00c0-\u1fff\u2070-\uffff]/.test(token)).length;
}

describe('wordCount', () => {
  it.each([
    ['', 0],
    ['## Título\n\nUna frase, con comas.', 5],
    ['- uno\n- dos\n| a | b |', 4],
    ['¿Qué? — «sí» …', 2],
    ['año 2026\u00a0días', 3],
    ['emoji 😀 cuenta', 3],
  ])('counts %j as %i words', (text, words) => {
    expect(wordCount(text)).toBe(words);
  });

  it('agrees with the definition on any text', () => {
    const alphabet = fc.constantFrom(' ', '\n', '\t', '\u00a0', '#', '-', '|', '¿', '«', '—', '…', 'a', 'Z', '7', 'ñ', 'É', '😀', '\u2070', '\u201c');
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 60 }).map((cs) => cs.join('')), (text) => {
      expect(wordCount(text)).toBe(reference(text));
    }), { numRuns: 500 });
  });

  it('rounds reading time up, never below a minute', () => {
    expect([0, 1, 200, 201, 1000].map(readingMinutes)).toEqual([1, 1, 1, 2, 5]);
  });
});
