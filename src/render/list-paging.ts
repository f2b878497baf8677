import { LIST_LINES_MAX_CHARACTERS } from "../contract.ts";
import { pageStarts } from "../core/lists.ts";
import type { PublicBusiness } from "../schemas/business.ts";
import type { ListPaging } from "../snapshot/files.ts";
import { listEntry } from "./business.ts";
import { indexLine } from "./llms-index.ts";
import { listItemMarkdown } from "./page-model.ts";

/**
 * How a list of `listings` (in directory order) is paged: its pages by the length of their
 * Markdown entries (as the list page's Markdown writes them), its llms.txt index's parts by the
 * length of its lines.
 */
function listPaging(baseUrl: string, listings: readonly PublicBusiness[]): ListPaging {
  const at = (entry: number) => listings[entry] as PublicBusiness;
  return {
    pages: pageStarts(listings.length, (entry) => listItemMarkdown(baseUrl, listEntry(at(entry))).length + 1, LIST_LINES_MAX_CHARACTERS),
    parts: pageStarts(listings.length, (entry) => indexLine(at(entry)).length + 1, LIST_LINES_MAX_CHARACTERS),
  };
}

/** Every list's paging: countries by code, services by name. */
export interface ListsByName {
  readonly country: ReadonlyMap<string, ListPaging>;
  readonly service: ReadonlyMap<string, ListPaging>;
}

/**
 * How every list of the directory of `businesses` (in directory order) is paged. The build works
 * it out once, for its link check and for the files it writes, and records it in the snapshot;
 * the server reads it from there.
 */
export function listsByName(baseUrl: string, businesses: readonly PublicBusiness[]): ListsByName {
  const byCountry = new Map<string, PublicBusiness[]>();
  const byService = new Map<string, PublicBusiness[]>();
  for (const business of businesses) {
    for (const [lists, key] of [
      [byCountry, business.location.country],
      [byService, business.service],
    ] as const) {
      const listed = lists.get(key);
      if (listed === undefined) lists.set(key, [business]);
      else listed.push(business);
    }
  }
  const paged = (lists: Map<string, PublicBusiness[]>) => new Map([...lists].map(([key, listed]) => [key, listPaging(baseUrl, listed)]));
  return { country: paged(byCountry), service: paged(byService) };
}
