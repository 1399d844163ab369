/**
 * Query strings and urlencoded bodies are read by a fast path (simulator/http/fast/form-fields.ts)
 * that must give exactly what URLSearchParams gives: the same names, values and order, the last
 * value of a repeated name, for any text (escapes valid or broken, `+`, `=` in values, empty
 * pairs, a leading `?`, lone surrogates), and for any body bytes (ASCII, UTF-8, or neither).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formFields, plainFormFields } from '../../simulator/http/fast/form-fields.ts';
import { parseBody } from '../../simulator/http/form-body.ts';

const entries = (map: ReadonlyMap<string, string>): [string, string][] => [...map];

// Pieces a form is made of, its separators and escapes overrepresented.
const piece = fc.oneof(
  fc.constantFrom('&', '=', '+', '?', '%', '%2', '%20', '%2B', '%26', '%3D', '%zz', '%C3%A9', '%E2%82%AC', '%F0%9F%90%99', '%C3', '%FF', '%ED%A0%80', '%EF%BB%BF', '%00'),
  fc.constantFrom('a', 'to', 'content', 'é', '日本', '🐙', '\ud800', '\udfff', ' '),
  fc.string({ maxLength: 8 }),
);
const form = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(''));

// ASCII forms whose escapes stand for any bytes (UTF-8 or not), in either case of hex digit.
const escape = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.boolean()).map(([byte, upper]) => {
  const hex = byte.toString(16).padStart(2, '0');
  return `%${upper ? hex.toUpperCase() : hex}`;
});
const asciiForm = fc
  .array(fc.oneof(escape, escape, fc.constantFrom('&', '=', '+', '%', '%4', 'a', 'é'.normalize('NFD').slice(0, 1)), fc.string({ unit: 'binary-ascii', maxLength: 6 })), { maxLength: 40 })
  .map((pieces) => pieces.join(''));

/** A form as a client sends it: names and values %-escaped by URLSearchParams itself. */
const encoded = fc
  .array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 40 })), { maxLength: 8 })
  .map((pairs) => new URLSearchParams(pairs).toString());

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
/** The plain reading of body bytes: strict UTF-8, else ISO-8859-1 (Django's QueryDict). */
function plainBody(bytes: Uint8Array): Map<string, string> {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    text = Buffer.from(bytes).toString('latin1');
  }
  return plainFormFields(text);
}

describe('formFields', () => {
  it('reads any text as URLSearchParams does', () => {
    fc.assert(
      fc.property(form, (text) => {
        expect(entries(formFields(text))).toEqual(entries(plainFormFields(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads ASCII forms with escapes of any bytes as URLSearchParams does', () => {
    fc.assert(
      fc.property(asciiForm, (text) => {
        expect(entries(formFields(text))).toEqual(entries(plainFormFields(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads what clients send as URLSearchParams does', () => {
    fc.assert(
      fc.property(encoded, (text) => {
        expect(entries(formFields(text))).toEqual(entries(plainFormFields(text)));
      }),
    );
  });

  it('reads the corners named in the WHATWG parser', () => {
    for (const text of ['', '?', '??a=1', '&&', 'a', 'a=', '=b', 'a=b=c', 'a=1&a=2&b', '+%2B+=%3D', '100%', '%41%zz', 'x=%C3%A9&y=%C3', 'k=\ud800']) {
      expect(entries(formFields(text))).toEqual(entries(plainFormFields(text)));
    }
  });
});

describe('parseBody of urlencoded bytes', () => {
  it('reads any bytes as strict UTF-8 (else ISO-8859-1) and URLSearchParams do', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 60 }),
      form.map((text) => new Uint8Array(Buffer.from(text, 'utf8'))),
      encoded.map((text) => new Uint8Array(Buffer.from(text, 'latin1'))),
    );
    fc.assert(
      fc.property(bytes, (body) => {
        const parsed = parseBody({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.from(body) });
        if (parsed instanceof Promise) throw new Error('urlencoded bodies are read at once');
        expect(entries(parsed.fields)).toEqual(entries(body.length === 0 ? new Map() : plainBody(body)));
      }),
      { numRuns: 1000 },
    );
  });
});
