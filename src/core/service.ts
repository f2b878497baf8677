import etag from "etag";
import { LRUCache } from "lru-cache";
import { DIRECTORY_DEFAULT_LIMIT } from "../contract.ts";
import type { PublicBusiness } from "../schemas/business.ts";
import type { Offering } from "../schemas/offering.ts";
import type { DirectoryFacetsQuery, DirectorySearchQuery } from "../schemas/parameters.ts";
import type { DirectoryFacets, DirectoryPage, OfferingList } from "../schemas/responses.ts";
import { lineLength } from "../snapshot/listings.ts";
import { RankCache } from "../snapshot/rank-cache.ts";
import type { Directory, Snapshot } from "../snapshot/types.ts";
import { Answer, answer, answerSize, escapeJsonBytes } from "./answer.ts";
import { offeringsMatching } from "./catalog.ts";
import {
  copyListingJson,
  directorySearchKey,
  findBusiness,
  listingJson,
  type NormalizedSearch,
  normalizeSearch,
  type RankedPage,
  searchDirectory,
} from "./directory.ts";
import { businessNotFound, directoryUnavailable, offeringNotFound, snapshotUnavailable } from "./errors.ts";
import { facetDirectory } from "./facets.ts";
import { allocateBody } from "./slab.ts";

export interface ServiceOptions {
  /**
   * The snapshot to answer from; called per request so a reloaded snapshot takes effect at once.
   * Null before the first one has loaded: every answer is then snapshotUnavailable.
   */
  snapshot: () => Snapshot | null;
  /** Lifetime of cached search results; 0 turns the cache off. */
  cacheSeconds: number;
}

/**
 * The result cache's bounds: entries and bytes (see answerSize; a page of 25 listings is about
 * 30 KB of JSON). Expired entries stay until evicted, so both bounds hold whatever clients ask.
 */
const RESULT_CACHE_ENTRIES = 10_000;
const RESULT_CACHE_BYTES = 64 * 2 ** 20;

/** A directory search as REST and MCP take it, or as the directory page does: narrowed to one service too. */
export type PageSearch = DirectorySearchQuery & { service?: string | undefined };

/** The answers the result cache keeps. */
type CachedAnswer = DirectoryPage | DirectoryFacets;

/** FNV-1a: a short, fast fingerprint of a search key, for entity tags. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** A search as REST, MCP and the page take it, normalised with its paging's defaults. */
function pageSearch(query: PageSearch): NormalizedSearch {
  return normalizeSearch({
    q: query.q,
    location: query.location,
    country: query.country,
    service: query.service,
    limit: query.limit ?? DIRECTORY_DEFAULT_LIMIT,
    offset: query.offset ?? 0,
  });
}

const ITEMS_START = '{"items":[';
const ITEMS_START_BYTES = Buffer.from(ITEMS_START);
const COMMA = Buffer.from(",");

const EMPTY_ITEMS_START = Buffer.from(`${ITEMS_START}]`);

/** Whether a directory page's answer holds no listing: its body, as pageBody writes it, opens with an empty items array. */
export function holdsNoListing(page: Answer<DirectoryPage>): boolean {
  return page.body.subarray(0, EMPTY_ITEMS_START.length).equals(EMPTY_ITEMS_START);
}

/** What follows a directory page's listings. */
function pageEnd(page: RankedPage): string {
  return `],"limit":${page.limit},"offset":${page.offset},"nextOffset":${page.nextOffset}}`;
}

/**
 * A directory page's body: the listings' JSON as the snapshot holds it, copied (or read from
 * disk) once into one buffer between the page's opening and its closing fields; nothing is
 * serialised again.
 */
function pageBody(directory: Directory, page: RankedPage): Buffer {
  const { ranks } = page;
  const end = pageEnd(page);
  let length = ITEMS_START.length + end.length + Math.max(0, ranks.length - 1);
  for (let i = 0; i < ranks.length; i += 1) length += lineLength(directory.listings, ranks[i] as number);
  const body = allocateBody(length);
  let at = body.write(ITEMS_START, 0);
  for (let i = 0; i < ranks.length; i += 1) {
    if (i > 0) body[at++] = 0x2c;
    at += copyListingJson(directory, ranks[i] as number, body, at);
  }
  body.write(end, at);
  return body;
}

/** The memory the escaped copies of listings (MCP's text copies) may hold per directory, in bytes. */
const ESCAPED_LISTING_BYTES = 32 * 2 ** 20;

