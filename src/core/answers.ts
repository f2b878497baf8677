import { DIRECTORY_DEFAULT_LIMIT } from "../contract.ts";
import type { PublicBusiness } from "../schemas/business.ts";
import type { Offering } from "../schemas/offering.ts";
import type { DirectorySearchQuery } from "../schemas/parameters.ts";
import type { DirectoryFacets, DirectoryPage, OfferingList } from "../schemas/responses.ts";
import { lineLength } from "../snapshot/listings.ts";
import { RankCache } from "../snapshot/rank-cache.ts";
import type { Part, SnapshotView } from "../snapshot/view.ts";
import { Answer, escapeJsonBytes } from "./answer.ts";
import { offeringsMatching } from "./catalog.ts";
import {
  copyListingJson,
  directoryOf,
  findBusiness,
  listingJson,
  type NormalizedSearch,
  normalizeSearch,
  type RankedPage,
  searchDirectory,
} from "./directory.ts";
import { businessNotFound, offeringNotFound } from "./errors.ts";
import { facetDirectory } from "./facets.ts";
import { allocateBody } from "./slab.ts";

/**
 * What REST and MCP answer, as the JSON bodies the interface gives (interface §4, §6) (and MCP's escaped text copies
 * of them): a directory page is the listings' JSON as the snapshot holds it, copied once between
 * the page's opening and closing fields; a listing is its bytes in the snapshot; the catalog's
 * answers are made once per view. Inputs are already validated; failures throw ApiError.
 */

/** A directory search as REST and MCP take it, or as the directory page does: narrowed to one service too. */
export type PageSearch = DirectorySearchQuery & { service?: string | undefined };

/** A search as REST, MCP and the page take it, normalised with its paging's defaults. */
export function pageSearch(query: PageSearch): NormalizedSearch {
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
function pageBody(view: SnapshotView, page: RankedPage): Buffer {
  const directory = directoryOf(view);
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

/** The memory the escaped copies of listings (MCP's text copies) may hold per view, in bytes. */
const ESCAPED_LISTING_BYTES = 32 * 2 ** 20;

/** Listings' JSON escaped for the inside of a JSON string, each made once and kept by rank (see RankCache). */
const ESCAPED_LISTINGS: Part<RankCache> = {
  name: "escaped listings",
  make: (view) => new RankCache(directoryOf(view).listings.count, ESCAPED_LISTING_BYTES),
};

const ESCAPED_ITEMS_START = escapeJsonBytes(ITEMS_START_BYTES);

/**
 * A directory page's body escaped as MCP's text copy, in parts: escaping works byte by byte, so
 * it is the page's parts escaped, and each listing's escaped bytes are made once, not per page.
 * The parts are copied straight into the tool's response (see Answer.escapedParts).
 */
function escapedPageParts(view: SnapshotView, page: RankedPage): Buffer[] {
  const directory = directoryOf(view);
  const listings = view.get(ESCAPED_LISTINGS);
  const parts: Buffer[] = [ESCAPED_ITEMS_START];
  for (const [i, rank] of page.ranks.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(listings.get(rank) ?? listings.set(rank, escapeJsonBytes(listingJson(directory, rank))));
  }
  // The page's closing fields hold no backslash, and their only quotes are the keys'.
  parts.push(Buffer.from(pageEnd(page).replaceAll('"', '\\"'), "latin1"));
  return parts;
}

/** A page of a directory search (interface §4), as REST and MCP answer it. */
export function directoryPage(view: SnapshotView, search: NormalizedSearch): Answer<DirectoryPage> {
  const page = searchDirectory(view, search);
  return new Answer<DirectoryPage>(pageBody(view, page), undefined, undefined, () => escapedPageParts(view, page));
}

/** Counts of what a search matches (interface §4, Facets): its exact total and the top values of each facet. */
export function directoryFacets(view: SnapshotView, search: NormalizedSearch): Answer<DirectoryFacets> {
  const facets = facetDirectory(view, search);
  const json = JSON.stringify(facets);
  return new Answer<DirectoryFacets>(Buffer.from(json), facets, json);
}

/** A listing by slug or id, and its rank (what tells its answers apart within a snapshot). */
export function business(view: SnapshotView, identifier: string): { readonly answer: Answer<PublicBusiness>; readonly rank: number } {
  const directory = directoryOf(view);
  const rank = findBusiness(directory, identifier);
  if (rank === undefined) throw businessNotFound();
  return { answer: new Answer<PublicBusiness>(listingJson(directory, rank)), rank };
}

/**
 * How many offerings search answers a view keeps (one per set of offerings found, whatever q
 * found it); past that many sets it starts over. At most the whole catalog each (27 KB of JSON
 * for the sample's 12), and as much again for MCP's text copy once asked for.
 */
const OFFERING_LISTS = 64;

/** The catalog's answers, made once per view. */
interface CatalogAnswers {
  /** The whole catalog (GET /api/offerings without q). */
  readonly catalog: Answer<OfferingList>;
  /** Each offering's answer, in catalog order. */
  readonly inOrder: readonly Answer<Offering>[];
  readonly bySlug: ReadonlyMap<string, Answer<Offering>>;
  /** Offerings search answers by the positions found: a catalog of n offerings has at most 2^n, and queries find few of them. */
  readonly lists: Map<string, Answer<OfferingList>>;
}

const CATALOG_ANSWERS: Part<CatalogAnswers> = {
  name: "catalog answers",
  make: (view) => {
    const offerings = view.snapshot.catalog.offerings;
    const json = (value: unknown) => {
      const text = JSON.stringify(value);
      return new Answer(Buffer.from(text), value, text);
    };
    const inOrder = offerings.map((offering) => json(offering) as Answer<Offering>);
    return {
      catalog: json({ items: [...offerings], total: offerings.length }) as Answer<OfferingList>,
      inOrder,
      bySlug: new Map(offerings.map((offering, position) => [offering.slug, inOrder[position] as Answer<Offering>])),
      lists: new Map(),
    };
  },
};

/**
 * Offerings search (interface §4): the list of the offerings found, their bodies joined as
 * JSON.stringify would write the list, once per set of offerings found.
 */
export function offeringList(view: SnapshotView, q: string | undefined): Answer<OfferingList> {
  const answers = view.get(CATALOG_ANSWERS);
  const positions = offeringsMatching(view, q);
  if (positions === null) return answers.catalog;
  const key = positions.join();
  let list = answers.lists.get(key);
  if (list === undefined) {
    const parts: Buffer[] = [ITEMS_START_BYTES];
    for (const [i, position] of positions.entries()) {
      if (i > 0) parts.push(COMMA);
      parts.push((answers.inOrder[position] as Answer<Offering>).body);
    }
    parts.push(Buffer.from(`],"total":${positions.length}}`));
    const items = positions.map((position) => view.snapshot.catalog.offerings[position] as Offering);
    list = new Answer<OfferingList>(Buffer.concat(parts), { items, total: items.length });
    if (answers.lists.size >= OFFERING_LISTS) answers.lists.clear();
    answers.lists.set(key, list);
  }
  return list;
}

export function offering(view: SnapshotView, slug: string): Answer<Offering> {
  const found = view.get(CATALOG_ANSWERS).bySlug.get(slug);
  if (found === undefined) throw offeringNotFound();
  return found;
}
