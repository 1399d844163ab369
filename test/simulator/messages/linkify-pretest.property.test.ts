// The quick first look for links turns text down only where linkify-it's own pretest does: the
// answers of markdown-it's linkify-it with and without it must be the same for any text.
import fc from 'fast-check';
import markdownIt from 'markdown-it';
import { expect, test } from 'vitest';
import { quickLinkifyPretest, skipLinklessMessages } from '../../../simulator/engine/markdown/linkify-pretest.ts';

const oracle = markdownIt({ linkify: true });
oracle.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
const quick = markdownIt({ linkify: true });
quick.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
quickLinkifyPretest(quick);

const piece = fc.constantFrom(
  'http:', 'HTTPS:', 'ftp:', 'mailto:', '//', '/', ':', '.', '@', 'www', 'www.', 'WWW.', 'localhost', 'LocalHost', 'locaIhost', 'ſ', 'K',
  'com', 'zulip', '.com', '.org', '.1.', '1', '127', 'a', ' ', '\n', '_', '<', '>', '\uff5c', '\u00a0', 'é', '😀', 'xn--',
);
const text = fc.oneof(fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), fc.string({ maxLength: 40 }));

test('turns down only what linkify-it turns down', () => {
  for (const t of ['hello world', 'see zulip.com', 'http://x', 'at localhost now', 'LOCALHOST', 'a@b', 'fix the retry loop']) {
    expect(quick.linkify.pretest(t)).toBe(oracle.linkify.pretest(t));
  }
  fc.assert(
    fc.property(text, (t) => {
      expect(quick.linkify.pretest(t)).toBe(oracle.linkify.pretest(t));
    }),
    { numRuns: 5000 },
  );
});

test('a message with no text run that may hold a link renders as with the linkify rule', () => {
  const plain = markdownIt({ linkify: true, breaks: true });
  plain.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
  const skipping = markdownIt({ linkify: true, breaks: true });
  skipping.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
  skipLinklessMessages(skipping);
  const markdown = fc.array(fc.constantFrom(...['`', '[', '](https://a.com)', '](', ')', '**', '\\', '&#46;', '\n\n', '> ', '- ', '```\n', 'x'], 'zulip.com', 'a.b', 'http://x.org', ':', '.', '@', 'ok', ' '), { maxLength: 14 }).map((p) => p.join(''));
  for (const m of ['`zulip.com` here', '[zulip.com](https://a.com) here', 'plain', 'see zulip.com']) expect(skipping.render(m)).toBe(plain.render(m));
  fc.assert(
    fc.property(markdown, (m) => {
      expect(skipping.render(m)).toBe(plain.render(m));
    }),
    { numRuns: 3000 },
  );
});
