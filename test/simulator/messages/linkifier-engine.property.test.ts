// The linkifier engine moved from JavaScript's backtracking RegExp to re2js (RE2: linear time).
// On patterns where both engines mean the same thing (no `.`, `\s` or case folding, whose
// meanings differ), the links found must be exactly those the RegExp version found. The oracle
// below is that version, kept here verbatim in behaviour.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { expandUrlTemplate, linkifyText, type Linkifier, type LinkifierMatch } from '../../../simulator/engine/markdown/linkifiers.ts';
import { linkifierPatterns } from './linkifier-patterns.ts';

const BEFORE = 'linkifier_before_match';
const OUTER = 'linkifier_actual_match';
const AFTER = 'linkifier_after_match';

function regExpMatches(linkifier: Linkifier, text: string): LinkifierMatch[] {
  const js = linkifier.pattern.replace(/\(\?P</g, '(?<');
  const re = new RegExp(`(?<${BEFORE}>^|[\\t\\n\\f\\r ]|\\u0085|\\p{Z}|['"(,:<])(?<${OUTER}>${js})(?<${AFTER}>$|[^\\p{L}\\p{N}])`, 'gu');
  const out: LinkifierMatch[] = [];
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) break;
    const groups = m.groups!;
    out.push({ index: m.index + groups[BEFORE]!.length, text: groups[OUTER]!, url: expandUrlTemplate(linkifier.url_template, groups) });
    const next = m.index + m[0].length - groups[AFTER]!.length;
    // A whole character on: with the `u` flag, a lastIndex inside a surrogate pair searches from the
    // pair's start again, which looped forever on an empty match before an emoji.
    pos = next > m.index ? next : m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
  }
  return out;
}

function regExpLinkify(text: string, linkifiers: readonly Linkifier[]): LinkifierMatch[] {
  const overlaps = (a: LinkifierMatch, b: LinkifierMatch) =>
    (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);
  const taken: LinkifierMatch[] = [];
  for (const linkifier of linkifiers) for (const m of regExpMatches(linkifier, text)) if (!taken.some((t) => overlaps(t, m))) taken.push(m);
  return taken.sort((a, b) => a.index - b.index);
}

const pattern = linkifierPatterns(['a', 'b', 'Z', '1', '-', '#', '/', '\\d', '\\w', '[0-9]', '[a-z]', '[^ ]', '[a-c1-3#]', '(?:ab|b)', '(?:a|1)', '\\.', 'é', '\\p{L}'], ['', '', '', '+', '*', '?', '{1,3}', '{2}', '+?', '*?']);
const text = fc
  .array(fc.constantFrom('a', 'b', 'ab', 'Z', '1', '12', '-', '#', '/', '.', ' ', '(', ',', 'é', '😀', '\u00a0', '\n', 'x', 'A'), { maxLength: 24 })
  .map((parts) => parts.join(''));

test('an empty match before an emoji moves on by the whole emoji', () => {
  for (const [pattern, t] of [
    ['-*(?P<id>[^ ]?#*)', '😀bab-a/😀é-12'],
    ['(?:ab|b)?(?P<id>1*?\\.*?)-*?', '😀1abx#😀-,'],
    ['a*?[0-9]?(?P<id>é*a?)b*?Z*', '😀b1Z ,/Z-x'],
  ] as const) {
    const linkifiers = [{ pattern, url_template: 'https://l.example/{id}' }];
    expect(linkifyText(t, linkifiers)).toEqual(regExpLinkify(t, linkifiers));
  }
});

test('on safe patterns, re2js finds exactly the links the RegExp engine found', () => {
  fc.assert(
    fc.property(fc.array(pattern, { minLength: 1, maxLength: 3 }), text, (patterns, t) => {
      const linkifiers = patterns.map((p, i) => ({ pattern: p, url_template: `https://l${i}.example/{id}` }));
      expect(linkifyText(t, linkifiers)).toEqual(regExpLinkify(t, linkifiers));
    }),
    { numRuns: 400 },
  );
});
