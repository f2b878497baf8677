import { LRUCache } from "lru-cache";
import type { PublicBusiness } from "../schemas/business.ts";
import { compareSuffix, type Postings } from "../snapshot/directory-index.ts";
import { rankOf } from "../snapshot/listing-lookup.ts";
import { copyLine, type ListingStore, lineAt } from "../snapshot/listings.ts";
import { checkListingFile, ListingReadError } from "../snapshot/listings-on-disk.ts";
import { lowerBound } from "../snapshot/lower-bound.ts";
import { fold, words } from "../snapshot/text.ts";
import type { Directory } from "../snapshot/types.ts";
import type { Part, SnapshotView } from "../snapshot/view.ts";
import { directoryUnavailable } from "./errors.ts";
import { nextOffset } from "./paging.ts";
import { emptySet, pageOfIntersection, type RankSet, sizeOf, unionOf } from "./rank-sets.ts";

/** A validated directory search: what remains of the query once defaults are applied. */
export interface DirectorySearch {
  q?: string | undefined;
  location?: string | undefined;
  country?: string | undefined;
  /** One service, exactly as listings give it: the directory page narrows a search by it (the API has no such filter). */
  service?: string | undefined;
  limit: number;
  offset: number;
}

/** A page of listings by rank, as the response describes it. */
export interface RankedPage {
  readonly ranks: readonly number[];
  readonly limit: number;
  readonly offset: number;
  readonly nextOffset: number | null;
}

/** A search as the index reads it: q's words folded (empty ones dropped), location folded and trimmed, country upper case. */
export interface NormalizedSearch {
  /** How many words q has before folding: words that fold to nothing still make q non-empty. */
  readonly typed: number;
  readonly terms: readonly string[];
  readonly location: string;
  readonly country: string;
  /** A service name, or "" for any. */
  readonly service: string;
  readonly limit: number;
  readonly offset: number;
}

const NO_TERMS: readonly string[] = [];

/** q's words folded, without empty ones or repeats, sorted; and how many words q had. On every search: loops, not a Set and spreads. */
function termsOf(q: string | undefined): { typed: number; terms: readonly string[] } {
  if (q === undefined || q === "") return { typed: 0, terms: NO_TERMS };
  const typed = words(q);
  const terms: string[] = [];
  for (const word of typed) {
    const term = fold(word);
    if (term !== "" && !terms.includes(term)) terms.push(term);
  }
  if (terms.length > 1) terms.sort();
  return { typed: typed.length, terms };
}

export function normalizeSearch(search: DirectorySearch): NormalizedSearch {
  const { typed, terms } = termsOf(search.q);
  const location = search.location;
  const country = search.country;
  return {
    typed,
    terms,
    location: location === undefined || location === "" ? "" : fold(location).trim(),
    country: country === undefined ? "" : country.toUpperCase(),
    service: search.service ?? "",
    limit: search.limit,
    offset: search.offset,
  };
}

/** The search reduced to what decides its result; equal keys give equal pages. */
export function directorySearchKey(search: NormalizedSearch): string {
  return `${search.typed > 0 ? 1 : 0}|${search.terms.join(" ")}|${search.location}|${search.country}|${search.limit}|${search.offset}|${search.service}`;
}

function postingsAt(postings: Postings, entry: number): Uint32Array {
  return postings.values.subarray(postings.offsets[entry] ?? 0, postings.offsets[entry + 1] ?? 0);
}

/** The memory each kind of cached rank set may take, in bytes. */
const SET_CACHE_BYTES = 16 * 2 ** 20;

function setBytes(set: RankSet): number {
  return (set.kind === "sorted" ? set.ranks.byteLength : set.bits.byteLength) + 64;
}

/** Rank sets of term prefixes and location substrings, kept for the view's life: a directory never changes. */
interface SetCaches {
  prefixes: LRUCache<string, RankSet>;
  locations: LRUCache<string, RankSet>;
  /** One set per country, made on first use (so its bitmap is made once too). */
  countries: Map<string, RankSet>;
  /** One set per service, likewise. */
  services: Map<string, RankSet>;
}

const RANK_SETS: Part<SetCaches> = {
  name: "directory rank sets",
  make: () => {
    const options = { maxSize: SET_CACHE_BYTES, sizeCalculation: setBytes };
    return { prefixes: new LRUCache(options), locations: new LRUCache(options), countries: new Map(), services: new Map() };
  },
};

/** The view's directory; directory_unavailable when its data could not be loaded. */
export function directoryOf(view: SnapshotView): Directory {
  const directory = view.snapshot.directory;
  if (directory === null) throw directoryUnavailable();
  return directory;
}

/** Listings with a word of the name, the service or the service's aliases that starts with `term` (folded). */
function prefixSet(directory: Directory, { prefixes }: SetCaches, term: string): RankSet {
  let set = prefixes.get(term);
  if (set === undefined) {
    const lists: Uint32Array[] = [];
    for (const entry of directory.terms.atPrefix(term).values()) lists.push(postingsAt(directory.index.termPostings, entry));
    set = unionOf(lists, directory.index.count);
    prefixes.set(term, set);
  }
  return set;
}

