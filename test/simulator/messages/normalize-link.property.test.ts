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
// URLs shaped like the ones bots send, near the edges of what mdurl gives back unchanged.
const label = fc.oneof(fc.constantFrom('zulip', 'ci', 'xn--bcher-kva', 'a-b', '9', 'bücher', ''), fc.integer({ min: 62, max: 65 }).map((n) => 'a'.repeat(n)));
const host = fc.array(label, { minLength: 1, maxLength: 4 }).map((l) => l.join('.'));
const tail = fc.array(fc.constantFrom('/', '?', '#', '&', '=', '@', ':', '%20', '%', 'a', '.', ' ', '~', '[', ']', "'", '"', '<', '\\', 'é'), { maxLength: 8 }).map((p) => p.join(''));
const httpUrl = fc
  .tuple(fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', 'http:/', ' https://'), host, fc.constantFrom('', ':8080', ':', '@x'), tail, fc.constantFrom('', ' ', '\n'))
  .map(([s, h, p, t, e]) => s + h + p + t + e);
const url = fc.oneof(
  fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  httpUrl,
  fc.tuple(fc.constantFrom('https://x.', 'http://'), fc.integer({ min: 240, max: 270 })).map(([s, n]) => s + 'a'.repeat(Math.min(n, 63)) + '.b'.repeat(Math.max(0, (n - 63) >> 1))),
);

test('normalizes every link as markdown-it does', () => {
  for (const u of ['https://zulip.com', 'http://staging.example.com', 'https://ci.example.com/builds/5678/log?attempt=2&job=test-unit', 'https://x.com/%7e%zz?a=%20#b', 'https://bücher.example/x?y#z', 'http://xn--bcher-kva.example', 'mailto:a@b.c', 'http://a@b@c.d/']) {
    expect(patched.normalizeLink(u)).toBe(oracle.normalizeLink(u));
    expect(patched.normalizeLinkText(u)).toBe(oracle.normalizeLinkText(u));
  }
  fc.assert(
    fc.property(url, (u) => {
      expect(patched.normalizeLink(u)).toBe(oracle.normalizeLink(u));
      expect(patched.normalizeLinkText(u)).toBe(oracle.normalizeLinkText(u));
    }),
    { numRuns: 6000 },
  );
});
