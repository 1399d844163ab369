// A linkifier's regex runs (and is compiled) only on text holding the literal its pattern starts
// with (requiredLiteral): text without it must be text the pattern cannot match, whatever the
// pattern.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { linkifyText, requiredLiteral } from '../../../simulator/engine/markdown/linkifiers.ts';

describe('the literal a linkifier pattern starts with', () => {
  it.each([
    ['#D(?P<id>[0-9]{2,8})', '#D'],
    ['zulip-mobile#(?P<id>[0-9]{2,8})', 'zulip-mobile#'],
    ['zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', 'zulip-'],
    // A quantifier makes the character before it optional, or repeats it.
    ['ab?c', 'a'],
    ['zulip-*x', 'zulip'],
    ['ab{2}', 'a'],
    ['a+', ''],
    // A flag group is no atom: a quantifier after it repeats the character before it.
    ['a(?i)*b', ''],
    ['ab(?:cd)*', 'ab'],
    ['ab[cd]', 'ab'],
    // Alternation, flags, classes, anchors and escapes: nothing is certain.
    ['PR|MR#(?P<id>[0-9]+)', ''],
    ['(?i)jira-(?P<id>[0-9]+)', ''],
    ['[A-Z]+-(?P<id>[0-9]+)', ''],
    ['^x', ''],
    ['\\d+', ''],
    ['a.b', ''],
    ['ab.c', 'a'],
  ])('%s: %j', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  const atom = fc.oneof(
    fc.constantFrom('a', 'b', 'A', '#', '-', '_', '1', '@', '/', ':', '=', '~', '%', '&', '.', '[ab]', '[^a]', '\\d', '\\s', '(?i)', '^', '$'),
    fc.constantFrom('(a|b)', '(?P<id>[0-9]+)', '(?:ab)', 'a|', '|b', '()', '(?i:a)', '(?P<x>)', '(?-i)'),
  );
  const quantifier = fc.constantFrom('', '', '', '?', '*', '+', '{2}', '{0,1}', '{1,}');
  const pattern = fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 6 }).map((parts) => parts.map(([a, q]) => a + q).join(''));
  const text = fc.array(fc.constantFrom('a', 'b', 'A', 'B', '#', '-', '_', '1', '2', '@', '/', ':', '=', '~', '%', '&', ' ', 'é', '\n'), { maxLength: 12 }).map((cs) => cs.join(''));

  it('is in every text the pattern matches', () => {
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        let re: RE2JS;
        try {
          re = RE2JS.compile(p);
        } catch {
          return;
        }
        if (re.matcher(t).find()) expect(t).toContain(requiredLiteral(p));
      }),
      { numRuns: 3000 },
    );
  });

  it('text without it gets no links, and text with it does', () => {
    const linkifiers = [{ pattern: '#D(?P<id>[0-9]{2,8})', url_template: 'https://example.com/D{id}' }];
    expect(linkifyText('see D123 and #d123', linkifiers)).toEqual([]);
    expect(linkifyText('see #D123', linkifiers)).toEqual([{ index: 4, text: '#D123', url: 'https://example.com/D123' }]);
  });
});
