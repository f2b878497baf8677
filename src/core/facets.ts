import { FACET_MAX_VALUES } from "../contract.ts";
import type { DirectoryFacets, FacetCount } from "../schemas/responses.ts";
import type { Postings } from "../snapshot/directory-index.ts";
import type { Part, SnapshotView } from "../snapshot/view.ts";
import { conditionSets, directoryOf, type NormalizedSearch } from "./directory.ts";
import { type RankSet, visitIntersection } from "./rank-sets.ts";

/** The facets an answer holds, in the order of its fields. */
const FACETS = ["service", "category", "country", "city"] as const;
type Facet = (typeof FACETS)[number];

/** One facet of the directory: its values, and each listing's value as an index into them. */
interface Column {
  readonly values: readonly string[];
  /** The value of the listing at each rank. */
  readonly ofRank: Uint32Array;
}

function columnOf(values: readonly string[], postings: Postings, count: number): Column {
  const ofRank = new Uint32Array(count);
  for (let value = 0; value < values.length; value += 1) {
    for (let i = postings.offsets[value] ?? 0; i < (postings.offsets[value + 1] ?? 0); i += 1) ofRank[postings.values[i] ?? 0] = value;
  }
  return { values, ofRank };
}

/** Every listing has exactly one service, category, country and city, so each facet is a column by rank. */
type Columns = Readonly<Record<Facet, Column>>;

/** A directory's columns, and the facets of the whole directory (a search without conditions). */
interface FacetTable {
  readonly columns: Columns;
  readonly whole: DirectoryFacets;
}

/** The directory's facet table, made from its postings on first use (4 bytes a listing a facet) and kept with the view. */
const FACET_TABLE: Part<FacetTable> = {
  name: "facet columns",
  make: (view) => {
    const { index } = directoryOf(view);
    const columns: Columns = {
      service: columnOf(index.services, index.servicePostings, index.count),
      category: columnOf(index.categories, index.categoryPostings, index.count),
      country: columnOf(index.countries, index.countryPostings, index.count),
      city: columnOf(index.cities, index.cityPostings, index.count),
    };
    // A search without conditions: every listing, counted once per view.
    return { columns, whole: counted(columns, [], index.count, FACETS) };
  },
};

/** The values with a count, by count descending then value (code-unit order), at most FACET_MAX_VALUES. */
function topValues(values: readonly string[], counts: Uint32Array): FacetCount[] {
  const order: number[] = [];
  for (let value = 0; value < counts.length; value += 1) if ((counts[value] ?? 0) > 0) order.push(value);
  order.sort((a, b) => {
    const byCount = (counts[b] ?? 0) - (counts[a] ?? 0);
    if (byCount !== 0) return byCount;
    const left = values[a] ?? "";
    const right = values[b] ?? "";
    return left < right ? -1 : left > right ? 1 : 0;
  });
  return order.slice(0, FACET_MAX_VALUES).map((value) => ({ value: values[value] ?? "", count: counts[value] ?? 0 }));
}

const NONE: DirectoryFacets = { total: 0, service: [], category: [], country: [], city: [] };

/** The facets the directory page shows of a search: the ones its links narrow the search by. */
export const PAGE_FACETS: readonly Facet[] = ["service", "country"];

/**
 * What a search matches, counted (interface §4, Facets): the total, and per facet the values of the
 * matching listings with how many have each (only those of `facets`; the others are left empty).
 * The matches are exactly the search's (the same condition sets, limit and offset aside); each is
 * visited once and its values counted. A search of one condition (a word, a place, a country) is
 * counted once per view, every facet, and kept with its set: those are the searches with the most
 * matches, and a set is kept for the view's life or as long as its cache keeps it.
 */
export function facetDirectory(view: SnapshotView, search: NormalizedSearch, facets: readonly Facet[] = FACETS): DirectoryFacets {
  const sets = conditionSets(view, search);
  if (sets === null) return NONE;
  const { columns, whole } = view.get(FACET_TABLE);
  const count = directoryOf(view).index.count;
  if (sets.length === 0) return whole;
  const [only] = sets;
  if (sets.length === 1 && only !== undefined) {
    only.facets ??= counted(columns, sets, count, FACETS);
    return only.facets;
  }
  return counted(columns, sets, count, facets);
}

/** The facets (those of `facets`) of the listings every set holds (every listing when there are none): each visited once. */
function counted(columns: Columns, sets: readonly RankSet[], count: number, facets: readonly Facet[]): DirectoryFacets {
  const ofRank = facets.map((facet) => columns[facet].ofRank);
  const counts = facets.map((facet) => new Uint32Array(columns[facet].values.length));
  let total = 0;
  // Written out for the page's two facets and the API's four: the loop runs once per match.
  if (facets.length === 2) {
    const [a, b] = ofRank as [Uint32Array, Uint32Array];
    const [byA, byB] = counts as [Uint32Array, Uint32Array];
    visitIntersection(sets, count, (rank) => {
      total += 1;
      byA[a[rank] as number] = (byA[a[rank] as number] as number) + 1;
      byB[b[rank] as number] = (byB[b[rank] as number] as number) + 1;
    });
  } else {
    visitIntersection(sets, count, (rank) => {
      total += 1;
      for (let i = 0; i < ofRank.length; i += 1) {
        const by = counts[i] as Uint32Array;
        const value = (ofRank[i] as Uint32Array)[rank] as number;
        by[value] = (by[value] as number) + 1;
      }
    });
  }
  const answer: DirectoryFacets = { ...NONE, total };
  for (const [i, facet] of facets.entries()) answer[facet] = topValues(columns[facet].values, counts[i] as Uint32Array);
  return answer;
}
