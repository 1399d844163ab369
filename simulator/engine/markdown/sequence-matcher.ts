// Python's difflib.SequenceMatcher.get_matching_blocks (no junk function, autojunk on), which
// lxml's htmldiff builds on. Written here rather than taken from the `difflib` npm port, which
// assigns to a function's read-only `name` and so fails in strict-mode bundles.

/** [i, j, n]: a[i..i+n) equals b[j..j+n); the last block is the sentinel [a.length, b.length, 0]. */
export type MatchingBlock = [number, number, number];

/** Where each element of b occurs, minus "popular" elements of long sequences (autojunk). */
function indexB(b: readonly number[]): Map<number, number[]> {
  const b2j = new Map<number, number[]>();
  b.forEach((element, j) => {
    const list = b2j.get(element);
    if (list) list.push(j);
    else b2j.set(element, [j]);
  });
  if (b.length >= 200) {
    const limit = Math.floor(b.length / 100) + 1;
    for (const [element, list] of b2j) if (list.length > limit) b2j.delete(element);
  }
  return b2j;
}

/** find_longest_match: the longest equal run, earliest in a, then earliest in b. */
function longestMatch(
  a: readonly number[],
  b: readonly number[],
  b2j: Map<number, number[]>,
  alo: number,
  ahi: number,
  blo: number,
  bhi: number,
): MatchingBlock {
  let [besti, bestj, bestsize] = [alo, blo, 0];
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of b2j.get(a[i]!) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
    }
    j2len = next;
  }
  // Popular elements were left out of b2j: extend the match over equal ones on both sides.
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
  return [besti, bestj, bestsize];
}

export function matchingBlocks(a: readonly number[], b: readonly number[]): MatchingBlock[] {
  const b2j = indexB(b);
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  const found: MatchingBlock[] = [];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const match = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
    const [i, j, k] = match;
    if (k === 0) continue;
    found.push(match);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  found.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  // Merge adjacent blocks.
  const blocks: MatchingBlock[] = [];
  let [i1, j1, k1] = [0, 0, 0];
  for (const [i2, j2, k2] of found) {
    if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
    else {
      if (k1) blocks.push([i1, j1, k1]);
      [i1, j1, k1] = [i2, j2, k2];
    }
  }
  if (k1) blocks.push([i1, j1, k1]);
  blocks.push([a.length, b.length, 0]);
  return blocks;
}
