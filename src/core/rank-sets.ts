/**
 * Sets of listing ranks, and the paging of their intersection. Ranks are positions in
 * directory order (contract §4), so walking a set upward yields listings in the answer's order:
 * nothing is scored or sorted per request, and a page stops after the matches it needs.
 */

/** An ascending array of ranks, or a bitmap of `size` ranks (for large unions). */
export type RankSet =
  | { readonly kind: "sorted"; readonly ranks: Uint32Array }
  | { readonly kind: "bits"; readonly bits: Uint32Array; readonly size: number };

export const EMPTY: RankSet = { kind: "sorted", ranks: new Uint32Array(0) };

export function sizeOf(set: RankSet): number {
  return set.kind === "sorted" ? set.ranks.length : set.size;
}

/** Whether `rank` is in `set` (binary search, or one bit). */
export function has(set: RankSet, rank: number): boolean {
  if (set.kind === "bits") return ((set.bits[rank >>> 5] ?? 0) & (1 << (rank & 31))) !== 0;
  const { ranks } = set;
  let low = 0;
  let high = ranks.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ranks[middle] ?? 0;
    if (value === rank) return true;
    if (value < rank) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Calls `visit` for each rank of `set` in ascending order until it returns false. */
export function forEachRank(set: RankSet, visit: (rank: number) => boolean): void {
  if (set.kind === "sorted") {
    for (const rank of set.ranks) if (!visit(rank)) return;
    return;
  }
  const { bits } = set;
  for (let word = 0; word < bits.length; word += 1) {
    let value = bits[word] ?? 0;
    while (value !== 0) {
      const low = value & -value;
      if (!visit(word * 32 + (31 - Math.clz32(low)))) return;
      value ^= low;
    }
  }
}

/**
 * The union of ascending rank lists over `count` listings. One list is used as it is; a union
 * with few ranks is merged into an array, a larger one becomes a bitmap (count / 8 bytes).
 */
export function unionOf(lists: readonly Uint32Array[], count: number): RankSet {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return EMPTY;
  if (nonEmpty.length === 1) return { kind: "sorted", ranks: nonEmpty[0] as Uint32Array };
  const total = nonEmpty.reduce((sum, list) => sum + list.length, 0);
  if (total * 32 < count) {
    const merged = new Uint32Array(total);
    let at = 0;
    for (const list of nonEmpty) {
      merged.set(list, at);
      at += list.length;
    }
    merged.sort();
    let unique = 0;
    for (let i = 0; i < merged.length; i += 1) {
      if (i === 0 || merged[i] !== merged[i - 1]) merged[unique++] = merged[i] ?? 0;
    }
    return { kind: "sorted", ranks: merged.subarray(0, unique) };
  }
  const bits = new Uint32Array((count + 31) >>> 5);
  let size = 0;
  for (const list of nonEmpty) {
    for (const rank of list) {
      const word = rank >>> 5;
      const bit = 1 << (rank & 31);
      if (((bits[word] ?? 0) & bit) === 0) {
        bits[word] = (bits[word] ?? 0) | bit;
        size += 1;
      }
    }
  }
  return { kind: "bits", bits, size };
}

/** A page of the intersection of `sets` (every listing when there are none). */
export interface RankPage {
  /** The ranks at positions [offset, offset + limit) of the intersection. */
  readonly ranks: number[];
  /** Whether the intersection holds more than offset + limit ranks. */
  readonly more: boolean;
}

/**
 * Walks the smallest set upward and keeps the ranks every other set holds, stopping one match
 * past the page: the cost follows the smallest set and the page's end, not the directory's size.
 */
export function pageOfIntersection(sets: readonly RankSet[], count: number, offset: number, limit: number): RankPage {
  const end = offset + limit;
  if (sets.length === 0) {
    const ranks: number[] = [];
    for (let rank = offset; rank < Math.min(end, count); rank += 1) ranks.push(rank);
    return { ranks, more: count > end };
  }
  const ordered = [...sets].sort((a, b) => sizeOf(a) - sizeOf(b));
  const [driver, ...others] = ordered as [RankSet, ...RankSet[]];
  const ranks: number[] = [];
  let matches = 0;
  let more = false;
  forEachRank(driver, (rank) => {
    for (const other of others) if (!has(other, rank)) return true;
    matches += 1;
    if (matches > end) {
      more = true;
      return false;
    }
    if (matches > offset) ranks.push(rank);
    return true;
  });
  return { ranks, more };
}