/** Listings' JSON escaped for the inside of a JSON string, each made once and kept by rank (see RankCache). */
class EscapedListings {
  readonly #directory: Directory;
  readonly #byRank: RankCache;

  constructor(directory: Directory) {
    this.#directory = directory;
    this.#byRank = new RankCache(directory.listings.count, ESCAPED_LISTING_BYTES);
  }

  get(rank: number): Buffer {
    return this.#byRank.get(rank) ?? this.#byRank.set(rank, escapeJsonBytes(listingJson(this.#directory, rank)));
  }
}

const escapedByDirectory = new WeakMap<Directory, EscapedListings>();

const ESCAPED_ITEMS_START = escapeJsonBytes(ITEMS_START_BYTES);

/**
 * A directory page's body escaped as MCP's text copy, in parts: escaping works byte by byte, so
 * it is the page's parts escaped, and each listing's escaped bytes are made once, not per page.
 * The parts are copied straight into the tool's response (see Answer.escapedParts).
 */
function escapedPageParts(directory: Directory, page: RankedPage): Buffer[] {
  let listings = escapedByDirectory.get(directory);
  if (listings === undefined) {
    listings = new EscapedListings(directory);
    escapedByDirectory.set(directory, listings);
  }
  const parts: Buffer[] = [ESCAPED_ITEMS_START];
  for (const [i, rank] of page.ranks.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(listings.get(rank));
  }
  // The page's closing fields hold no backslash, and their only quotes are the keys'.
  parts.push(Buffer.from(pageEnd(page).replaceAll('"', '\\"'), "latin1"));
  return parts;
}

/**
 * How many offerings search answers a snapshot keeps (one per set of offerings found, whatever q
 * found it); past that many sets it starts over. At most the whole catalog each (27 KB of JSON
 * for the sample's 12), and as much again for MCP's text copy once asked for.
 */
const OFFERING_LISTS = 64;

/** The answers that depend only on the snapshot, made once for it. */
class SnapshotAnswers {
  readonly snapshot: Snapshot;
  /** The whole catalog (GET /api/offerings without q). */
  readonly catalog: Answer<OfferingList>;
  readonly offerings: ReadonlyMap<string, Answer<Offering>>;
  /** Each offering's answer, in catalog order. */
  readonly #inOrder: readonly Answer<Offering>[];
  /** Offerings search answers by the positions found: a catalog of n offerings has at most 2^n, and queries find few of them. */
  readonly #lists = new Map<string, Answer<OfferingList>>();

