import { lowerBound } from "../snapshot/lower-bound.ts";
import { fold, words } from "../snapshot/text.ts";
import type { Directory } from "../snapshot/types.ts";
import { type DirectorySearch, listingAt, normalizeSearch, searchDirectory } from "./directory.ts";

/**
 * Help for a directory search that found nothing (the pages' next step, not the API's: the API
 * answers exactly what was asked). Two kinds: a word of q that names a town or region becomes
 * the same search in that place ("plumber in leeds" → Plumbing in Leeds), and a word that
 * starts no indexed word gets the closest one ("plumer" → plumber).
 */

/** Words people put around a place or a trade that are not part of either. */
const FILLER = new Set(["in", "near", "at", "around", "nearby", "close", "to", "me", "the", "a", "an", "for", "and", "of", "from", "by"]);

interface PlaceSuggestion {
  /** The search to run: q without the place and filler words, and the place as location. */
  readonly q: string;
  readonly location: string;
  /** For people: "Plumbing in Leeds", with the service when every listing found has the same one. */
  readonly label: string;
}

interface SpellingSuggestion {
  /** The word as typed, and the indexed word closest to it. */
  readonly typed: string;
  readonly suggestion: string;
}

export interface EmptySearchHelp {
  readonly place: PlaceSuggestion | null;
  readonly spellings: readonly SpellingSuggestion[];
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

function placeSuggestion(directory: Directory, search: Pick<DirectorySearch, "country">, typed: readonly string[]): PlaceSuggestion | null {
  // Two-word places first ("milton keynes"), then single words.
  for (const size of [2, 1]) {
    for (let start = 0; start + size <= typed.length; start += 1) {
      const placeWords = typed.slice(start, start + size);
      const key = fold(placeWords.join(" "));
      if (key === "" || FILLER.has(key) || !isPlace(directory, key)) continue;
      const rest = [...typed.slice(0, start), ...typed.slice(start + size)].filter((word) => !FILLER.has(fold(word)));
      const q = rest.join(" ");
      const page = searchDirectory(directory, normalizeSearch({ q, location: key, country: search.country, limit: 25, offset: 0 }));
      if (page.ranks.length === 0) continue;
      const place = placeName(directory, page.ranks[0], key, placeWords.join(" "));
      const services = new Set(page.ranks.map((rank) => listingAt(directory, rank).service));
      const what = rest.length === 0 ? "Everything" : services.size === 1 ? [...services][0] : q;
      return { q, location: place, label: `${what} in ${place}` };
    }
  }
  return null;
}

function spellingSuggestions(directory: Directory, typed: readonly string[]): SpellingSuggestion[] {
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
    if (best !== undefined) suggestions.push({ typed: word, suggestion: best[0] });
  }
  return suggestions;
}

/** What to offer when `search` (with q or location) found nothing. */
export function helpForEmptySearch(directory: Directory, search: Pick<DirectorySearch, "q" | "country">): EmptySearchHelp {
  const typed = words(search.q ?? "");
  const spellings = spellingSuggestions(directory, typed);
  // The place is looked for with the words respelled: "electrican dublin" → Electrical in Dublin.
  const respelled = typed.map((word) => spellings.find((spelling) => spelling.typed === word)?.suggestion ?? word);
  return { place: placeSuggestion(directory, search, respelled), spellings };
}
