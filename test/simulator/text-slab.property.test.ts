/**
 * Long answers are encoded into slices of a shared slab (simulator/http/fast/text-slab.ts). Each must
 * be exactly the text's UTF-8 (as Buffer.from writes it, lone surrogates included), and stay so
 * while later answers are encoded: a slice handed to the socket is never written again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextSlab } from '../../simulator/http/fast/text-slab.ts';

// Text beyond ASCII (two-, three- and four-byte characters) and lone surrogates, in pieces, so
// that some answers are concatenations, as the engine writes them.
const piece = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('é', '日本語', '🐙', '\ud800', '\udfff x'));
const answer = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.reduce((text, p) => text + p, ''));

describe('TextSlab', () => {
  it('gives each text its own UTF-8 bytes, unchanged by the texts encoded after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), fc.array(answer, { minLength: 1, maxLength: 40 }), (size, texts) => {
        const slab = new TextSlab(size);
        const encoded = texts.map((text) => slab.encode(text));
        texts.forEach((text, i) => expect(Buffer.compare(encoded[i]!, Buffer.from(text))).toBe(0));
      }),
    );
  });

  it('encodes a text longer than a slab can hold by itself', () => {
    const slab = new TextSlab(16);
    const kept = slab.encode('ab');
    const long = 'naïve 🐙 '.repeat(10);
    expect(slab.encode(long).toString('utf8')).toBe(long);
    expect(kept.toString('utf8')).toBe('ab');
  });
});
