import MiniSearch from "minisearch";
import { markdownPath, offeringPagePath } from "../src/contract.ts";
import { type ListsByName, listsByName, type PagingLengths, pagingLengths } from "../src/render/list-paging.ts";
import type { PublicBusiness } from "../src/schemas/business.ts";
import {
  LISTING_STATUSES,
  type OfferingFrontMatter,
  type ServiceEntry,
  type SiteFrontMatter,
  type SiteInfo,
} from "../src/schemas/content.ts";
import type { Offering } from "../src/schemas/offering.ts";
import { lowerBound } from "../src/snapshot/lower-bound.ts";
import { OFFERING_INDEX_OPTIONS, type OfferingIndexDocument } from "../src/snapshot/search-index.ts";
import { compareByNameThenSlug, compareCodeUnits } from "../src/snapshot/text.ts";
import type { CachedListing } from "./cache.ts";
import type { ListingMemo } from "./listing-memo.ts";
import { toPublicBusiness } from "./public-business.ts";
import type { Entry, ValidContent } from "./validate.ts";

/** Everything the emitters write, derived from valid content. */
export interface Model {
  readonly baseUrl: string;
  /** The site facts every page shows, as data/site.json publishes them. */
  readonly site: SiteInfo;
  /** The homepage text (editors' Markdown: the body of site.md). */
  readonly intro: string;
  /** Catalog order: `order`, then name. */
  readonly offerings: Offering[];
  /** Each offering's guide (Markdown), by slug. */
  readonly guides: ReadonlyMap<string, string>;
  /**
   * The service vocabulary in the order pages show it: content/services.yml, or without it every
   * service the approved listings name, by name, with no aliases.
   */
  readonly services: readonly ServiceEntry[];
  /** Approved listings only, in directory order. */
  readonly businesses: PublicBusiness[];
  /** Where each of `businesses` comes from, by rank. */
  readonly listingSources: readonly ListingSource[];
  /** How many listings were left out, by status. */
  readonly skipped: Readonly<Record<string, number>>;
  readonly offeringsIndex: MiniSearch<OfferingIndexDocument>;
  /** How the lists by country and by service are paged (src/render/list-paging.ts). */
  readonly lists: ListsByName;
}

/** A listing's content file, what the cache has of it (build/cache.ts), and its paging lengths. */
interface ListingSource {
  readonly file: string;
  readonly cached?: CachedListing;
  readonly paging: PagingLengths;
}

function toOffering(baseUrl: string, { slug, data }: Entry<OfferingFrontMatter>): Offering {
  const href = offeringPagePath(slug);
  return {
    slug,
    name: data.name,
    description: data.description,
    audience: data.audience,
    href,
    action: data.action,
    access: data.access,
    url: data.url ?? `${baseUrl}${href}`,
    guideUrl: `${baseUrl}${href}`,
    markdownUrl: `${baseUrl}${markdownPath(href)}`,
    features: data.features.map(({ title, text, link }) =>
      link === undefined ? { title, text } : { title, text, link: { href: link.href, label: link.label } },
    ),
    steps: [...data.steps],
    questions: data.questions.map(({ question, answer }) => ({ question, answer })),
  };
}

/** The site facts the snapshot publishes: site.md's front matter and the base URL. */
function siteInfo(baseUrl: string, { name, summary, operator, contact, licence, contentSignal }: SiteFrontMatter): SiteInfo {
  return {
    baseUrl,
    name,
    summary,
    operator,
    contact,
    ...(licence === undefined ? {} : { licence }),
    ...(contentSignal === undefined ? {} : { contentSignal }),
  };
}

/** Names in directory order (compareByNameThenSlug): names that compare equal are next to each other, in no order of their own. */
const compareNames = (a: string, b: string) => compareByNameThenSlug({ name: a, slug: "" }, { name: b, slug: "" });

/** Above this many names new since the previous build, the names are sorted again rather than each put in its place. */
const MAX_NAMES_PLACED = 1000;

/**
 * The distinct names, sorted by compareNames. With `previous`, the previous build's sorted names
 * (ListingMemo), those still used keep their order and the new ones are each put in place by a
 * binary search: at 100,000 listings, sorting 42,000 names in file order took 0.36-0.73 s of a
 * build under `npm run dev`.
 */
