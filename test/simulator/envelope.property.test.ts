/**
 * successResponse writes the envelope as text around the fields' own JSON (envelope.ts says
 * why); it must read exactly as the object `{result, msg, …fields, ignored_parameters_unsupported}`
 * serialised.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SerializedFields, successResponse } from '../../simulator/http/envelope.ts';

const spread = (fields: Record<string, unknown>, ignored: string[]): string => {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...fields };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  return `${JSON.stringify(body)}\n`;
};

// Integer-like keys would sort first in an object; no route answers with such a top-level key.
const key = fc.string().filter((k) => !/^(0|[1-9]\d*)$/.test(k));
const fields = fc.dictionary(key, fc.jsonValue(), { maxKeys: 12 });
const ignored = fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 3 });

describe('successResponse', () => {
  it('is byte for byte the serialised envelope object, for any fields and ignored parameters', () => {
    fc.assert(
      fc.property(fields, ignored, (f, i) => {
        expect(successResponse(f, i).body).toBe(spread(f, i));
      }),
    );
  });

  it('writes fields given as JSON text as it writes the object they stand for', () => {
    const plain = fc.dictionary(key.filter((k) => !['result', 'msg', 'ignored_parameters_unsupported'].includes(k)), fc.jsonValue(), { maxKeys: 12 });
    fc.assert(
      fc.property(plain, ignored, (f, i) => {
        expect(successResponse(new SerializedFields(JSON.stringify(f).slice(1, -1)), i).body).toBe(spread(f, i));
      }),
    );
  });

  it('lets fields named like the envelope override it as the object did', () => {
    for (const f of [{ msg: 'note', a: 1 }, { result: 'partially_completed' }, { ignored_parameters_unsupported: ['x'] }]) {
      for (const i of [[], ['y']]) expect(successResponse(f, i).body).toBe(spread(f, i));
    }
  });

  it('answers 200 with JSON', () => {
    const res = successResponse({ id: 5 }, []);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual({ result: 'success', msg: '', id: 5 });
  });
});
