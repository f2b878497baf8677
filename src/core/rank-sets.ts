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

/** Bitmaps of sorted sets, made on first use: sets are kept (per term, country, location) and reused. */
const bitmaps = new WeakMap<RankSet, Uint32Array>();
/** Summaries of bitmaps: bit w is set when word w of the bitmap is not zero. */
const summaries = new WeakMap<Uint32Array, Uint32Array>();

/** Which words of `bits` hold any rank, one bit a word: an intersection skips the regions a set leaves empty. */
function summaryOf(bits: Uint32Array): Uint32Array {
  let summary = summaries.get(bits);
  if (summary === undefined) {
    summary = new Uint32Array((bits.length + 31) >>> 5);
    for (let word = 0; word < bits.length; word += 1) {
      if ((bits[word] ?? 0) !== 0) summary[word >>> 5] = (summary[word >>> 5] ?? 0) | (1 << (word & 31));
    }
    summaries.set(bits, summary);
  }
  return summary;
}

/** The set as a bitmap over `count` ranks (32 per word). */
export function bitsOf(set: RankSet, count: number): Uint32Array {
  if (set.kind === "bits") return set.bits;
  let bits = bitmaps.get(set);
  if (bits === undefined) {
    bits = new Uint32Array((count + 31) >>> 5);
    for (const rank of set.ranks) bits[rank >>> 5] = (bits[rank >>> 5] ?? 0) | (1 << (rank & 31));
    bitmaps.set(set, bits);
  }
  return bits;
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
  for (const list of nonEmpty) {
    for (const rank of list) bits[rank >>> 5] = (bits[rank >>> 5] ?? 0) | (1 << (rank & 31));
  }
  let size = 0;
  for (const word of bits) size += popcount(word);
  return { kind: "bits", bits, size };
}

function popcount(word: number): number {
  let value = word - ((word >>> 1) & 0x55555555);
  value = (value & 0x33333333) + ((value >>> 2) & 0x33333333);
  return (((value + (value >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A page of the intersection of `sets` (every listing when there are none). */
export interface RankPage {
  /** The ranks at positions [offset, offset + limit) of the intersection. */
  readonly ranks: number[];
  /** Whether the intersection holds more than offset + limit ranks. */
  readonly more: boolean;
}

/**
 * Pages through the intersection of `sets` in rank order, stopping one match past the page.
 * A small smallest set is walked, its ranks looked up in the others' bitmaps; otherwise the
 * bitmaps are ANDed 32 ranks at a time. Either way the cost follows the smallest set or the
 * page's end, never the scoring or sorting of every match.
 */
export function pageOfIntersection(sets: readonly RankSet[], count: number, offset: number, limit: number): RankPage {
  const end = offset + limit;
  const ranks: number[] = [];
  if (sets.length === 0) {
    for (let rank = offset; rank < Math.min(end, count); rank += 1) ranks.push(rank);
    return { ranks, more: count > end };
  }
  const ordered = [...sets].sort((a, b) => sizeOf(a) - sizeOf(b));
  const driver = ordered[0] as RankSet;
  const others = ordered.slice(1).map((set) => bitsOf(set, count));
  let matches = 0;
  // Counts a match; false once the match past the page has been found.
  const keep = (rank: number): boolean => {
    matches += 1;
    if (matches > end) return false;
    if (matches > offset) ranks.push(rank);
    return true;
  };

  if (driver.kind === "sorted" && driver.ranks.length * 32 < count) {
    outer: for (const rank of driver.ranks) {
      const word = rank >>> 5;
      const bit = 1 << (rank & 31);
      for (const bits of others) if (((bits[word] ?? 0) & bit) === 0) continue outer;
      if (!keep(rank)) return { ranks, more: true };
    }
    return { ranks, more: false };
  }

  // Otherwise the bitmaps are ANDed, visiting only the words every set's summary marks as not empty.
  const all = [bitsOf(driver, count), ...others];
  const marks = all.map(summaryOf);
  const summaryWords = marks[0]?.length ?? 0;
  for (let block = 0; block < summaryWords; block += 1) {
    let candidates = marks[0]?.[block] ?? 0;
    for (let i = 1; candidates !== 0 && i < marks.length; i += 1) candidates &= marks[i]?.[block] ?? 0;
    while (candidates !== 0) {
      const lowest = candidates & -candidates;
      candidates ^= lowest;
      const word = block * 32 + (31 - Math.clz32(lowest));
      let value = all[0]?.[word] ?? 0;
      for (let i = 1; value !== 0 && i < all.length; i += 1) value &= all[i]?.[word] ?? 0;
      if (value === 0) continue;
      // Words wholly before the page are counted, not walked: a deep offset costs a popcount a word.
      const inWord = popcount(value);
      if (matches + inWord <= offset) {
        matches += inWord;
        continue;
      }
      while (value !== 0) {
        const low = value & -value;
        if (!keep(word * 32 + (31 - Math.clz32(low)))) return { ranks, more: true };
        value ^= low;
      }
    }
  }
  return { ranks, more: false };
}
