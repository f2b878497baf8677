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
    // A search without conditions: every listing, counted once per snapshot.
    return { columns, whole: counted(columns, [], index.count) };
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

/**
 * What a search matches, counted (contract §4, Facets): the total, and per facet the values of the
 * matching listings with how many have each. The matches are exactly the search's (the same
 * condition sets, limit and offset aside); each is visited once and its four values counted.
 */
export function facetDirectory(view: SnapshotView, search: NormalizedSearch): DirectoryFacets {
  const sets = conditionSets(view, search);
  if (sets === null) return NONE;
  const { columns, whole } = view.get(FACET_TABLE);
  return sets.length === 0 ? whole : counted(columns, sets, directoryOf(view).index.count);
}

/** The facets of the listings every set holds (every listing when there are none): each visited once, its four values counted. */
function counted(columns: Columns, sets: readonly RankSet[], count: number): DirectoryFacets {
  const service = columns.service.ofRank;
  const category = columns.category.ofRank;
  const country = columns.country.ofRank;
  const city = columns.city.ofRank;
  const counts: Record<Facet, Uint32Array> = {
    service: new Uint32Array(columns.service.values.length),
    category: new Uint32Array(columns.category.values.length),
    country: new Uint32Array(columns.country.values.length),
    city: new Uint32Array(columns.city.values.length),
  };
  const byService = counts.service;
  const byCategory = counts.category;
  const byCountry = counts.country;
  const byCity = counts.city;
  let total = 0;
  visitIntersection(sets, count, (rank) => {
    total += 1;
    byService[service[rank] as number] = (byService[service[rank] as number] as number) + 1;
    byCategory[category[rank] as number] = (byCategory[category[rank] as number] as number) + 1;
    byCountry[country[rank] as number] = (byCountry[country[rank] as number] as number) + 1;
    byCity[city[rank] as number] = (byCity[city[rank] as number] as number) + 1;
  });
  const facets = { total } as DirectoryFacets;
  for (const facet of FACETS) facets[facet] = topValues(columns[facet].values, counts[facet]);
  return facets;
}
