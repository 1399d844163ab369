// Links are normalized as markdown-it normalizes them, less the punycode call where punycode
// returns the host unchanged. The oracle is markdown-it's own normalizeLink and normalizeLinkText.
import fc from 'fast-check';
import markdownIt from 'markdown-it';
import { expect, test } from 'vitest';
import { skipIdlePunycode } from '../../../simulator/engine/markdown/normalize-link.ts';

const oracle = markdownIt();
const patched = markdownIt();
skipIdlePunycode(patched);

const piece = fc.constantFrom(
  'http:', 'https:', 'mailto:', 'ftp:', 'skype:', 'HTTP:', '//', '/', '.', '@', ':', '#', '?', '&', '=', '%', '%41', '%zz', ' ', '[', ']',
  'example', 'com', 'xn--', 'xn--bcher-kva', 'XN--', 'bücher', 'пример', '日本', '\u3002', '\uFF0E', '\u007F', 'a', 'Z', '9', '-', '_', '~', '+', '😀', '\\',
);
const url = fc.oneof(fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 20 }));

test('normalizes every link as markdown-it does', () => {
  for (const u of ['https://zulip.com', 'http://staging.example.com', 'https://bücher.example/x?y#z', 'http://xn--bcher-kva.example', 'mailto:a@b.c', 'http://a@b@c.d/']) {
    expect(patched.normalizeLink(u)).toBe(oracle.normalizeLink(u));
    expect(patched.normalizeLinkText(u)).toBe(oracle.normalizeLinkText(u));
  }
  fc.assert(
    fc.property(url, (u) => {
      expect(patched.normalizeLink(u)).toBe(oracle.normalizeLink(u));
      expect(patched.normalizeLinkText(u)).toBe(oracle.normalizeLinkText(u));
    }),
    { numRuns: 3000 },
  );
});