  constructor(snapshot: Snapshot) {
    this.snapshot = snapshot;
    const offerings = snapshot.catalog.offerings;
    this.catalog = answer({ items: [...offerings], total: offerings.length });
    this.#inOrder = offerings.map((offering) => answer(offering));
    this.offerings = new Map(offerings.map((offering, position) => [offering.slug, this.#inOrder[position] as Answer<Offering>]));
  }

  /**
   * The list of the offerings at `positions`: their bodies joined, as JSON.stringify would write
   * the list, and hashed, once per set of offerings found.
   */
  offeringList(positions: readonly number[]): Answer<OfferingList> {
    const key = positions.join();
    let list = this.#lists.get(key);
    if (list === undefined) {
      const parts: Buffer[] = [ITEMS_START_BYTES];
      for (const [i, position] of positions.entries()) {
        if (i > 0) parts.push(COMMA);
        parts.push((this.#inOrder[position] as Answer<Offering>).body);
      }
      parts.push(Buffer.from(`],"total":${positions.length}}`));
      const body = Buffer.concat(parts);
      const items = positions.map((position) => this.snapshot.catalog.offerings[position] as Offering);
      list = new Answer(body, etag(body), { items, total: items.length });
      if (this.#lists.size >= OFFERING_LISTS) this.#lists.clear();
      this.#lists.set(key, list);
    }
    return list;
  }
}

/**
 * What REST, pages and MCP all call: searches and lookups over the current snapshot, answered
 * serialised (see Answer). A listing's answer is its bytes in the snapshot, a directory page
 * those bytes joined, and the catalog's answers are made once per snapshot; search results may
 * also be kept by the result cache. Inputs are already validated; failures throw ApiError.
 */
export class CatalogService {
  readonly #snapshot: () => Snapshot | null;
  readonly #cache: LRUCache<string, Answer<CachedAnswer>> | null;
  #answers: SnapshotAnswers | null = null;

  constructor({ snapshot, cacheSeconds }: ServiceOptions) {
    this.#snapshot = snapshot;
    this.#cache =
      cacheSeconds > 0
        ? new LRUCache<string, Answer<CachedAnswer>>({
            max: RESULT_CACHE_ENTRIES,
            maxSize: RESULT_CACHE_BYTES,
            sizeCalculation: answerSize,
            ttl: cacheSeconds * 1000,
          })
        : null;
  }

  /** The answers of the current snapshot; when the snapshot has changed, everything kept for the old one is dropped. */
  #current(): SnapshotAnswers {
    const snapshot = this.#snapshot();
    if (snapshot === null) throw snapshotUnavailable();
    if (this.#answers?.snapshot !== snapshot) {
      this.#cache?.clear();
      this.#answers = new SnapshotAnswers(snapshot);
    }
    return this.#answers;
  }

  /** Whether there is a snapshot to answer from (false only before the first one has loaded). */
  ready(): boolean {
    return this.#snapshot() !== null;
  }

  /** The current snapshot; snapshotUnavailable before the first one has loaded. */
  current(): Snapshot {
    return this.#current().snapshot;
  }

  /** The current directory; directory_unavailable when its data could not be loaded. */
  directory(): Directory {
    const directory = this.current().directory;
    if (directory === null) throw directoryUnavailable();
    return directory;
  }

  #cached<T extends CachedAnswer>(key: string, compute: () => Answer<T>): Answer<T> {
    if (this.#cache === null) return compute();
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit as Answer<T>;
    // Kept for up to a minute: its body must not hold a whole slab (see slab.ts).
    const value = compute().compacted();
    this.#cache.set(key, value);
    return value;
  }

  searchBusinesses(query: PageSearch): Answer<DirectoryPage> {
    const directory = this.directory();
    const search = pageSearch(query);
    const key = directorySearchKey(search);
    return this.#cached(`directory:${key}`, () => {
      // The same snapshot and the same search always give the same bytes: the tag needs no hashing of the body.
      const tag = `"${this.current().manifest.version}-${fingerprint(key)}"`;
      const page = searchDirectory(directory, search);
      return new Answer<DirectoryPage>(pageBody(directory, page), tag, undefined, undefined, () => escapedPageParts(directory, page));
    });
  }

  /** A page of a directory search as the listings' ranks: the directory page shows each listing as its card, made once by rank. */
  searchBusinessRanks(query: PageSearch): RankedPage {
    return searchDirectory(this.directory(), pageSearch(query));
  }

  /**
   * The directory page's narrowing: a search's facets, counted as directoryFacets counts them but
   * not serialised (the page shows the total and the services and countries). With the result
   * cache on, its kept facets are reused.
   */
  narrowingCounts(query: DirectoryFacetsQuery & Pick<PageSearch, "service">): DirectoryFacets {
    if (this.#cache !== null) return this.directoryFacets(query).value;
    return facetDirectory(this.directory(), normalizeSearch({ ...query, limit: 1, offset: 0 }));
  }

  /** Counts of what a search matches (contract §4, Facets): its exact total and the top values of each facet. */
  directoryFacets(query: DirectoryFacetsQuery & Pick<PageSearch, "service">): Answer<DirectoryFacets> {
    const directory = this.directory();
    const search = normalizeSearch({ ...query, limit: 1, offset: 0 });
    const key = directorySearchKey(search);
    return this.#cached(`facets:${key}`, () => {
      const facets = facetDirectory(directory, search);
      const json = JSON.stringify(facets);
      return new Answer<DirectoryFacets>(Buffer.from(json), `"${this.current().manifest.version}-f${fingerprint(key)}"`, facets, json);
    });
  }

  getBusiness(identifier: string): Answer<PublicBusiness> {
    const directory = this.directory();
    const rank = findBusiness(directory, identifier);
    if (rank === undefined) throw businessNotFound();
    return new Answer<PublicBusiness>(listingJson(directory, rank), `"${this.current().manifest.version}-l${rank}"`);
  }

  /** Offerings search: the answer of the set of offerings found, made once per snapshot (see SnapshotAnswers). */
  searchOfferings(q: string | undefined): Answer<OfferingList> {
    const answers = this.#current();
    const positions = offeringsMatching(answers.snapshot.catalog, q);
    return positions === null ? answers.catalog : answers.offeringList(positions);
  }

  getOffering(slug: string): Answer<Offering> {
    const found = this.#current().offerings.get(slug);
    if (found === undefined) throw offeringNotFound();
    return found;
  }
}