function sortedNames(distinct: ReadonlySet<string>, previous: readonly string[] | null): string[] {
  if (previous !== null) {
    const known = new Set(previous);
    const added = [...distinct].filter((name) => !known.has(name));
    if (added.length <= MAX_NAMES_PLACED) {
      const sorted = previous.filter((name) => distinct.has(name));
      for (const name of added)
        sorted.splice(
          lowerBound(sorted.length, (i) => compareNames(sorted[i] as string, name) < 0),
          0,
          name,
        );
      return sorted;
    }
  }
  return [...distinct].sort(compareNames);
}

/**
 * Each distinct name's place in directory order (names that compare equal share it), so that
 * listings are sorted by that number, then slug, in the same order: the collator compares the
 * distinct names once, not the names of every pair of listings compared (at a million listings,
 * 20 million comparisons).
 */
function nameOrder(sorted: readonly string[]): ReadonlyMap<string, number> {
  const ranks = new Map<string, number>();
  let rank = 0;
  for (const [i, name] of sorted.entries()) {
    if (i > 0 && compareNames(sorted[i - 1] as string, name) !== 0) rank += 1;
    ranks.set(name, rank);
  }
  return ranks;
}

/** The model of valid content; `memo` (build/listing-memo.ts) gives the public records of listings it has made before. */
export function deriveModel(content: ValidContent, baseUrl: string, memo?: ListingMemo): Model {
  const base = baseUrl.replace(/\/+$/, "");
  const offeringEntries = [...content.offerings].sort(
    (a, b) =>
      (a.data.order ?? Number.MAX_SAFE_INTEGER) - (b.data.order ?? Number.MAX_SAFE_INTEGER) ||
      compareByNameThenSlug({ name: a.data.name, slug: a.slug }, { name: b.data.name, slug: b.slug }),
  );
  const offerings = offeringEntries.map((entry) => toOffering(base, entry));
  const guides = new Map(offeringEntries.map((entry) => [entry.slug, entry.body]));

  const approved = content.businesses.filter((entry) => entry.data.status === "approved");
  const skipped: Record<string, number> = {};
  for (const status of LISTING_STATUSES) {
    const count = content.businesses.filter((entry) => entry.data.status === status).length;
    if (status !== "approved" && count > 0) skipped[status] = count;
  }
  const names = sortedNames(new Set(approved.map((entry) => entry.data.name)), memo?.sortedNames ?? null);
  if (memo !== undefined) memo.sortedNames = names;
  const nameRanks = nameOrder(names);
  const ranked = approved
    .map((entry) => ({
      business: memo === undefined ? toPublicBusiness(base, entry) : memo.business(entry.data, base, () => toPublicBusiness(base, entry)),
      entry,
      nameRank: nameRanks.get(entry.data.name) ?? 0,
    }))
    .sort((a, b) => a.nameRank - b.nameRank || compareCodeUnits(a.business.slug, b.business.slug));
  const businesses = ranked.map(({ business }) => business);
  const listingSources = ranked.map(({ business, entry: { file, cached } }): ListingSource => {
    const listing = cached?.listing;
    const paging = listing?.paging ?? pagingLengths(base, business);
    return listing === undefined ? { file, paging } : { file, cached: listing, paging };
  });

  const offeringsIndex = new MiniSearch<OfferingIndexDocument>(OFFERING_INDEX_OPTIONS);
  offeringsIndex.addAll(
    offerings.map((offering, id) => ({
      id,
      name: offering.name,
      description: offering.description,
      audience: offering.audience,
      features: offering.features.map((feature) => `${feature.title}\n${feature.text}`).join("\n"),
    })),
  );

  const services =
    content.services ??
    [...new Set(businesses.map((business) => business.service))]
      .sort((a, b) => compareByNameThenSlug({ name: a, slug: a }, { name: b, slug: b }))
      .map((name) => ({ name }));

  return {
    baseUrl: base,
    site: siteInfo(base, content.site.data),
    services,
    intro: content.site.body,
    offerings,
    guides,
    businesses,
    listingSources,
    skipped,
    offeringsIndex,
    lists: listsByName(
      businesses,
      listingSources.map(({ paging }) => paging),
    ),
  };
}
