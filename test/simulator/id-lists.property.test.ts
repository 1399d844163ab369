import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedDistinct } from '../../simulator/engine/fast/id-lists.ts';
import { dmKey } from '../../simulator/engine/messages/store.ts';

const ids = fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 30 });
const reference = (list: number[]): number[] => [...new Set(list)].sort((a, b) => a - b);

describe('sortedDistinct (event recipients, conversation keys)', () => {
  it('gives the distinct ids in ascending order, from any list, array or not', () => {
    fc.assert(
      fc.property(ids, (list) => {
        expect(sortedDistinct(list)).toEqual(reference(list));
        expect(sortedDistinct(new Set(list))).toEqual(reference(list));
        expect(dmKey(list)).toBe(reference(list).join(','));
      }),
    );
  });

  it('answers a new array, so the caller can keep it while the input changes', () => {
    fc.assert(
      fc.property(ids, (list) => {
        const ascending = reference(list);
        const out = sortedDistinct(ascending);
        ascending.push(1000);
        expect(out).toEqual(reference(list));
      }),
    );
  });
});
