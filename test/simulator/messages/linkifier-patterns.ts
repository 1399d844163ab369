// Generated linkifier patterns for the property tests that compare linkifier engines: a group
// `id` between pieces of atoms and quantifiers, kept to what Zulip accepts.
import fc from 'fast-check';
import { checkPattern } from '../../../simulator/engine/realm/linkifier-syntax.ts';

export function linkifierPatterns(atoms: readonly string[], quantifiers: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.tuple(fc.constantFrom(...atoms), fc.constantFrom(...quantifiers)).map(([a, q]) => a + q);
  return fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.array(piece, { minLength: 1, maxLength: 3 }), fc.array(piece, { maxLength: 2 }))
    .map(([before, group, after]) => `${before.join('')}(?P<id>${group.join('')})${after.join('')}`)
    .filter((p) => checkPattern(p).ok);
}
