/**
 * The text checks every send goes through: where a text stops printing (Zulip's
 * check_string_is_printable) and how a topic is cut to the realm's limit (truncate_topic). Both
 * count code points, not UTF-16 units; their quick paths must answer what the walk over every
 * code point answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateTopic } from '../../simulator/engine/messages/send.ts';
import { codePointLength, unprintablePosition } from '../../simulator/engine/text.ts';
import { sim } from './messages/helpers.ts';

/** The 1-based position of the first control, lone surrogate or unassigned code point. */
function firstUnprintable(text: string): number | undefined {
  const points = [...text];
  const i = points.findIndex((ch) => /^[\p{Cc}\p{Cs}\p{Cn}]$/u.test(ch));
  return i < 0 ? undefined : i + 1;
}

// Printing text with, now and then, a control, a lone surrogate, an unassigned code point or an astral one.
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\t', '\n', '\u007f', '\u0085', '\ud800', '\udfff', '\u0378', '\ufdd0', '\u{10ffff}', '🎉', 'é', '\u200b') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
);
const text = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));

describe('unprintablePosition', () => {
  it('answers the position of the first unprintable code point, or undefined when every one prints', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(unprintablePosition(t)).toBe(firstUnprintable(t));
      }),
    );
  });
});

describe('truncateTopic', () => {
  const engine = sim().engine;
  const limit = engine.state.realm.max_topic_length;
  // Around the limit, in letters and in astral characters (two UTF-16 units each).
  const topic = fc.tuple(fc.integer({ min: limit - 3, max: limit + 3 }), fc.constantFrom('y', '🎉', 'é')).map(([n, ch]) => ch.repeat(n));

  it('keeps a topic of at most the limit in code points, and cuts a longer one to the limit ending in "..."', () => {
    fc.assert(
      fc.property(fc.oneof(topic, text), (t) => {
        const cut = truncateTopic(engine, t);
        if (codePointLength(t) <= limit) expect(cut).toBe(t);
        else expect(cut).toBe([...t].slice(0, limit - 3).join('') + '...');
      }),
    );
  });
});
