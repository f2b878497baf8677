import type { DirectoryFacets } from "../schemas/responses.ts";

/**
 * Sets of listing ranks, and the paging of their intersection. Ranks are positions in
 * directory order (interface §4), so walking a set upward yields listings in the answer's order:
 * nothing is scored or sorted per request, and a page stops after the matches it needs.
 */

/**
 * An ascending array of ranks, or a bitmap of `size` ranks (for large unions). A set is kept (per
 * term, country, location: src/core/directory.ts) and used again, so what an intersection needs
 * of it is made on first use and kept on the set itself: a sorted set's bitmap, the summary of a
 * bitmap (bit w set when its word w is not zero), and the facets of its listings.
 */
export type RankSet = (
  | { readonly kind: "sorted"; readonly ranks: Uint32Array; bitmap?: Uint32Array }
  | { readonly kind: "bits"; readonly bits: Uint32Array; readonly size: number }
) & {
  summary?: Uint32Array;
  /** What its listings hold, counted by facet (src/core/facets.ts), when a search of this set alone has asked. */
  facets?: DirectoryFacets;
};

/** The empty set; a new one each time, so that what is kept on it never serves two directories. */
export function emptySet(): RankSet {
  return { kind: "sorted", ranks: new Uint32Array(0) };
}

export function sizeOf(set: RankSet): number {
  return set.kind === "sorted" ? set.ranks.length : set.size;
}

/** Which words of the set's bitmap hold any rank, one bit a word: an intersection skips the regions a set leaves empty. */
function summaryOf(set: RankSet, count: number): Uint32Array {
  if (set.summary !== undefined) return set.summary;
  const bits = bitsOf(set, count);
  const summary = new Uint32Array((bits.length + 31) >>> 5);
  for (let word = 0; word < bits.length; word += 1) {
    if ((bits[word] ?? 0) !== 0) summary[word >>> 5] = (summary[word >>> 5] ?? 0) | (1 << (word & 31));
  }
  set.summary = summary;
  return summary;
}

/** The set as a bitmap over `count` ranks (32 per word). */
function bitsOf(set: RankSet, count: number): Uint32Array {
  if (set.kind === "bits") return set.bits;
  if (set.bitmap !== undefined) return set.bitmap;
  const bits = new Uint32Array((count + 31) >>> 5);
  for (const rank of set.ranks) bits[rank >>> 5] = (bits[rank >>> 5] ?? 0) | (1 << (rank & 31));
  set.bitmap = bits;
  return bits;
}

/**
 * The union of ascending rank lists over `count` listings. One list is used as it is; a union
 * with few ranks is merged into an array, a larger one becomes a bitmap (count / 8 bytes).
 */
export function unionOf(lists: readonly Uint32Array[], count: number): RankSet {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length === 0) return emptySet();
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

/** Collects the page's matches: positions [offset, end) of the intersection, and whether one more exists. */
class PageCollector {
  readonly ranks: number[] = [];
  #matches = 0;
  readonly #offset: number;
  readonly #end: number;

  constructor(offset: number, end: number) {
    this.#offset = offset;
    this.#end = end;
  }

