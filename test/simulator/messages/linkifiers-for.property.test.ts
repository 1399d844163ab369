// A message's render runs only the linkifiers whose literal its Markdown holds (linkifiersFor):
// exact as long as every text run markdown-it makes is a piece of its source, which holds where the
// source has no escape (`\`) or entity (`&#35;`, `&amp;`), the two ways markdown-it makes text of its own.
import fc from 'fast-check';
import markdownIt, { type Token } from 'markdown-it';
import { describe, expect, test } from 'vitest';
import { linkifiersFor, mayDecodeText, uncachedLinkifiers } from '../../../simulator/engine/markdown/linkifiers.ts';

// Zulip's renderer's settings (simulator/engine/markdown/index.ts createRenderer).
const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
md.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
md.disable(['reference', 'lheading', 'image']);

function textRuns(tokens: readonly Token[], out: string[] = []): string[] {
  for (const t of tokens) {
    if (t.type === 'text') out.push(t.content);
    if (t.children) textRuns(t.children, out);
  }
  return out;
}

const piece = fc.constantFrom(
  'zulip-mobile#12', '#D1234', 'zulip-', '#', 'D', '-', 'mobile', ' ', '\n', '\n\n', '> ', '- ', '1. ', '    ', '\t', '```', '```quote\n', '~~~', '**', '_', '`', '[', '](https://a.com)', ']',
  'https://a.com/#D12', 'zulip.com', '@**King Hamlet**', ':tada:', '<', '>', '|', '---', '# ', '\r\n', '\0', 'é', '🎉',
  '&', 'amp', ';', '&#', '35;', 'x=1&y=2', '\\', '\\#',
);
const source = fc.array(piece, { minLength: 1, maxLength: 16 }).map((parts) => parts.join(''));

describe('linkifiersFor', () => {
  const linkifiers = [
    { pattern: '#D(?P<id>[0-9]{2,8})', url_template: 'https://example.com/D{id}' },
    { pattern: 'zulip-mobile#(?P<id>[0-9]{2,8})', url_template: 'https://example.com/m/{id}' },
    { pattern: '[A-Z]+-(?P<id>[0-9]+)', url_template: 'https://example.com/j/{id}' },
  ];
  const literals = (src: string) => linkifiersFor(src, linkifiers, uncachedLinkifiers()).map((r) => r.linkifier.pattern);

  test('keeps the linkifiers whose literal the source holds, and those with none', () => {
    expect(literals('see #D12 today')).toEqual(['#D(?P<id>[0-9]{2,8})', '[A-Z]+-(?P<id>[0-9]+)']);
    expect(literals('zulip-mobile#5 and #D7')).toEqual(linkifiers.map((l) => l.pattern));
  });

  test('keeps them all where an escape or entity may make text the source does not hold', () => {
    expect(literals('&#35;D1234')).toEqual(linkifiers.map((l) => l.pattern));
    expect(literals('\\#D1234')).toEqual(linkifiers.map((l) => l.pattern));
  });

  test('keeps those with a literal where a bare `&` (a URL query) is no entity', () => {
    expect(literals('see https://a.com/?x=1&D12=2')).toEqual(['[A-Z]+-(?P<id>[0-9]+)']);
  });

  test('every text run of a source without escapes or entities is a piece of it', () => {
    let checked = 0;
    fc.assert(
      fc.property(source, (src) => {
        if (mayDecodeText(src)) return;
        checked++;
        for (const run of textRuns(md.parse(src, {}))) expect(src.replace(/\r\n/g, '\n').replace(/\0/g, '\ufffd')).toContain(run);
      }),
      { numRuns: 4000 },
    );
    expect(checked).toBeGreaterThan(1000);
  });
});
