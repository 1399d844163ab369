/** Values derived from a document ride on it unseen: the document reads, copies and compares as before. */
import { describe, expect, it } from 'vitest';
import { docMemo } from '../../scripts/catalog/doc-memo.ts';

const doc = () => ({ kind: 'service', file: 'content/services/x.md', body: 'Texto.', fm: { slug: 'x' } });

describe('docMemo', () => {
  it('gives back what was remembered for that document, and nothing for another', () => {
    const words = docMemo<object, number>('words');
    const a = doc();
    expect(words.get(a)).toBeUndefined();
    expect(words.set(a, 3)).toBe(3);
    expect(words.get(a)).toBe(3);
    expect(words.get(doc())).toBeUndefined();
    words.set(a, 4);
    expect(words.get(a)).toBe(4);
  });

  it('keeps the values of two memos apart', () => {
    const first = docMemo<object, string>('first');
    const second = docMemo<object, string>('second');
    const a = doc();
    first.set(a, 'one');
    second.set(a, 'two');
    expect([first.get(a), second.get(a)]).toEqual(['one', 'two']);
  });

  it('leaves the document as JSON, spreads, key lists and equality see it', () => {
    const memo = docMemo<object, { big: string }>('derived');
    const a = doc();
    const before = JSON.stringify(a);
    memo.set(a, { big: 'x'.repeat(10) });
    expect(JSON.stringify(a)).toBe(before);
    expect(Object.keys(a)).toEqual(['kind', 'file', 'body', 'fm']);
    expect({ ...a }).toEqual(doc());
    expect(a).toEqual(doc());
    expect(a).toStrictEqual(doc());
  });

  it('works on a frozen document too', () => {
    const memo = docMemo<object, number>('frozen');
    const a = Object.freeze(doc());
    expect(memo.set(a, 7)).toBe(7);
    expect(memo.get(a)).toBe(7);
    expect(Object.getOwnPropertySymbols(a)).toEqual([]);
  });
});
