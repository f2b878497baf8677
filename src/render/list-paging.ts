import { LIST_LINES_MAX_CHARACTERS } from "../contract.ts";
import { pageStarts } from "../core/lists.ts";
import type { PublicBusiness } from "../schemas/business.ts";
import type { ListPaging } from "../snapshot/files.ts";
import { listEntry } from "./business.ts";
import { indexLine } from "./llms-index.ts";
import { listItemMarkdown } from "./page-model.ts";

/**
 * What pages a listing in a list: the length of its entry in a list page's Markdown (as the list
 * page's Markdown writes it) and of its line in the list's llms.txt index, each with its newline.
 */
export type PagingLengths = readonly [page: number, index: number];

export function pagingLengths(baseUrl: string, business: PublicBusiness): PagingLengths {
  return [listItemMarkdown(baseUrl, listEntry(business)).length + 1, indexLine(business).length + 1];
}

/** How a list is paged, from its listings' PagingLengths (in directory order). */
function listPaging(lengths: readonly PagingLengths[]): ListPaging {
  return {
    pages: pageStarts(lengths.length, (entry) => lengths[entry]?.[0] ?? 0, LIST_LINES_MAX_CHARACTERS),
    parts: pageStarts(lengths.length, (entry) => lengths[entry]?.[1] ?? 0, LIST_LINES_MAX_CHARACTERS),
  };
}

/** Every list's paging: countries by code, services by name. */
export interface ListsByName {
  readonly country: ReadonlyMap<string, ListPaging>;
  readonly service: ReadonlyMap<string, ListPaging>;
}

/**
 * How every list of the directory of `businesses` (in directory order) is paged, from each
 * listing's PagingLengths (`lengths`, by rank: the build keeps them for unchanged listings). The
 * build works it out once, for its link check and for the files it writes, and records it in the
 * snapshot; the server reads it from there.
 */
export function listsByName(businesses: readonly PublicBusiness[], lengths: readonly PagingLengths[]): ListsByName {
  const byCountry = new Map<string, PagingLengths[]>();
  const byService = new Map<string, PagingLengths[]>();
  for (const [rank, business] of businesses.entries()) {
    const entry = lengths[rank] as PagingLengths;
    for (const [lists, key] of [
      [byCountry, business.location.country],
      [byService, business.service],
    ] as const) {
      const listed = lists.get(key);
      if (listed === undefined) lists.set(key, [entry]);
      else listed.push(entry);
    }
  }
  const paged = (lists: Map<string, PagingLengths[]>) => new Map([...lists].map(([key, listed]) => [key, listPaging(listed)]));
  return { country: paged(byCountry), service: paged(byService) };
}
