// The scanner for what follows `http:` (simulator/engine/markdown/http-tail.ts) must give the
// length linkify-it's own `http:` expression matches, for any text.
import fc from 'fast-check';
import markdownIt from 'markdown-it';
import { expect, test } from 'vitest';
import { httpTail, httpTailByRegex, scanHttpTails } from '../../../simulator/engine/markdown/http-tail.ts';

const oracle = markdownIt({ linkify: true });
oracle.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
const scanned = markdownIt({ linkify: true });
scanned.linkify.set({ fuzzyLink: true, fuzzyEmail: false });
scanHttpTails(scanned);
// linkify-it compiles `re` on construction; the validator reads it from there.
const re = (oracle.linkify as unknown as { re: Parameters<typeof httpTail>[0] }).re;

const NUM_RUNS = Number(process.env.HTTP_TAIL_RUNS ?? 2000);

const piece = fc.constantFrom(
  '//', '/', '?', '#', 'a', 'Z', '0', '9', 'example', '.com', '.', '..', '...', '-', '--', '_', ',', ';', '!', '!!', "'", '"', '(', ')', '[', ']', '{', '}',
  '<', '>', '&', '%', '%20', '=', '+', '*', '@', 'user@', ':', ':80', ':8080', ':99999', '|', '\\', '^', '`', '~', '$', ' ', '\n', '\t', '\x7f', '\x00',
  'localhost', '127.0.0.1', 'xn--p1ai', 'é', 'ü', '\u00a0', '\u3000', '\uff5c', '😀', '\u0085', 'ſ',
);
// What the path's rules turn on: its punctuation, letters and the characters that end it.
const pathPiece = fc.constantFrom('a', 'b1', '/', '?', '#', '.', '..', '-', ',', ';', '!', '?', "'", '"', '(', ')', '[', ']', '{', '}', '<', '>', '&', '%', ' ', '\n', 'é', '\u00a0');
const tail = fc.oneof(
  fc.array(pathPiece, { maxLength: 10 }).map((p) => `//a.com/${p.join('')}`),
  fc.array(pathPiece, { maxLength: 10 }).map((p) => `//a.com${p.join('')}`),
  fc.array(piece, { maxLength: 16 }).map((p) => p.join('')),
  fc.array(piece, { maxLength: 16 }).map((p) => `//example.com${p.join('')}`),
  fc.string({ maxLength: 30 }).map((s) => `//a.b/${s}`),
);

test('gives the length of linkify-it’s own http: expression', () => {
  for (const t of ['//a.com', '//a.com/', '//a.com/x?y=1&z=2#f', '//a.com/x.', '//a.com/x...y', "//a.com/it's", '//a.com/(x)', '//a.com/[x', '//u@a.com:80/p', '//a.com/ü', '//', 'x']) {
    expect(httpTail(re, t), t).toBe(httpTailByRegex(re, t));
  }
  fc.assert(
    fc.property(tail, (t) => {
      expect(httpTail(re, t)).toBe(httpTailByRegex(re, t));
    }),
    { numRuns: NUM_RUNS },
  );
});

test('markdown-it finds the same links with it', () => {
  fc.assert(
    fc.property(tail, fc.constantFrom('http:', 'https:', 'HTTPS:', 'ftp:', 'see http:'), (t, schema) => {
      const text = `${schema}${t} end`;
      expect(scanned.linkify.match(text)).toEqual(oracle.linkify.match(text));
      expect(scanned.render(text)).toBe(oracle.render(text));
    }),
    { numRuns: NUM_RUNS / 4 },
  );
});
