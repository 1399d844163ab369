// Linkifier URL templates are read once and expanded per link. The oracle is the earlier
// expansion, which parsed the template on every link, kept here verbatim in behaviour.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { expandParsedTemplate, expandUrlTemplate, parseUrlTemplate } from '../../../simulator/engine/markdown/linkifiers.ts';

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function pctEncode(value: string, allowReserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else if (allowReserved && ch === '%' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) out += ch;
    else {
      const cp = value.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const byte of Buffer.from(String.fromCodePoint(cp), 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

const OPERATORS: Record<string, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

function oracle(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{([^{}]*)\}/g, (whole, expression: string) => {
    const op = OPERATORS[expression[0] ?? ''] !== undefined && /^[+#./;?&]/.test(expression) ? expression[0]! : '';
    const spec = OPERATORS[op]!;
    const parts: string[] = [];
    for (const varspec of expression.slice(op.length).split(',')) {
      const m = /^([A-Za-z0-9_.%]+)(?::(\d+)|\*)?$/.exec(varspec);
      if (!m) return whole;
      const raw = values[m[1]!];
      if (raw === undefined || raw === null) continue;
      const value = m[2] ? [...raw].slice(0, Number(m[2])).join('') : raw;
      const encoded = pctEncode(value, spec.reserved);
      if (spec.named) parts.push(value === '' ? `${m[1]}${spec.ifEmpty}` : `${m[1]}=${encoded}`);
      else parts.push(encoded);
    }
    return parts.length === 0 ? '' : spec.first + parts.join(spec.sep);
  });
}

const name = fc.constantFrom('id', 'repo', 'x', 'a.b', 'missing');
const varspec = fc.tuple(name, fc.constantFrom('', '', ':3', ':0', ':12', '*', ':x', '-')).map(([n, m]) => n + m);
const expression = fc
  .tuple(fc.constantFrom('', '', '+', '#', '.', '/', ';', '?', '&', '=', '!'), fc.array(varspec, { minLength: 1, maxLength: 3 }))
  .map(([op, vars]) => `{${op}${vars.join(',')}}`);
const literal = fc.constantFrom('https://', 'example.com/', '/pull/', '?q=', '{', '}', '{}', '', '#', '%20');
const template = fc.array(fc.oneof(literal, expression), { maxLength: 6 }).map((p) => p.join(''));
const value = fc.oneof(
  fc.constantFrom('1234', 'mobile', '', 'a b', 'é', '😀x', '%41', '%zz', 'a/b?c#d', "it's", '~._-'),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const values = fc.record({ id: value, repo: value, x: fc.option(value, { nil: undefined }), 'a.b': value });

test('a template read once expands as the template did when parsed per link', () => {
  fc.assert(
    fc.property(template, values, (t, v) => {
      expect(expandParsedTemplate(parseUrlTemplate(t), v)).toBe(oracle(t, v));
      expect(expandUrlTemplate(t, v)).toBe(oracle(t, v));
    }),
    { numRuns: 3000 },
  );
});
