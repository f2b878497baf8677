import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { generateContent, random } from "../../bench/generate.ts";
import { type DirectoryQuery, directoryQueries } from "../../bench/queries.ts";
import { DIRECTORY_DEFAULT_LIMIT, DIRECTORY_MAX_OFFSET } from "../../src/contract.ts";
import { listingAt } from "../../src/core/directory.ts";
import { CatalogService } from "../../src/core/service.ts";
import type { PublicBusiness } from "../../src/schemas/business.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { compareByNameThenSlug, fold, words } from "../../src/snapshot/text.ts";
import type { Snapshot } from "../../src/snapshot/types.ts";
import { buildSnapshot, tempDir } from "../helpers/snapshot.ts";

/**
 * The fast search path (ranked index, rank sets, early stop) against contract §4 written the
 * simplest way: filter every listing, sort by name, slice. Over a generated directory of 3,000
 * listings and randomised searches: accents, apostrophes, prefixes, location substrings, every
 * country, and offsets up to the 1,000 browsing limit.
 */

const LISTINGS = 3000;
let snapshot: Snapshot;
let all: PublicBusiness[];
/** Each listing's folded words and places, worked out once (the reference stays simple, not slow). */
let folded: Map<PublicBusiness, { words: string[]; places: string[] }>;
let cleanup: () => Promise<void>;

before(async () => {
  const work = await tempDir("search-reference-");
  cleanup = work.remove;
  await generateContent(join(work.path, "content"), LISTINGS, 3);
  await buildSnapshot(join(work.path, "content"), join(work.path, "dist"));
  snapshot = await loadSnapshot(join(work.path, "dist"));
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

/** Contract §4, directly. */
function reference(query: DirectoryQuery): { slugs: string[]; nextOffset: number | null; total: number } {
  const typed = words(query.q ?? "");
  const terms = typed.map(fold).filter((term) => term !== "");
  const location = fold(query.location ?? "").trim();
  const country = (query.country ?? "").toUpperCase();
  const limit = query.limit ?? DIRECTORY_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
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

test("the fast search path answers exactly what contract §4 gives: the same items, order, nextOffset and total", () => {
  const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
  const queries = [
    ...directoryQueries(1500, 13),
    ...listingQueries(1500),
    { q: "\u0301" },
    { q: "o'brien" },
    { q: "ó" },
    {},
    { offset: 1000, limit: 25 },
  ];
  let nonEmpty = 0;
  let deep = 0;
  for (const query of queries) {
    const expected = reference(query);
    const answer = service.searchBusinesses(query).value;
    assert.deepEqual(
      { slugs: answer.items.map((business) => business.slug), nextOffset: answer.nextOffset, total: service.countBusinesses(query) },
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
