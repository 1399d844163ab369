/** simulator/delivery/python-text.ts: Python's repr() and str() where Zulip's worker shows them to people. */
import { describe, expect, it } from 'vitest';
import { isBlank, pythonBytesRepr, pythonStr, pythonStrRepr, pythonTruthy } from '../../../simulator/delivery/python-text.ts';

describe("Python's text of values", () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", `"it's"`],
    [`it's "quoted"`, `'it\\'s "quoted"'`],
    ['tab\tnew\nline\\', "'tab\\tnew\\nline\\\\'"],
    ['café ☕', "'café ☕'"],
    ['\u0000\u007f\u00a0\u200b', "'\\x00\\x7f\\xa0\\u200b'"],
    ['\u{1F600}', "'\u{1F600}'"],
  ])('repr(%j) is %s', (text, repr) => {
    expect(pythonStrRepr(text)).toBe(repr);
  });

  it('repr() of bytes escapes everything outside printable ASCII', () => {
    expect(pythonBytesRepr(new TextEncoder().encode("café 'x'\n"))).toBe(`b"caf\\xc3\\xa9 'x'\\n"`);
    expect(pythonBytesRepr(new Uint8Array([0x41, 0x27, 0x22]))).toBe(`b'A\\'"'`);
  });

  it.each([
    ['text', 'text'],
    [42, '42'],
    [1.5, '1.5'],
    [true, 'True'],
    [null, 'None'],
    [{ a: [1, 'b'] }, "{'a': [1, 'b']}"],
  ])('str(%j) is %s', (value, text) => {
    expect(pythonStr(value)).toBe(text);
  });

  it('truthiness and blankness follow Python', () => {
    expect([true, 1, 'x', [0], { a: 0 }].map(pythonTruthy)).toEqual([true, true, true, true, true]);
    expect([false, 0, '', [], {}, null, undefined].map(pythonTruthy)).toEqual([false, false, false, false, false, false, false]);
    expect([' \n\t', '\u00a0\u2003', ' x '].map(isBlank)).toEqual([true, true, false]);
  });
});
