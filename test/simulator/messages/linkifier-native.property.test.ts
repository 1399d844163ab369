// A linkifier pattern inside the subset linkifier-native.ts reads runs as a RegExp; its links must
// be exactly those re2js finds, for any text, and patterns outside the subset stay on re2js.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { nativeLinkifier, translatePattern } from '../../../simulator/engine/markdown/linkifier-native.ts';
import { linkifyText, uncachedLinkifiers, withRe2Only } from '../../../simulator/engine/markdown/linkifiers.ts';
import { linkifierPatterns } from './linkifier-patterns.ts';

describe('the patterns a RegExp runs', () => {
  test.each([
    '#D(?P<id>[0-9]{2,8})',
    'zulip-mobile#(?P<id>[0-9]{2,8})',
    'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})',
    '(?P<org>[a-z0-9_-]+)/(?P<repo>[a-z0-9_-]+)#(?P<id>\\d+)',
    'JIRA-(?P<id>\\d+)',
    'RT #(?P<id>[0-9]+)',
  ])('%s', (pattern) => {
    expect(nativeLinkifier(pattern)).toBeInstanceOf(RegExp);
  });

  test.each([
    ['alternation', 'PR|MR#(?P<id>[0-9]+)'],
    ['a dot', 'a.b(?P<id>[0-9]+)'],
    ['flags', '(?i)jira-(?P<id>[0-9]+)'],
    ['a repeated group', '(?:ab)+(?P<id>[0-9]+)'],
    ['an unbounded run followed by what it takes', '(?P<id>[0-9]+)[0-9]'],
    ['an unbounded run followed by an optional atom', '(?P<a>[a-z]+)-?x'],
    ['many bounded choices', '(?P<id>[0-9]{1,9}x{1,9})'],
    ['a Unicode class', '\\pL+#(?P<id>[0-9]+)'],
    ['a word boundary', '\\bx(?P<id>[0-9]+)'],
    ['anchors', '^x(?P<id>[0-9]+)$'],
    ['a double quantifier', 'x**(?P<id>[0-9]+)'],
    ['an unclosed class', 'x[0-9(?P<id>1)'],
  ])('not %s: %s', (_, pattern) => {
    expect(translatePattern(pattern)).toBeNull();
  });
});

const pattern = linkifierPatterns(['a', 'b', 'Z', '1', '-', '#', '/', '\\d', '\\w', '\\s', '[0-9]', '[a-z]', '[^ ]', '[a-c1-3#]', '[-a]', '[a-]', '[a-z-9]', '\\.', '\\-', 'é', ' ', '(?:ab|b)', '.', '\\pL'], ['', '', '', '', '+', '*', '?', '{1,3}', '{2}', '{2,}', '+?', '*?', '??']);
const text = fc
  .array(fc.constantFrom('a', 'b', 'ab', 'Z', '1', '12', '-', '#', '/', '.', ' ', '(', ',', ':', '<', 'é', '\u00a0', '\u2028', '\n', '\t', '\v', 'x', 'A', '_'), { maxLength: 24 })
  .map((parts) => parts.join(''));

test('finds exactly what re2js finds, on any text', () => {
  let native = 0;
  let runs = 0;
  fc.assert(
    fc.property(pattern, fc.array(text, { minLength: 4, maxLength: 8 }), (p, texts) => {
      runs++;
      if (nativeLinkifier(p)) native++;
      const linkifiers = [{ pattern: p, url_template: 'https://l.example/{id}' }];
      const caches = uncachedLinkifiers();
      for (const t of texts) expect(linkifyText(t, linkifiers, caches), `${p} on ${JSON.stringify(t)}`).toEqual(withRe2Only(() => linkifyText(t, linkifiers, caches)));
    }),
    { numRuns: Number(process.env.NATIVE_RUNS ?? 400) },
  );
  // A generator whose patterns never left re2js would test nothing.
  expect(native).toBeGreaterThan(runs / 5);
}, 60_000);
