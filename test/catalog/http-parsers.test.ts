/**
 * Properties of the server's header parsers: whatever a client sends, Range yields a slice
 * inside the file or one of the two other answers, and Accept-Encoding never picks a coding the
 * server lacks or the client refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, parseAcceptEncoding } from '../../scripts/catalog/http/accept-encoding.ts';
import { parseRange } from '../../scripts/catalog/http/range.ts';
import { targetPath } from '../../scripts/catalog/http/target.ts';

const headerText = fc.oneof(fc.string(), fc.stringMatching(/^[a-zA-Z ]{0,6}=?[-0-9, ]{0,20}$/));

describe('parseRange', () => {
  it('any header gives whole, unsatisfiable, or a slice inside the file', () => {
    fc.assert(
      fc.property(headerText, fc.nat(5000), (header, length) => {
        const a = parseRange(header, length);
        if (a.kind === 'partial') {
          expect(a.start).toBeGreaterThanOrEqual(0);
          expect(a.end).toBeGreaterThanOrEqual(a.start);
          expect(a.end).toBeLessThan(length);
        } else expect(['whole', 'unsatisfiable']).toContain(a.kind);
      }),
    );
  });

  it('a single well-formed range agrees with a model of RFC 9110 section 14.1.2', () => {
    const spec = fc.oneof(
      fc.tuple(fc.nat(300), fc.nat(300)).map(([a, b]) => ({ text: `${Math.min(a, b)}-${Math.max(a, b)}`, first: Math.min(a, b), last: Math.max(a, b) as number | null, suffix: null })),
      fc.nat(300).map((a) => ({ text: `${a}-`, first: a, last: null, suffix: null })),
      fc.nat(300).map((n) => ({ text: `-${n}`, first: null, last: null, suffix: n })),
    );
    fc.assert(
      fc.property(spec, fc.nat(200), fc.constantFrom('bytes', 'BYTES', 'Bytes'), (s, length, unit) => {
        const a = parseRange(`${unit}=${s.text}`, length);
        if (s.suffix !== null) {
          if (s.suffix === 0 || length === 0) expect(a).toEqual({ kind: 'unsatisfiable' });
          else expect(a).toEqual({ kind: 'partial', start: Math.max(0, length - s.suffix), end: length - 1 });
        } else if ((s.first as number) >= length) expect(a).toEqual({ kind: 'unsatisfiable' });
        else expect(a).toEqual({ kind: 'partial', start: s.first, end: Math.min(s.last ?? Infinity, length - 1) });
      }),
    );
  });
});

describe('chooseEncoding', () => {
  const available = ['br', 'gzip'] as const;
  it('picks an available coding or none, never one the client weighted 0', () => {
    const element = fc.tuple(fc.constantFrom('br', 'gzip', 'identity', '*', 'deflate', 'x-gzip', 'BR'), fc.option(fc.constantFrom('0', '0.5', '1', '0.001', '1.0', 'x')));
    fc.assert(
      fc.property(fc.array(element, { maxLength: 5 }), (elements) => {
        const header = elements.map(([name, q]) => (q === null ? name : `${name};q=${q}`)).join(', ');
        const chosen = chooseEncoding(header, available);
        expect(chosen === null || available.includes(chosen)).toBe(true);
        if (chosen === null) return;
        const weights = parseAcceptEncoding(header);
        const q = weights.get(chosen) ?? weights.get('*');
        expect(q).toBeGreaterThan(0);
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        expect(() => chooseEncoding(header, available)).not.toThrow();
      }),
    );
  });
});

describe('targetPath', () => {
  // Built from the characters that matter to the parser (fast-check's webPath is slow here).
  const pathLike = fc.array(fc.constantFrom('/', 'a', '%', '2', 'e', 'E', '0', '.', '?', '#', 'z', 'ñ', ':', '['), { maxLength: 20 }).map((cs) => cs.join(''));
  it('never throws, and a path it returns starts with / and holds no NUL', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), pathLike, fc.constantFrom('//', 'http://[', '*', 'http://a/%zz', '/%00')), (target) => {
        const p = targetPath(target);
        // Asserted on every run, so a run where every target is refused still checks something.
        expect(p === null || (p.startsWith('/') && !p.includes('\0'))).toBe(true);
      }),
    );
  });
});
