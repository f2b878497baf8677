/**
 * A seeded mix of realistic directory searches over generated content (bench/generate.ts):
 * 1-3 terms, often short prefixes of the words people type (services, trades, names), with and
 * without a location (a town, part of one, a postcode prefix) and a country, some at deep
 * offsets. The same seed always gives the same searches.
 */
import type { DirectorySearchQuery } from "../src/schemas/parameters.ts";
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

/** `count` searches from `seed`. */
export function directoryQueries(count: number, seed = 7): DirectoryQuery[] {
  const next = random(seed);
  const serviceWords = SERVICES.flatMap(([service]) => service.split(/[^A-Za-z]+/).filter((word) => word.length > 2));
  const nouns = SERVICES.map(([, , noun]) => noun.split(" ")[0] ?? noun);
  const names = [...SURNAMES, ...ADJECTIVES.filter((word) => /^[A-Za-z]+$/.test(word))];
  const queries: DirectoryQuery[] = [];
  for (let i = 0; i < count; i += 1) {
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