  /** Counts a match; false once the match past the page has been found. */
  keep(rank: number): boolean {
    this.#matches += 1;
    if (this.#matches > this.#end) return false;
    if (this.#matches > this.#offset) this.ranks.push(rank);
    return true;
  }

  /** Counts `count` matches wholly before the page without walking them; false if they would reach it. */
  skip(count: number): boolean {
    if (this.#matches + count > this.#offset) return false;
    this.#matches += count;
    return true;
  }
}

/**
 * Walks an ascending array, keeping the ranks every bitmap holds. Indexed loops, with one and two
 * bitmaps written out: this is the hottest loop of a search.
 */
function walkSorted(driver: Uint32Array, others: readonly Uint32Array[], page: PageCollector): boolean {
  const n = driver.length;
  if (others.length === 1) {
    const a = others[0] as Uint32Array;
    for (let i = 0; i < n; i += 1) {
      const rank = driver[i] as number;
      if ((a[rank >>> 5] as number) & (1 << (rank & 31)) && !page.keep(rank)) return true;
    }
    return false;
  }
  if (others.length === 2) {
    const a = others[0] as Uint32Array;
    const b = others[1] as Uint32Array;
    for (let i = 0; i < n; i += 1) {
      const rank = driver[i] as number;
      const word = rank >>> 5;
      const bit = 1 << (rank & 31);
      if ((a[word] as number) & (b[word] as number) & bit && !page.keep(rank)) return true;
    }
    return false;
  }
  outer: for (let i = 0; i < n; i += 1) {
    const rank = driver[i] as number;
    const word = rank >>> 5;
    const bit = 1 << (rank & 31);
    for (let j = 0; j < others.length; j += 1) if ((((others[j] as Uint32Array)[word] as number) & bit) === 0) continue outer;
    if (!page.keep(rank)) return true;
  }
  return false;
}

/**
 * ANDs bitmaps 32 ranks at a time, visiting only the words every summary marks as not empty;
 * words wholly before the page are counted, not walked (a deep offset costs a popcount a word).
 */
function walkBitmaps(all: readonly Uint32Array[], marks: readonly Uint32Array[], page: PageCollector): boolean {
  const sets = all.length;
  const first = all[0] as Uint32Array;
  const firstMarks = marks[0] as Uint32Array;
  for (let block = 0; block < firstMarks.length; block += 1) {
    let candidates = firstMarks[block] as number;
    for (let i = 1; candidates !== 0 && i < sets; i += 1) candidates &= (marks[i] as Uint32Array)[block] as number;
    while (candidates !== 0) {
      const lowest = candidates & -candidates;
      candidates ^= lowest;
      const word = block * 32 + (31 - Math.clz32(lowest));
      let value = first[word] as number;
      for (let i = 1; value !== 0 && i < sets; i += 1) value &= (all[i] as Uint32Array)[word] as number;
      if (value === 0 || page.skip(popcount(value))) continue;
      while (value !== 0) {
        const low = value & -value;
        if (!page.keep(word * 32 + (31 - Math.clz32(low)))) return true;
        value ^= low;
      }
    }
  }
  return false;
}

/**
 * Pages through the intersection of `sets` in rank order, stopping one match past the page.
 * A small smallest set is walked, its ranks looked up in the others' bitmaps; otherwise the
 * bitmaps are ANDed 32 ranks at a time. Either way the cost follows the smallest set or the
 * page's end, never the scoring or sorting of every match.
 */
export function pageOfIntersection(sets: readonly RankSet[], count: number, offset: number, limit: number): RankPage {
  const end = offset + limit;
  if (sets.length === 0) {
    const ranks: number[] = [];
    for (let rank = offset; rank < Math.min(end, count); rank += 1) ranks.push(rank);
    return { ranks, more: count > end };
  }
  if (sets.length === 1) {
    const only = sets[0] as RankSet;
    if (only.kind === "sorted") {
      const ranks: number[] = [];
      for (let i = offset; i < Math.min(end, only.ranks.length); i += 1) ranks.push(only.ranks[i] as number);
      return { ranks, more: only.ranks.length > end };
    }
  }
  const ordered = [...sets].sort((a, b) => sizeOf(a) - sizeOf(b));
  const driver = ordered[0] as RankSet;
  const others: Uint32Array[] = [];
  for (let i = 1; i < ordered.length; i += 1) others.push(bitsOf(ordered[i] as RankSet, count));
  const page = new PageCollector(offset, end);
  if (driver.kind === "sorted" && driver.ranks.length * 32 < count)
    return { ranks: page.ranks, more: walkSorted(driver.ranks, others, page) };
  const all = [bitsOf(driver, count), ...others];
  return {
    ranks: page.ranks,
    more: walkBitmaps(
      all,
      ordered.map((set) => summaryOf(set, count)),
      page,
    ),
  };
}

/**
 * Calls `visit` with every rank all sets hold (every listing when there are none), in rank order:
 * the smallest sorted set walked against the others' bitmaps, or the bitmaps ANDed a word at a
 * time. Facets count every match this way; a page stops early instead (pageOfIntersection).
 */
export function visitIntersection(sets: readonly RankSet[], count: number, visit: (rank: number) => void): void {
  if (sets.length === 0) {
    for (let rank = 0; rank < count; rank += 1) visit(rank);
    return;
  }
  const ordered = [...sets].sort((a, b) => sizeOf(a) - sizeOf(b));
  const driver = ordered[0] as RankSet;
  if (sizeOf(driver) === 0) return;
  const others = ordered.slice(1).map((set) => bitsOf(set, count));
  if (driver.kind === "sorted" && (others.length === 0 || driver.ranks.length * 32 < count)) {
    outer: for (const rank of driver.ranks) {
      const word = rank >>> 5;
      const bit = 1 << (rank & 31);
      for (const bits of others) if (((bits[word] as number) & bit) === 0) continue outer;
      visit(rank);
    }
    return;
  }
  const first = bitsOf(driver, count);
  for (let word = 0; word < first.length; word += 1) {
    let value = first[word] as number;
    for (let i = 0; value !== 0 && i < others.length; i += 1) value &= (others[i] as Uint32Array)[word] as number;
    while (value !== 0) {
      const low = value & -value;
      visit(word * 32 + (31 - Math.clz32(low)));
      value ^= low;
    }
  }
}
