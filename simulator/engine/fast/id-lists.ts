// Fast path. Oracle: `[...new Set(ids)].sort((a, b) => a - b)`, the plain version (the fallback
// below); held to it by test/simulator/id-lists.property.test.ts.
/** Lists of user ids, as events and conversation keys hold them: distinct and ascending. */

/** Lists up to this long are sorted by insertion into the copy (see sortedDistinct). */
const SHORT = 16;

/**
 * The ids distinct and ascending, as a new array. Most lists arrive that way already (subscribers,
 * stored participants), and a copy of them is cheaper than a set and a sort. A short list (a
 * direct message's sender and recipient, a message's mentions) is put in order by insertion as it
 * is copied: Array.prototype.sort with a comparator copies the list into work arrays of its own
 * and calls back into JavaScript per comparison, which for two ids cost more than the rest of
 * this function (about 1.7 KB allocated per direct-message send).
 */
export function sortedDistinct(ids: Iterable<number>): number[] {
  if (Array.isArray(ids)) {
    if (strictlyAscending(ids)) return ids.slice();
    if (ids.length <= SHORT) return insertDistinct(ids);
  } else if (ids instanceof Set && ids.size <= SHORT) {
    return insertDistinct(ids);
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The ids in ascending order without repeats, by insertion (for short lists of integers). */
function insertDistinct(ids: Iterable<number>): number[] {
  const out: number[] = [];
  for (const id of ids) {
    let at = out.length;
    while (at > 0 && out[at - 1]! > id) at--;
    if (at > 0 && out[at - 1] === id) continue;
    out.push(id);
    for (let i = out.length - 1; i > at; i--) out[i] = out[i - 1]!;
    out[at] = id;
  }
  return out;
}

export function strictlyAscending(ids: readonly number[]): boolean {
  for (let i = 1; i < ids.length; i++) if (!(ids[i - 1]! < ids[i]!)) return false;
  return true;
}
