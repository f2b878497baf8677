import { currentCountryCode } from "../schemas/countries.ts";
import { lowerBound } from "../snapshot/lower-bound.ts";
import { fold, words } from "../snapshot/text.ts";
import type { Directory } from "../snapshot/types.ts";
import type { SnapshotView } from "../snapshot/view.ts";
import { directoryOf, listingAt, normalizeSearch, searchDirectory } from "./directory.ts";

/**
 * Help for a directory search that found nothing (the pages' and MCP's next step, not the REST
 * API's: it answers exactly what was asked). Three kinds: a word of q that names a town or
 * region becomes the same search in that place ("plumber in leeds" → Plumbing in Leeds), a word
 * that starts no indexed word gets the closest one ("plumer" → plumber), and a country code that
 * no country has but stands for one (UK → GB) gets that one. Each comes with the search to run
 * instead, as its fields.
 */

/** Words people put around a place or a trade that are not part of either. */
const FILLER = new Set(["in", "near", "at", "around", "nearby", "close", "to", "me", "the", "a", "an", "for", "and", "of", "from", "by"]);

/** A search as its fields, each absent when empty: what was asked, and what to try instead. */
export interface SearchFields {
  readonly q?: string | undefined;
  readonly location?: string | undefined;
  readonly country?: string | undefined;
  /** The directory page's narrowing to one service (the API has none). */
  readonly service?: string | undefined;
}

interface PlaceSuggestion {
  /** q without the place and filler words, the place as location, and the country (corrected, when it was). */
  readonly search: SearchFields;
  /** For people: "Plumbing in Leeds", with the service when every listing found has the same one. */
  readonly label: string;
}

interface SpellingSuggestion {
  /** The word as typed, and the indexed word closest to it. */
  readonly typed: string;
  readonly suggestion: string;
  /** The search with that word replaced. */
  readonly search: SearchFields;
}

interface CountrySuggestion {
  /** The code as typed (upper case), and the assigned code it stands for, which has listings. */
  readonly typed: string;
  readonly suggestion: string;
  /** The search with that country. */
  readonly search: SearchFields;
}

export interface EmptySearchHelp {
  readonly place: PlaceSuggestion | null;
  readonly spellings: readonly SpellingSuggestion[];
  readonly country: CountrySuggestion | null;
}

/** Whether `key` (folded) is one of the directory's cities, regions or postal codes: a binary search of the sorted keys. */
function isPlace(directory: Directory, key: string): boolean {
  const keys = directory.index.locationKeys;
  return keys[lowerBound(keys.length, (i) => (keys[i] ?? "") < key)] === key;
}

/** The place a run of typed words names, as the listings write it ("Leeds", "Milton Keynes"). */
function placeName(directory: Directory, rank: number | undefined, key: string, typed: string): string {
  if (rank === undefined) return typed;
  const { city, region } = listingAt(directory, rank).location;
  return fold(city) === key ? city : fold(region) === key ? region : typed;
}

/** The fields that are not empty, in order: a search to try, as an agent would pass it. */
function fields(search: SearchFields): SearchFields {
  const kept: Record<string, string> = {};
  for (const name of ["q", "location", "country", "service"] as const) {
    const value = search[name];
    if (value !== undefined && value.trim() !== "") kept[name] = value;
  }
  return kept;
}

function placeSuggestion(view: SnapshotView, search: SearchFields, typed: readonly string[]): PlaceSuggestion | null {
  const directory = directoryOf(view);
  // Two-word places first ("milton keynes"), then single words.
  for (const size of [2, 1]) {
    for (let start = 0; start + size <= typed.length; start += 1) {
      const placeWords = typed.slice(start, start + size);
      const key = fold(placeWords.join(" "));
      if (key === "" || FILLER.has(key) || !isPlace(directory, key)) continue;
      const rest = [...typed.slice(0, start), ...typed.slice(start + size)].filter((word) => !FILLER.has(fold(word)));
      const q = rest.join(" ");
      const page = searchDirectory(view, normalizeSearch({ q, location: key, country: search.country, limit: 25, offset: 0 }));
      if (page.ranks.length === 0) continue;
      const place = placeName(directory, page.ranks[0], key, placeWords.join(" "));
      const services = new Set(page.ranks.map((rank) => listingAt(directory, rank).service));
      const what = rest.length === 0 ? "Everything" : services.size === 1 ? [...services][0] : q;
      return { search: fields({ q, location: place, country: search.country }), label: `${what} in ${place}` };
    }
  }
  return null;
}

function spellingSuggestions(directory: Directory, search: SearchFields, typed: readonly string[]): SpellingSuggestion[] {
  const suggestions: SpellingSuggestion[] = [];
  for (const word of typed) {
    const term = fold(word);
    if (term.length < 3 || FILLER.has(term) || directory.terms.atPrefix(term).size > 0) continue;
    // One edit for short words, two for longer ones; the nearest wins, then the alphabetically first.
    const found = directory.terms.fuzzyGet(term, term.length <= 5 ? 1 : 2);
    let best: [string, number] | undefined;
    for (const [key, [, distance]] of found) {
      if (best === undefined || distance < best[1] || (distance === best[1] && key < best[0])) best = [key, distance];
    }
    if (best !== undefined) {
      const suggestion = best[0];
      const q = typed.map((other) => (other === word ? suggestion : other)).join(" ");
      suggestions.push({ typed: word, suggestion, search: fields({ ...search, q }) });
    }
  }
  return suggestions;
}

/** Whether a search finds any listing. */
function finds(view: SnapshotView, search: SearchFields): boolean {
  return searchDirectory(view, normalizeSearch({ ...search, limit: 1, offset: 0 })).ranks.length > 0;
}

/** The assigned code a reserved one stands for (UK → GB), when the directory has listings there. */
function countryMeant(view: SnapshotView, search: SearchFields): { typed: string; meant: string } | null {
  const typed = (search.country ?? "").toUpperCase();
  const meant = currentCountryCode(typed);
  return meant !== undefined && finds(view, { country: meant }) ? { typed, meant } : null;
}

/** What to offer when `search` found nothing. */
export function helpForEmptySearch(view: SnapshotView, search: SearchFields): EmptySearchHelp {
  const typed = words(search.q ?? "");
  // Every suggestion searches in the country meant (GB for UK); that one alone is offered when it finds listings.
  const country = countryMeant(view, search);
  const meant = country === null ? search : { ...search, country: country.meant };
  const instead = country === null ? null : { typed: country.typed, suggestion: country.meant, search: fields(meant) };
  const spellings = spellingSuggestions(directoryOf(view), meant, typed);
  // The place is looked for with the words respelled: "electrican dublin" → Electrical in Dublin.
  const respelled = typed.map((word) => spellings.find((spelling) => spelling.typed === word)?.suggestion ?? word);
  return {
    place: placeSuggestion(view, meant, respelled),
    spellings,
    country: instead !== null && finds(view, meant) ? instead : null,
  };
}
