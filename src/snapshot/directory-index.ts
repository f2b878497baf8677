import { endianness } from "node:os";
import type { PublicBusiness } from "../schemas/business.ts";
import { compareCodeUnits, fold, words } from "./text.ts";

/**
 * The directory's search index as the build writes it and the server loads it: listings are
 * ranked by name (interface §4) at build time, and every structure below refers to listings by
 * rank, so results come out already in order. Two files: a JSON header with the strings (terms,
 * countries, services, location keys) and a binary file of little-endian uint32 arrays
 * (postings and the location suffix array), which load without parsing. Slugs and ids are not
 * here: the server finds them in the listings' own bytes (src/snapshot/listing-lookup.ts).
 *
 * Bump DIRECTORY_INDEX_VERSION whenever this layout or its meaning changes.
 */
const DIRECTORY_INDEX_VERSION = 4;

/** Ranks of entry i are values[offsets[i] .. offsets[i + 1]), ascending (compressed sparse rows). */
export interface Postings {
  readonly offsets: Uint32Array;
  readonly values: Uint32Array;
}

export interface DirectoryIndex {
  /** How many listings there are; ranks are 0 .. count - 1. */
  readonly count: number;
  /** SHA-256 (hex) of the businesses.ndjson whose lines the ranks number: an index only answers for its own listings. */
  readonly listingsSha256: string;
  /** Folded words of names, services and the services' aliases (the words q matches), sorted. */
  readonly terms: readonly string[];
  readonly termPostings: Postings;
  /** Country codes, sorted. */
  readonly countries: readonly string[];
  readonly countryPostings: Postings;
  /** Service values as listings give them, in the vocabulary's order (then the others, sorted). */
  readonly services: readonly string[];
  readonly servicePostings: Postings;
  /** Category values as listings give them, sorted (facets count them; no search condition reads them). */
  readonly categories: readonly string[];
  readonly categoryPostings: Postings;
  /** City values as listings give them, sorted (facets count them; location matches the folded keys below). */
  readonly cities: readonly string[];
  readonly cityPostings: Postings;
  /** Folded cities, regions and postal codes, distinct and sorted (the strings location is a substring of). */
  readonly locationKeys: readonly string[];
  readonly locationPostings: Postings;
  /** Every suffix of every location key, sorted: key index and start of each, for substring lookup. */
  readonly suffixKeys: Uint32Array;
  readonly suffixStarts: Uint32Array;
}

/**
 * The words of a listing that q matches (interface §4): folded words of its name, of its service
 * and of its service's aliases in the vocabulary.
 */
function listingTerms(business: Pick<PublicBusiness, "name" | "service">, aliases: readonly string[] = []): string[] {
  const terms = new Set<string>();
  for (const word of [...words(business.name), ...words(business.service), ...aliases.flatMap(words)]) {
    const term = fold(word);
    if (term !== "") terms.add(term);
  }
  return [...terms];
}

/** The strings a listing's location is matched in: its folded city, region and postal code. */
function locationKeysOf({ location }: Pick<PublicBusiness, "location">): string[] {
  return [...new Set([fold(location.city), fold(location.region), fold(location.postalCode)])];
}

/**
 * Postings from a key → ranks map; ranks were added in ascending order. Keys are sorted by code
 * unit, or first in the order `order` gives (the service vocabulary's), the others after them.
 */
function postingsFrom(map: Map<string, number[]>, order: readonly string[] = []): { keys: string[]; postings: Postings } {
  const position = new Map(order.map((key, i) => [key, i]));
  const keys = [...map.keys()].sort(
    (a, b) => (position.get(a) ?? order.length) - (position.get(b) ?? order.length) || compareCodeUnits(a, b),
  );
  const offsets = new Uint32Array(keys.length + 1);
  let total = 0;
  for (const [i, key] of keys.entries()) {
    total += map.get(key)?.length ?? 0;
    offsets[i + 1] = total;
  }
  const values = new Uint32Array(total);
  for (const [i, key] of keys.entries()) values.set(map.get(key) ?? [], offsets[i]);
  return { keys, postings: { offsets, values } };
}

function add(map: Map<string, number[]>, key: string, rank: number): void {
  const ranks = map.get(key);
  if (ranks === undefined) map.set(key, [rank]);
  else if (ranks[ranks.length - 1] !== rank) ranks.push(rank);
}

