import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { generateContent, random } from "../../bench/generate.ts";
import { type DirectoryQuery, directoryQueries } from "../../bench/queries.ts";
import { DIRECTORY_DEFAULT_LIMIT, DIRECTORY_MAX_LIMIT, DIRECTORY_MAX_OFFSET, FACET_MAX_VALUES } from "../../src/contract.ts";
import { directoryFacets, directoryPage, pageSearch } from "../../src/core/answers.ts";
import { listingAt, normalizeSearch } from "../../src/core/directory.ts";
import type { PublicBusiness } from "../../src/schemas/business.ts";
import type { DirectoryFacets, DirectoryPage } from "../../src/schemas/responses.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { compareByNameThenSlug, fold, words } from "../../src/snapshot/text.ts";
import type { Snapshot } from "../../src/snapshot/types.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
import { startServer } from "../helpers/server.ts";
import { buildSnapshot, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

/**
 * The fast search path (ranked index, rank sets, early stop) and the facets against interface §4
 * written the simplest way: filter every listing, sort by name, slice or count. Over a generated
 * directory of 10,000 listings and 3,000 seeded searches: accents, apostrophes, prefixes, location
 * substrings, every country, and offsets up to the 1,000 browsing limit.
 */

const LISTINGS = 10_000;
let snapshot: Snapshot;
let all: PublicBusiness[];
/** Each listing's folded words and places, worked out once (the reference stays simple, not slow). */
let folded: Map<PublicBusiness, { words: string[]; places: string[] }>;
let cleanup: () => Promise<void>;
let dist: string;

before(async () => {
  const work = await tempDir("search-reference-");
  cleanup = work.remove;
  await generateContent(join(work.path, "content"), LISTINGS, 3);
  dist = join(work.path, "dist");
  await buildSnapshot(join(work.path, "content"), dist);
  snapshot = await loadSnapshot(dist);
  const directory = snapshot.directory;
  assert.ok(directory !== null);
  all = Array.from({ length: directory.index.count }, (_, rank) => listingAt(directory, rank));
  folded = new Map(
    all.map((business) => {
      const { city, region, postalCode } = business.location;
      return [
        business,
        { words: [...words(business.name), ...words(business.service)].map(fold), places: [city, region, postalCode].map(fold) },
      ];
    }),
  );
});
after(() => cleanup());

/** Contract §4's matches of a search's filters, in its order; worked out once per filters. */
const matchesByFilters = new Map<string, PublicBusiness[]>();

function referenceMatches(query: DirectoryQuery): PublicBusiness[] {
  const key = JSON.stringify([query.q, query.location, query.country]);
  const known = matchesByFilters.get(key);
  if (known !== undefined) return known;
  const typed = words(query.q ?? "");
  const terms = typed.map(fold).filter((term) => term !== "");
  const location = fold(query.location ?? "").trim();
  const country = (query.country ?? "").toUpperCase();
  const matches =
    typed.length > 0 && terms.length === 0
      ? []
      : all
          .filter((business) => {
            const { words: listingWords, places } = folded.get(business) ?? { words: [], places: [] };
            if (!terms.every((term) => listingWords.some((word) => word.startsWith(term)))) return false;
            if (country !== "" && business.location.country !== country) return false;
            return location === "" || places.some((place) => place.includes(location));
          })
          .sort(compareByNameThenSlug);
  matchesByFilters.set(key, matches);
  return matches;
}

/** Contract §4, directly. */
function reference(query: DirectoryQuery): { slugs: string[]; nextOffset: number | null; total: number } {
  const limit = query.limit ?? DIRECTORY_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const matches = referenceMatches(query);
  const end = offset + limit;
  return {
    slugs: matches.slice(offset, end).map((business) => business.slug),
    nextOffset: matches.length > end && end <= DIRECTORY_MAX_OFFSET ? end : null,
    total: matches.length,
  };
}

/** Searches made from the listings themselves: their words cut to prefixes, re-cased and stripped of accents, and substrings of their places. */
function listingQueries(count: number): DirectoryQuery[] {
  const next = random(5);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const variant = (word: string) => {
    const cut = word.slice(0, 1 + Math.floor(next() * word.length));
    const roll = next();
    if (roll < 0.25) return cut.toUpperCase();
    if (roll < 0.5) return cut.normalize("NFD").replace(/\p{M}/gu, "");
    if (roll < 0.6) return cut.replace("'", "’");
    return cut;
  };
  const queries: DirectoryQuery[] = [];
  for (let i = 0; i < count; i += 1) {
    const business = pick(all);
    const source = [...business.name.split(/\s+/), ...business.service.split(/\s+/)].filter((word) =>
      /^[\p{L}\p{M}0-9'’.&-]+$/u.test(word),
    );
    const query: DirectoryQuery = {};
    if (next() < 0.9 && source.length > 0)
      query.q = Array.from({ length: 1 + Math.floor(next() * 3) }, () => variant(pick(source))).join(" ");
    if (next() < 0.4) {
      const place = pick([business.location.city, business.location.region, business.location.postalCode]);
      const from = Math.floor(next() * place.length);
      query.location = place.slice(from, from + 1 + Math.floor(next() * 6)).trim() || place;
    }
    if (next() < 0.3) query.country = next() < 0.5 ? business.location.country : business.location.country.toLowerCase();
    if (next() < 0.4) query.offset = pick([0, 1, 10, 25, 100, 500, 975, 990, 999, 1000]);
    if (next() < 0.4) query.limit = pick([1, 5, 10, 25]);
    queries.push(query);
  }
  return queries;
}

/** 3,000 seeded searches (half the bench's mix, half made from listings), and a few edge cases. */
function searches(): DirectoryQuery[] {
  return [
    ...directoryQueries(1500, 13),
    ...listingQueries(1500),
    { q: "\u0301" },
    { q: "o'brien" },
    { q: "ó" },
    {},
    { offset: 1000, limit: 25 },
  ];
}

test("the fast search path answers exactly what interface §4 gives: the same items, order, nextOffset and total", () => {
  const view = new SnapshotView(snapshot);
  const queries = searches();
  let nonEmpty = 0;
  let deep = 0;
  for (const query of queries) {
    const expected = reference(query);
    const answer = directoryPage(view, pageSearch(query)).value;
    assert.deepEqual(
      {
        slugs: answer.items.map((business) => business.slug),
        nextOffset: answer.nextOffset,
        total: directoryFacets(view, normalizeSearch({ ...query, limit: 1, offset: 0 })).value.total,
      },
      expected,
      JSON.stringify(query),
    );
    if (expected.slugs.length > 0) nonEmpty += 1;
    if ((query.offset ?? 0) >= 975 && expected.slugs.length > 0) deep += 1;
  }
  // The searches exercise the path, not only its empty answers.
  assert.ok(nonEmpty > 1000, `only ${nonEmpty} searches found something`);
  assert.ok(deep > 3, `only ${deep} deep pages held listings`);
});

/** Contract §4's facets of some matches: each value counted, by count descending, then value, the top 50. */
function referenceFacets(matches: readonly PublicBusiness[]): DirectoryFacets {
  const counted = (facetOf: (business: PublicBusiness) => string) => {
    const counts = new Map<string, number>();
    for (const business of matches) counts.set(facetOf(business), (counts.get(facetOf(business)) ?? 0) + 1);
    return [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, FACET_MAX_VALUES);
  };
  return {
    total: matches.length,
    service: counted((business) => business.service),
    category: counted((business) => business.category),
    country: counted((business) => business.location.country),
    city: counted((business) => business.location.city),
  };
}

/** A query string of the filters only: the facets take no paging. */
function filtersOf(query: DirectoryQuery): string {
  const params = new URLSearchParams();
  for (const name of ["q", "location", "country"] as const) if (query[name] !== undefined) params.set(name, query[name]);
  return params.toString();
}

/** The structuredContent of a tools/call response exactly as its bytes were sent (it is the result's last member). */
function structuredContentText(response: string): string {
  const marker = '"structuredContent":';
  const at = response.indexOf(marker);
  assert.ok(at > 0 && response.endsWith("}}"), response.slice(0, 300));
  return response.slice(at + marker.length, -2);
}

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "facets-reference", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

test("facets count exactly what the search matches: GET /api/facets equals interface §4's matches counted and the listings REST pages through, and directory_facets answers the same bytes in both MCP eras", async (t) => {
  const server = await startServer(dist, { CACHE_SECONDS: "0" });
  const port = Number(new URL(server.url).port);
  const host = new URL(TEST_BASE_URL).host;
  const call = async (headers: Record<string, string>, params: Record<string, unknown>) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
    const response = await raw(
      { port },
      "POST",
      { host, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    );
    assert.equal(response.status, 200, response.body);
    return structuredContentText(response.body);
  };
  /** Every listing REST gives for the filters, following nextOffset from 0 to null, 25 a page. */
  const pagedThrough = async (filters: string): Promise<PublicBusiness[]> => {
    const listings: PublicBusiness[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const response = await fetch(`${server.url}/api/directory?${filters}&limit=${DIRECTORY_MAX_LIMIT}&offset=${offset}`);
      const page = (await response.json()) as DirectoryPage;
      listings.push(...page.items);
      offset = page.nextOffset;
    }
    return listings;
  };
  try {
    const seen = new Set<string>();
    let paged = 0;
    let many = 0;
    for (const query of searches()) {
      const filters = filtersOf(query);
      if (seen.has(filters)) continue;
      seen.add(filters);
      const response = await fetch(`${server.url}/api/facets?${filters}`);
      assert.equal(response.status, 200, filters);
      const text = await response.text();
      const facets = JSON.parse(text) as DirectoryFacets;
      const matches = referenceMatches(query);
      assert.deepEqual(facets, referenceFacets(matches), filters);
      // REST can page through every match up to the browsing limit: there the counts are the pages' own.
      if (matches.length <= DIRECTORY_MAX_OFFSET + DIRECTORY_MAX_LIMIT) {
        assert.deepEqual(facets, referenceFacets(await pagedThrough(filters)), `${filters}, paged through`);
        paged += 1;
      } else many += 1;
      const args = Object.fromEntries(new URLSearchParams(filters));
      const legacy = await call({ "mcp-protocol-version": "2025-11-25" }, { name: "directory_facets", arguments: args });
      const modern = await call(
        { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "directory_facets" },
        { name: "directory_facets", arguments: args, _meta: MODERN_META },
      );
      assert.equal(legacy, text, `${filters}: 2025-11-25`);
      assert.equal(modern, text, `${filters}: 2026-07-28`);
    }
    // The searches exercise both kinds: matches REST can page through, and more than it reaches.
    assert.ok(seen.size > 2500, `only ${seen.size} distinct searches`);
    assert.ok(paged > 1000 && many > 50, `${paged} paged through, ${many} past the browsing limit`);
    t.diagnostic(`${seen.size} distinct searches: ${paged} paged through on REST, ${many} past the browsing limit`);
  } finally {
    await server.close();
  }
});
