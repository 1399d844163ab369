// Fast path. Oracle: `[...new Set(ids)].sort((a, b) => a - b)`, the plain version (the fallback
// below); held to it by test/simulator/id-lists.property.test.ts.
/** Lists of user ids, as events and conversation keys hold them: distinct and ascending. */

/**
 * The ids distinct and ascending, as a new array. Most lists arrive that way already (subscribers,
 * stored participants), and a copy of them is cheaper than a set and a sort.
 */
export function sortedDistinct(ids: Iterable<number>): number[] {
  if (Array.isArray(ids) && strictlyAscending(ids)) return ids.slice();
  return [...new Set(ids)].sort((a, b) => a - b);
}

function strictlyAscending(ids: readonly number[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) return false;
  return true;
}
