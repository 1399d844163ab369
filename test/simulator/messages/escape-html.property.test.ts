// HTML escaping in one pass gives what the chained replacements gave (& first, then <, >, ", ').
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { escapeHtml } from '../../../simulator/engine/markdown/index.ts';

const chained = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

test('escapes as the chained replacements did', () => {
  const text = fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.constantFrom('&', '<', '>', '"', "'", '&amp;', 'a', ' ', 'é', '$&', '$1'), { maxLength: 12 }).map((p) => p.join('')));
  expect(escapeHtml(`a<b> & "c" 'd'`)).toBe('a&lt;b&gt; &amp; &quot;c&quot; &#39;d&#39;');
  fc.assert(
    fc.property(text, (s) => {
      expect(escapeHtml(s)).toBe(chained(s));
    }),
    { numRuns: 2000 },
  );
});
