import type { PublicBusiness } from "../schemas/business.ts";
import { fold, words } from "../snapshot/text.ts";
import type { Directory } from "../snapshot/types.ts";
import { type Page, page } from "./paging.ts";

/** A validated directory search: what remains of the query once defaults are applied. */
export interface DirectorySearch {
  q?: string | undefined;
  location?: string | undefined;
  country?: string | undefined;
  limit: number;
  offset: number;
}

/** The search reduced to what decides its result; equal keys give equal pages. */
export function directorySearchKey(search: DirectorySearch): string {
  return JSON.stringify([
    words(search.q ?? "").map(fold),
    fold(search.location ?? "").trim(),
    (search.country ?? "").toUpperCase(),
    search.limit,
    search.offset,
  ]);
}

/**
 * Directory search (contract §4): every q term must start a word of the name or service,
 * location is a substring of city, region or postal code, country an exact code; results keep
 * directory order and are paged.
 */
export function searchDirectory(directory: Directory, search: DirectorySearch): Page<PublicBusiness> {
  const { businesses, locationKeys, index } = directory;
  const q = search.q ?? "";
  const location = fold(search.location ?? "").trim();
  const country = (search.country ?? "").toUpperCase();

  let candidates: Iterable<number>;
  if (words(q).length > 0) {
    candidates = index
      .search(q)
      .map((result) => result.id as number)
      .sort((a, b) => a - b);
  } else {
    candidates = businesses.keys();
  }

  const matches: PublicBusiness[] = [];
  for (const position of candidates) {
    const business = businesses[position];
    if (business === undefined) continue;
    if (country !== "" && business.location.country !== country) continue;
    if (location !== "" && !(locationKeys[position] ?? "").includes(location)) continue;
    matches.push(business);
  }
  return page(matches, search.offset, search.limit);
}

/** A listing by slug or UUID id (ids compare case-insensitively). */
export function findBusiness(directory: Directory, identifier: string): PublicBusiness | undefined {
  return directory.byIdentifier.get(identifier) ?? directory.byIdentifier.get(identifier.toLowerCase());
}