/** Listings in the country with this (upper-case) code. */
function countrySet(directory: Directory, { countries }: SetCaches, code: string): RankSet {
  let set = countries.get(code);
  if (set === undefined) {
    const entry = directory.countryIndex.get(code);
    if (entry === undefined) return emptySet();
    set = { kind: "sorted", ranks: postingsAt(directory.index.countryPostings, entry) };
    countries.set(code, set);
  }
  return set;
}

/** Listings of the service with exactly this name. */
function serviceSet(directory: Directory, { services }: SetCaches, name: string): RankSet {
  let set = services.get(name);
  if (set === undefined) {
    const entry = directory.index.services.indexOf(name);
    if (entry === -1) return emptySet();
    set = { kind: "sorted", ranks: postingsAt(directory.index.servicePostings, entry) };
    services.set(name, set);
  }
  return set;
}

/** Listings whose folded city, region or postal code contains `text` (folded, trimmed, not empty). */
function locationSet(directory: Directory, { locations }: SetCaches, text: string): RankSet {
  let set = locations.get(text);
  if (set === undefined) {
    const { locationKeys, suffixKeys, suffixStarts, locationPostings, count } = directory.index;
    const compareAt = (i: number) => compareSuffix(locationKeys[suffixKeys[i] ?? 0] ?? "", suffixStarts[i] ?? 0, text);
    // The first suffix not below `text`; every suffix that starts with `text` follows it.
    const low = lowerBound(suffixKeys.length, (i) => compareAt(i) < 0);
    const keys = new Set<number>();
    for (let i = low; i < suffixKeys.length && compareAt(i) === 0; i += 1) keys.add(suffixKeys[i] ?? 0);
    set = unionOf(
      [...keys].map((key) => postingsAt(locationPostings, key)),
      count,
    );
    locations.set(text, set);
  }
  return set;
}

/**
 * Directory search (interface §4): every q term must start a word of the name, the service or an alias of the service,
 * location is a substring of city, region or postal code, country an exact code. Each condition
 * is a set of ranks; the page walks their intersection in rank (name) order.
 */
export function searchDirectory(view: SnapshotView, search: NormalizedSearch): RankedPage {
  const directory = directoryOf(view);
  const { limit, offset } = search;
  const empty = (): RankedPage => ({ ranks: [], limit, offset, nextOffset: null });
  const sets = conditionSets(view, search);
  if (sets === null) return empty();
  for (const set of sets) if (sizeOf(set) === 0) return empty();
  const { ranks, more } = pageOfIntersection(sets, directory.index.count, offset, limit);
  return { ranks, limit, offset, nextOffset: nextOffset(offset, limit, more) };
}

/** Each condition of a search as a set of ranks; null when q had words that all folded to nothing (no match). */
export function conditionSets(view: SnapshotView, search: NormalizedSearch): RankSet[] | null {
  const { typed, terms, country, location, service } = search;
  if (typed > 0 && terms.length === 0) return null;
  const sets: RankSet[] = [];
  if (terms.length === 0 && country === "" && location === "" && service === "") return sets;
  const directory = directoryOf(view);
  const caches = view.get(RANK_SETS);
  for (const term of terms) sets.push(prefixSet(directory, caches, term));
  if (country !== "") sets.push(countrySet(directory, caches, country));
  if (service !== "") sets.push(serviceSet(directory, caches, service));
  if (location !== "") sets.push(locationSet(directory, caches, location));
  return sets;
}

/** The rank of a listing by slug or UUID id (ids compare case-insensitively). */
export function findBusiness(directory: Directory, identifier: string): number | undefined {
  return rankOf(directory.listings, identifier) ?? rankOf(directory.listings, identifier.toLowerCase());
}

/** A listings file that cannot be read makes the directory unavailable (503). */
function asUnavailable(error: unknown): unknown {
  return error instanceof ListingReadError ? directoryUnavailable() : error;
}

/** A listing's JSON, exactly as the snapshot holds it (and REST answers it): a view of the held bytes, or of a line read from disk. */
export function listingJson(directory: Directory, rank: number): Buffer {
  try {
    return lineAt(directory.listings, rank);
  } catch (error) {
    throw asUnavailable(error);
  }
}

/** Copies a listing's JSON into `target` at `at`; returns its length. */
export function copyListingJson(directory: Directory, rank: number, target: Buffer, at: number): number {
  try {
    return copyLine(directory.listings, rank, target, at);
  } catch (error) {
    throw asUnavailable(error);
  }
}

/** A listing's fields, parsed from its JSON (for pages and MCP, which need more than the bytes). */
export function listingAt(directory: Directory, rank: number): PublicBusiness {
  const json = listingJson(directory, rank).toString("utf8");
  try {
    return JSON.parse(json) as PublicBusiness;
  } catch {
    // Only a file changed in place since it was checked, and read from disk, gets here.
    throw directoryUnavailable();
  }
}

/** The listings for a bulk download, once their file is found as loaded (503 otherwise). */
export function bulkListings(directory: Directory): ListingStore {
  try {
    checkListingFile(directory.listings);
  } catch (error) {
    throw asUnavailable(error);
  }
  return directory.listings;
}