/** Compares suffix `start` of `key` with `text` by UTF-16 code units, as far as `text` goes: negative, 0 (a prefix) or positive. */
export function compareSuffix(key: string, start: number, text: string): number {
  for (let i = 0; i < text.length; i += 1) {
    const a = key.charCodeAt(start + i);
    if (Number.isNaN(a)) return -1;
    const diff = a - text.charCodeAt(i);
    if (diff !== 0) return diff;
  }
  return 0;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** Every suffix of every key, sorted by code unit. */
function sortedSuffixes(keys: readonly string[]): { suffixKeys: Uint32Array; suffixStarts: Uint32Array } {
  const suffixes: [string, number, number][] = [];
  for (const [key, text] of keys.entries()) {
    for (let start = 0; start < text.length; start += 1) suffixes.push([text.slice(start), key, start]);
  }
  suffixes.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  return {
    suffixKeys: Uint32Array.from(suffixes, ([, key]) => key),
    suffixStarts: Uint32Array.from(suffixes, ([, , start]) => start),
  };
}

/** An index's suffix arrays, with the location keys they were sorted from. */
export type LocationSuffixes = Pick<DirectoryIndex, "locationKeys" | "suffixKeys" | "suffixStarts">;

/**
 * The index of listings given in rank order; `aliases` gives each service's aliases (interface §2),
 * in the vocabulary's order. `previous` (an earlier build's index) lends its suffix arrays when
 * its location keys are the same: sorting them is most of an incremental build's index time.
 */
export function buildDirectoryIndex(
  businesses: readonly PublicBusiness[],
  listingsSha256: string,
  aliases: ReadonlyMap<string, readonly string[]> = new Map(),
  previous: LocationSuffixes | null = null,
): DirectoryIndex {
  const terms = new Map<string, number[]>();
  const countries = new Map<string, number[]>();
  const services = new Map<string, number[]>();
  const locations = new Map<string, number[]>();
  const categories = new Map<string, number[]>();
  const cities = new Map<string, number[]>();
  for (const [rank, business] of businesses.entries()) {
    for (const term of listingTerms(business, aliases.get(business.service))) add(terms, term, rank);
    add(countries, business.location.country, rank);
    add(services, business.service, rank);
    add(categories, business.category, rank);
    add(cities, business.location.city, rank);
    for (const key of locationKeysOf(business)) if (key !== "") add(locations, key, rank);
  }
  const t = postingsFrom(terms);
  const c = postingsFrom(countries);
  // Services in the vocabulary's order: the order the pages and lists show them in (interface §2).
  const s = postingsFrom(services, [...aliases.keys()]);
  const l = postingsFrom(locations);
  const categoryList = postingsFrom(categories);
  const cityList = postingsFrom(cities);
  return {
    count: businesses.length,
    listingsSha256,
    terms: t.keys,
    termPostings: t.postings,
    countries: c.keys,
    countryPostings: c.postings,
    services: s.keys,
    servicePostings: s.postings,
    categories: categoryList.keys,
    categoryPostings: categoryList.postings,
    cities: cityList.keys,
    cityPostings: cityList.postings,
    locationKeys: l.keys,
    locationPostings: l.postings,
    ...(previous !== null && sameStrings(previous.locationKeys, l.keys)
      ? { suffixKeys: previous.suffixKeys, suffixStarts: previous.suffixStarts }
      : sortedSuffixes(l.keys)),
  };
}

/** The uint32 arrays of the binary file, in this order. */
const ARRAYS = [
  "termOffsets",
  "termValues",
  "countryOffsets",
  "countryValues",
  "serviceOffsets",
  "serviceValues",
  "categoryOffsets",
  "categoryValues",
  "cityOffsets",
  "cityValues",
  "locationOffsets",
  "locationValues",
  "suffixKeys",
  "suffixStarts",
] as const;

type ArrayName = (typeof ARRAYS)[number];

interface IndexHeader {
  version: number;
  count: number;
  listingsSha256: string;
  terms: string[];
  countries: string[];
  services: string[];
  categories: string[];
  cities: string[];
  locationKeys: string[];
  /** Length (in uint32s) of each array of the binary file, in ARRAYS order. */
  lengths: Record<ArrayName, number>;
}

function arraysOf(index: DirectoryIndex): Record<ArrayName, Uint32Array> {
  return {
    termOffsets: index.termPostings.offsets,
    termValues: index.termPostings.values,
    countryOffsets: index.countryPostings.offsets,
    countryValues: index.countryPostings.values,
    serviceOffsets: index.servicePostings.offsets,
    serviceValues: index.servicePostings.values,
    categoryOffsets: index.categoryPostings.offsets,
    categoryValues: index.categoryPostings.values,
    cityOffsets: index.cityPostings.offsets,
    cityValues: index.cityPostings.values,
    locationOffsets: index.locationPostings.offsets,
    locationValues: index.locationPostings.values,
    suffixKeys: index.suffixKeys,
    suffixStarts: index.suffixStarts,
  };
}

/** The two files of an index: the JSON header and the binary arrays. */
export function encodeDirectoryIndex(index: DirectoryIndex): { header: string; arrays: Buffer } {
  const arrays = arraysOf(index);
  const lengths = Object.fromEntries(ARRAYS.map((name) => [name, arrays[name].length])) as Record<ArrayName, number>;
  const header: IndexHeader = {
    version: DIRECTORY_INDEX_VERSION,
    count: index.count,
    listingsSha256: index.listingsSha256,
    terms: [...index.terms],
    countries: [...index.countries],
    services: [...index.services],
    categories: [...index.categories],
    cities: [...index.cities],
    locationKeys: [...index.locationKeys],
    lengths,
  };
  const bytes = Buffer.alloc(ARRAYS.reduce((sum, name) => sum + lengths[name] * 4, 0));
  let offset = 0;
  for (const name of ARRAYS) {
    for (const value of arrays[name]) offset = bytes.writeUInt32LE(value, offset);
  }
  return { header: JSON.stringify(header), arrays: bytes };
}

/** A file of the index that does not hold what the header says. */
export class IndexFormatError extends Error {}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/** Checks that postings are well formed: offsets rise from 0 to the value count, ranks ascend below `count`. */
function checkPostings(name: string, postings: Postings, entries: number, count: number): void {
  const { offsets, values } = postings;
  if (offsets.length !== entries + 1 || offsets[0] !== 0 || offsets[entries] !== values.length) {
    throw new IndexFormatError(`${name}: offsets do not match the entries`);
  }
  for (let i = 0; i < entries; i += 1) {
    const from = offsets[i] ?? 0;
    const to = offsets[i + 1] ?? 0;
    if (to < from) throw new IndexFormatError(`${name}: offsets go backwards`);
    let previous = -1;
    for (let j = from; j < to; j += 1) {
      const rank = values[j] ?? count;
      if (rank <= previous || rank >= count) throw new IndexFormatError(`${name}: ranks out of order or range`);
      previous = rank;
    }
  }
}

/**
 * The bytes as little-endian uint32s: a view of the same memory where the machine is
 * little-endian and the bytes are aligned, else a copy.
 */
function uint32View(bytes: Buffer): Uint32Array {
  if (endianness() === "LE" && bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const copy = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < copy.length; i += 1) copy[i] = bytes.readUInt32LE(i * 4);
  return copy;
}

/** Reads and checks an index: the header's shape, every array's length, every posting's range and order. */
export function decodeDirectoryIndex(headerJson: unknown, bytes: Buffer): DirectoryIndex {
  const header = headerJson as Partial<IndexHeader> | null;
  if (header === null || typeof header !== "object" || header.version !== DIRECTORY_INDEX_VERSION) {
    throw new IndexFormatError("the index is from another version of the build");
  }
  const { count, listingsSha256, terms, countries, services, categories, cities, locationKeys, lengths } = header;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0) throw new IndexFormatError("count is not a whole number");
  if (typeof listingsSha256 !== "string") throw new IndexFormatError("the digest of its listings is missing");
  for (const [name, list] of Object.entries({ terms, countries, services, categories, cities, locationKeys })) {
    if (!isStringArray(list)) throw new IndexFormatError(`${name} is not a list of strings`);
  }
  if (lengths === undefined || ARRAYS.some((name) => !Number.isInteger(lengths[name]) || lengths[name] < 0)) {
    throw new IndexFormatError("the array lengths are missing");
  }
  const total = ARRAYS.reduce((sum, name) => sum + lengths[name] * 4, 0);
  if (bytes.length !== total) throw new IndexFormatError(`the binary file holds ${bytes.length} bytes, the header says ${total}`);
  const words32 = uint32View(bytes);
  const arrays = {} as Record<ArrayName, Uint32Array>;
  let at = 0;
  for (const name of ARRAYS) {
    arrays[name] = words32.subarray(at, at + lengths[name]);
    at += lengths[name];
  }
  const index: DirectoryIndex = {
    count,
    listingsSha256,
    terms: terms as string[],
    termPostings: { offsets: arrays.termOffsets, values: arrays.termValues },
    countries: countries as string[],
    countryPostings: { offsets: arrays.countryOffsets, values: arrays.countryValues },
    services: services as string[],
    servicePostings: { offsets: arrays.serviceOffsets, values: arrays.serviceValues },
    categories: categories as string[],
    categoryPostings: { offsets: arrays.categoryOffsets, values: arrays.categoryValues },
    cities: cities as string[],
    cityPostings: { offsets: arrays.cityOffsets, values: arrays.cityValues },
    locationKeys: locationKeys as string[],
    locationPostings: { offsets: arrays.locationOffsets, values: arrays.locationValues },
    suffixKeys: arrays.suffixKeys,
    suffixStarts: arrays.suffixStarts,
  };
  checkPostings("terms", index.termPostings, index.terms.length, count);
  checkPostings("countries", index.countryPostings, index.countries.length, count);
  checkPostings("services", index.servicePostings, index.services.length, count);
  checkPostings("categories", index.categoryPostings, index.categories.length, count);
  checkPostings("cities", index.cityPostings, index.cities.length, count);
  checkPostings("locations", index.locationPostings, index.locationKeys.length, count);
  if (index.suffixKeys.length !== index.suffixStarts.length) throw new IndexFormatError("the suffix arrays differ in length");
  for (let i = 0; i < index.suffixKeys.length; i += 1) {
    const key = index.locationKeys[index.suffixKeys[i] ?? 0];
    if (key === undefined || (index.suffixStarts[i] ?? 0) >= key.length) throw new IndexFormatError("a suffix points outside its key");
  }
  return index;
}
