import { LIST_PAGE_SIZE } from "../contract.ts";
import type { Postings } from "../snapshot/directory-index.ts";

/**
 * The ranks on page `page` (1-based) of list `entry` of `postings` (a country's or a service's
 * listings, in directory order): LIST_PAGE_SIZE a page. What the build writes and the server
 * renders for the same list page.
 */
export function listPageRanks(postings: Postings, entry: number, page: number): Uint32Array {
  const from = postings.offsets[entry] ?? 0;
  const to = postings.offsets[entry + 1] ?? from;
  return postings.values.subarray(Math.min(from + (page - 1) * LIST_PAGE_SIZE, to), Math.min(from + page * LIST_PAGE_SIZE, to));
}
