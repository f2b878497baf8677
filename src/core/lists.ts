import type { Postings } from "../snapshot/directory-index.ts";

/**
 * Where each page of a list starts (entry numbers, the first 0), for `count` entries whose lines
 * are `lengthOf(i)` characters each, newline included: entries in order, each page holding as
 * many as fit in `budget` characters (and at least one). A list that fits is one page. The build
 * pages every list with it and records the starts in the snapshot, so the server's pages and the
 * build's files cut at the same entries.
 */
export function pageStarts(count: number, lengthOf: (entry: number) => number, budget: number): number[] {
  const starts = [0];
  let used = 0;
  for (let entry = 0; entry < count; entry += 1) {
    const length = lengthOf(entry);
    if (used > 0 && used + length > budget) {
      starts.push(entry);
      used = 0;
    }
    used += length;
  }
  return starts;
}

/**
 * The ranks on page `page` (1-based, within `starts.length`) of list `entry` of `postings` (a
 * country's or a service's listings, in directory order), paged at `starts` (pageStarts).
 */
export function listPageRanks(postings: Postings, entry: number, starts: readonly number[], page: number): Uint32Array {
  const from = postings.offsets[entry] ?? 0;
  const to = postings.offsets[entry + 1] ?? from;
  const start = from + (starts[page - 1] ?? to - from);
  const end = page < starts.length ? from + (starts[page] ?? 0) : to;
  return postings.values.subarray(Math.min(start, to), Math.min(end, to));
}
