/**
 * A seeded mix of realistic directory searches over generated content (bench/generate.ts):
 * 1-3 terms, often short prefixes of the words people type (services, trades, names), with and
 * without a location (a town, part of one, a postcode prefix) and a country, some at deep
 * offsets. The same seed always gives the same searches.
 */
import type { DirectorySearchQuery } from "../src/schemas/parameters.ts";
import { words } from "../src/snapshot/text.ts";
import { ADJECTIVES, PLACES, random, SERVICES, SURNAMES } from "./generate.ts";

/** A directory search's query parameters: the API's own type. */
export type DirectoryQuery = DirectorySearchQuery;

/** A word as people type it: whole, or its first 1-5 letters. */
function typed(next: () => number, word: string): string {
  const roll = next();
  if (roll < 0.45) return word;
  return word.slice(0, 1 + Math.floor(next() * Math.min(5, word.length)));
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** What a search about a listing is made from: the listing as the directory publishes it. */
export interface ListingFacts {
  readonly name: string;
  readonly service: string;
  readonly location: { readonly city: string; readonly postalCode: string; readonly country: string };
}

/** A search someone looking for `listing` (or one like it) might type: its words, its place, its country. */
function searchFor(next: () => number, listing: ListingFacts): DirectoryQuery {
  const query: DirectoryQuery = {};
  if (next() < 0.85) {
    // Words of two letters or more, as the directory splits them.
    const service = words(listing.service).filter((word) => word.length > 1);
    const name = words(listing.name).filter((word) => word.length > 1 && !service.includes(word));
    const terms = 1 + Math.floor(next() * 3);
    const chosen: string[] = [];
    for (let t = 0; t < terms; t += 1) {
      const from = (t === 0 && next() < 0.6) || name.length === 0 ? service : name;
      const word = pick(next, from);
      if (!chosen.includes(word)) chosen.push(word);
    }
    query.q = chosen.map((word) => typed(next, word)).join(" ");
  }
  if (next() < 0.35) {
    const { city, postalCode } = listing.location;
    const roll = next();
    query.location =
      roll < 0.5 ? city.toLowerCase() : roll < 0.75 ? city.slice(0, 3).toLowerCase() : (postalCode.split(" ")[0] ?? city).slice(0, 3);
  }
  if (next() < 0.35) query.country = listing.location.country.toLowerCase();
  if (next() < 0.15) query.offset = pick(next, [10, 20, 50, 100, 500, 990]);
  if (next() < 0.1) query.limit = pick(next, [5, 20, 25]);
  return query;
}

/**
 * `count` searches from `seed`. Given listings of the directory searched, four in five searches
 * are about one of them (its name's and service's words, typed whole or in part, its town, part of
 * it or its postcode's start, its country), as people search for what exists; the rest, and all
 * of them without listings, put together words, places and countries at random, which often
 * finds nothing (typos, a town in another country).
 */
export function directoryQueries(count: number, seed = 7, listings: readonly ListingFacts[] = []): DirectoryQuery[] {
  const next = random(seed);
  const serviceWords = SERVICES.flatMap(([service]) => service.split(/[^A-Za-z]+/).filter((word) => word.length > 2));
  const nouns = SERVICES.map(([, , noun]) => noun.split(" ")[0] ?? noun);
  const names = [...SURNAMES, ...ADJECTIVES.filter((word) => /^[A-Za-z]+$/.test(word))];
  const queries: DirectoryQuery[] = [];
  for (let i = 0; i < count; i += 1) {
    if (listings.length > 0 && next() < 0.8) {
      queries.push(searchFor(next, pick(next, listings)));
      continue;
    }
    const query: DirectoryQuery = {};
    if (next() < 0.85) {
      const terms = 1 + Math.floor(next() * 3);
      const words: string[] = [];
      for (let t = 0; t < terms; t += 1) {
        const source = next();
        const word = source < 0.5 ? pick(next, serviceWords) : source < 0.7 ? pick(next, nouns) : pick(next, names);
        words.push(typed(next, word.replace(/[^\p{L}\p{M}0-9'’.&-]/gu, "")));
      }
      query.q = words.filter((word) => word !== "").join(" ");
    }
    if (next() < 0.35) {
      const [city, , , postcode] = pick(next, PLACES);
      const roll = next();
      query.location =
        roll < 0.5
          ? city.toLowerCase()
          : roll < 0.75
            ? city.slice(0, 3).toLowerCase()
            : (postcode(next).split(" ")[0]?.slice(0, 3) ?? city);
    }
    if (next() < 0.35) query.country = pick(next, PLACES)[2].toLowerCase();
    if (next() < 0.15) query.offset = pick(next, [10, 20, 50, 100, 500, 990]);
    if (next() < 0.1) query.limit = pick(next, [5, 20, 25]);
    queries.push(query);
  }
  return queries;
}

/** A search as a URL query string. */
export function queryString(query: DirectoryQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/** `count` distinct searches (by their query strings) from the seeded mix about `listings`. */
export function distinctQueries(count: number, listings: readonly ListingFacts[]): DirectoryQuery[] {
  const seen = new Set<string>();
  const distinct: DirectoryQuery[] = [];
  for (let seed = 100; distinct.length < count; seed += 1) {
    for (const query of directoryQueries(count, seed, listings)) {
      const text = queryString(query);
      if (seen.has(text)) continue;
      seen.add(text);
      distinct.push(query);
      if (distinct.length === count) break;
    }
  }
  return distinct;
}
