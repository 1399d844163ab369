// Linkifiers search once per match, asking RE2 for every group at once. The oracle below is the
// earlier search through re2js's Matcher (a test, a find, then the groups), kept verbatim in
// behaviour: on any pattern RE2 accepts, including `.`, `\s` and case folding, both must find the
// same links, at the same places, with the same URLs.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { expect, test } from 'vitest';
import { checkPattern } from '../../../simulator/engine/realm/linkifier-syntax.ts';
import { compileAll, expandUrlTemplate, linkifyRun, linkifyText, uncachedLinkifiers, type Linkifier, type LinkifierMatch } from '../../../simulator/engine/markdown/linkifiers.ts';

const BEFORE = 'linkifier_before_match';
const OUTER = 'linkifier_actual_match';
const AFTER = 'linkifier_after_match';

function matcherMatches(linkifier: Linkifier, text: string): LinkifierMatch[] {
  let re: RE2JS;
  try {
    re = RE2JS.compile(`(?P<${BEFORE}>^|\\s|\\x{85}|\\pZ|['"\\(,:<])(?P<${OUTER}>${linkifier.pattern})(?P<${AFTER}>$|[^\\pL\\pN])`);
  } catch {
    return [];
  }
  const groups = Object.keys(re.namedGroups()).filter((g) => g !== BEFORE && g !== OUTER && g !== AFTER);
  if (!re.test(text)) return [];
  const matcher = re.matcher(text);
  const out: LinkifierMatch[] = [];
  let pos = 0;
  while (pos < text.length && matcher.find(pos)) {
    const values: Record<string, string | undefined> = {};
    for (const name of groups) values[name] = matcher.group(name) ?? undefined;
    out.push({ index: matcher.start(OUTER), text: matcher.group(OUTER)!, url: expandUrlTemplate(linkifier.url_template, values) });
    const start = matcher.start();
    const next = matcher.start(AFTER);
    pos = next > start ? next : start + ((text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
  }
  return out;
}

function matcherLinkify(text: string, linkifiers: readonly Linkifier[]): LinkifierMatch[] {
  const overlaps = (a: LinkifierMatch, b: LinkifierMatch) =>
    (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);
  const taken: LinkifierMatch[] = [];
  for (const linkifier of linkifiers) for (const m of matcherMatches(linkifier, text)) if (!taken.some((t) => overlaps(t, m))) taken.push(m);
  return taken.sort((a, b) => a.index - b.index);
}

const atom = fc.constantFrom('a', 'b', 'Z', '1', '-', '#', '/', '.', '\\s', '\\d', '\\w', '[0-9]', '[^ ]', '(?i:ab)', '(?:ab|b)', '(?:a|1)?', '\\.', 'é', '\\pL', '$', '^', '\\b');
const quantifier = fc.constantFrom('', '', '', '+', '*', '?', '{1,3}', '{2}', '+?', '*?');
const piece = fc.tuple(atom, quantifier).map(([a, q]) => (/^[$^]|\\b/.test(a) ? a : a + q));
const optionalGroup = fc.constantFrom('', '(?P<opt>x)?', '(?P<opt>é|1)?');
const pattern = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.array(piece, { minLength: 1, maxLength: 3 }), optionalGroup, fc.array(piece, { maxLength: 2 }))
  .map(([before, group, opt, after]) => `${before.join('')}(?P<id>${group.join('')})${opt}${after.join('')}`)
  .filter((p) => checkPattern(p).ok);
const text = fc
  .array(fc.constantFrom('a', 'b', 'ab', 'AB', 'Z', '1', '12', '-', '#', '/', '.', ' ', '(', ',', 'é', 'x', '😀', '\u00a0', '\n', '\t', '\u0002', '\u0003'), { maxLength: 24 })
  .map((parts) => parts.join(''));

test('the realm linkifiers link what the Matcher search linked', () => {
  const linkifiers = [
    { pattern: '#D(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-desktop/pull/{id}' },
    { pattern: 'zulip-mobile#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/zulip-mobile/pull/{id}' },
    { pattern: 'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', url_template: 'https://github.com/zulip/{repo}/pull/{id}' },
  ];
  for (const t of ['Fixed by #D1234 and zulip-mobile#5678', '#D12 #D13,zulip-terminal#99', 'x#D1234 #D1 (zulip-a-b#12)', 'no link here']) {
    const found = linkifyText(t, linkifiers);
    expect(found).toEqual(matcherLinkify(t, linkifiers));
  }
  expect(linkifyText('Fixed by #D1234 and zulip-mobile#5678', linkifiers).map((m) => m.url)).toEqual([
    'https://github.com/zulip/zulip-desktop/pull/1234',
    'https://github.com/zulip/zulip-mobile/pull/5678',
  ]);
});

test('one search per match finds exactly what the Matcher search found', () => {
  fc.assert(
    fc.property(fc.array(pattern, { minLength: 1, maxLength: 3 }), text, (patterns, t) => {
      const linkifiers = patterns.map((p, i) => ({ pattern: p, url_template: `https://l${i}.example/{id}{?opt}` }));
      expect(linkifyText(t, linkifiers)).toEqual(matcherLinkify(t, linkifiers));
    }),
    { numRuns: 600 },
  );
});

// A text token is searched with the character just outside it (a line break, or a stand-in for
// an element before or after it), and only matches inside the token count. Patterns may hold
// those characters, so that a literal may straddle the token's edge.
const edge = fc.constantFrom('', '\n', '\u0002', '\u0003');
const edgeAtom = fc.constantFrom('a', '1', '#', '\\n', '\\x{2}', '\\x{3}', '\\s', '[^ ]', '\\x{2}a', 'a\\x{3}', '\\n#');
const edgePattern = fc
  .tuple(fc.array(fc.tuple(edgeAtom, quantifier).map(([a, q]) => a + q), { minLength: 1, maxLength: 3 }), fc.array(edgeAtom, { minLength: 1, maxLength: 2 }))
  .map(([before, group]) => `${before.join('')}(?P<id>${group.join('')})`)
  .filter((p) => checkPattern(p).ok);
const edgeText = fc.array(fc.constantFrom('a', '1', '#', ' ', '\n', '\u0002', '\u0003', 'x'), { maxLength: 10 }).map((p) => p.join(''));

test('a text token links what the joined string links inside the token', () => {
  // A match across the edge links nothing, but still keeps a later linkifier off its text.
  for (const [before, t, after, patterns] of [
    ['\n', '#12', '', ['\\n#(?P<id>12)', '#(?P<id>12)']],
    ['', '#12', '\u0002', ['#(?P<id>12)\\x{2}', '#(?P<id>12)']],
    ['\u0003', 'a#12', '\n', ['\\x{3}a#(?P<id>1)', 'a#(?P<id>12)']],
  ] as const) {
    const linkifiers = patterns.map((p, i) => ({ pattern: p, url_template: `https://l${i}.example/{id}` }));
    const expected = matcherLinkify(before + t + after, linkifiers)
      .map((m) => ({ ...m, index: m.index - before.length }))
      .filter((m) => m.index >= 0 && m.index + m.text.length <= t.length);
    expect(linkifyRun(before, t, after, compileAll(linkifiers, uncachedLinkifiers()))).toEqual(expected);
  }
  fc.assert(
    fc.property(fc.array(fc.oneof(edgePattern, pattern), { minLength: 1, maxLength: 3 }), edge, edgeText, edge, (patterns, before, t, after) => {
      const linkifiers = patterns.map((p, i) => ({ pattern: p, url_template: `https://l${i}.example/{id}` }));
      const expected = matcherLinkify(before + t + after, linkifiers)
        .map((m) => ({ ...m, index: m.index - before.length }))
        .filter((m) => m.index >= 0 && m.index + m.text.length <= t.length);
      expect(linkifyRun(before, t, after, compileAll(linkifiers, uncachedLinkifiers()))).toEqual(expected);
    }),
    { numRuns: 1500 },
  );
});
