/**
 * Where each listing of businesses.ndjson is: its line by rank (where each line starts), and its
 * rank by slug or id (a hash table). No listing becomes a JavaScript object or string to be
 * found: at 1,000,000 listings a Map of 2,000,000 identifier strings alone took more memory than
 * the index.
 *
 * Every line starts `{"id":"<uuid>","slug":"<slug>",` (the build writes PublicBusiness fields in
 * schema order, and the loader checks each line), so a listing's id and slug are found by
 * position, without parsing.
 */

export const NEWLINE = 0x0a;
const QUOTE = 0x22;
const ID_PREFIX = Buffer.from('{"id":"');
const ID_LENGTH = 36;
const SLUG_PREFIX = Buffer.from('","slug":"');
const SLUG_START = ID_PREFIX.length + ID_LENGTH + SLUG_PREFIX.length;

/** A line of businesses.ndjson that does not have the shape the store relies on. */
export class ListingShapeError extends Error {}

/** What a store of either form (listings.ts) holds to find a listing. */
export interface Lookups extends Lookup {
  readonly count: number;
  /** Line `rank` is bytes lineStarts[rank] .. lineStarts[rank + 1] - 1 of the file (its newline excluded). */
  readonly lineStarts: Uint32Array;
}

/** FNV-1a over bytes start..end of `bytes` (a slug or an id). */
function hashBytes(bytes: Buffer, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) {
    hash ^= bytes[i] ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Whether bytes keyStart..keyEnd of `key` are bytes start..end of `bytes` (compared in place, no view made). */
function keyAt(key: Buffer, keyStart: number, keyEnd: number, bytes: Buffer, start: number, end: number): boolean {
  return key.compare(bytes, start, end, keyStart, keyEnd) === 0;
}

/** The slug and id lookup, filled line by line. */
export interface Lookup {
  /**
   * Each line's beginning up to the end of its slug, at keyStarts[rank] .. slugEnds[rank]: the
   * file's bytes themselves when it is held whole (then keyStarts is lineStarts).
   */
  readonly keys: Buffer;
  readonly keyStarts: Uint32Array;
  readonly slugEnds: Uint32Array;
  /** Open addressing: rank + 1 of the listing whose slug or id hashes here, 0 when empty; length a power of two. */
  readonly table: Uint32Array;
}

export function tableFor(count: number): Uint32Array {
  let size = 1;
  while (size < count * 4) size *= 2;
  return new Uint32Array(size);
}

/** Adds key bytes start..end of listing `rank`; false when an earlier listing has that key as its slug or id. */
function insert({ keys, keyStarts, slugEnds, table }: Lookup, start: number, end: number, rank: number): boolean {
  const mask = table.length - 1;
  // Compared in place: a Buffer view of each key had cost 40% of the lookup's making at start.
  let slot = hashBytes(keys, start, end) & mask;
  for (let entry = table[slot] ?? 0; entry !== 0; entry = table[slot] ?? 0) {
    const other = entry - 1;
    const otherId = (keyStarts[other] ?? 0) + ID_PREFIX.length;
    if (
      other !== rank &&
      (keyAt(keys, start, end, keys, otherId + ID_LENGTH + SLUG_PREFIX.length, slugEnds[other] ?? 0) ||
        keyAt(keys, start, end, keys, otherId, otherId + ID_LENGTH))
    ) {
      return false;
    }
    slot = (slot + 1) & mask;
  }
  table[slot] = rank + 1;
  return true;
}

/**
 * Where the slug of the line at `start` (its newline at `end`) in `bytes` ends, after checking
 * that the line starts with its id and slug.
 */
export function slugEndOf(bytes: Buffer, start: number, end: number, rank: number): number {
  const idStart = start + ID_PREFIX.length;
  const slugStart = start + SLUG_START;
  const slugEnd = bytes.indexOf(QUOTE, slugStart);
  if (
    end - start <= SLUG_START ||
    bytes.compare(ID_PREFIX, 0, ID_PREFIX.length, start, idStart) !== 0 ||
    bytes.compare(SLUG_PREFIX, 0, SLUG_PREFIX.length, idStart + ID_LENGTH, slugStart) !== 0 ||
    slugEnd < 0 ||
    slugEnd >= end
  ) {
    throw new ListingShapeError(`listing ${rank + 1} of businesses.ndjson does not start with its id and slug.`);
  }
  return slugEnd;
}

/** Enters the slug and id of listing `rank`, whose key bytes start at keyStarts[rank]. */
export function enter(lookup: Lookup, rank: number): void {
  const idStart = (lookup.keyStarts[rank] ?? 0) + ID_PREFIX.length;
  if (
    !insert(lookup, idStart + ID_LENGTH + SLUG_PREFIX.length, lookup.slugEnds[rank] ?? 0, rank) ||
    !insert(lookup, idStart, idStart + ID_LENGTH, rank)
  ) {
    throw new ListingShapeError("two listings share a slug or an id.");
  }
}

/** The slug of the listing at `rank`. */
export function slugAt(store: Lookup, rank: number): string {
  return store.keys.toString("latin1", (store.keyStarts[rank] ?? 0) + SLUG_START, store.slugEnds[rank] ?? 0);
}

/** The rank of the listing whose slug, or lower-case id, is `identifier`. */
export function rankOf(store: Lookup, identifier: string): number | undefined {
  const { table, keys, keyStarts, slugEnds } = store;
  // UTF-8: a character outside ASCII never equals a slug's or an id's bytes.
  const key = Buffer.from(identifier, "utf8");
  const mask = table.length - 1;
  for (let slot = hashBytes(key, 0, key.length) & mask; ; slot = (slot + 1) & mask) {
    const entry = table[slot] ?? 0;
    if (entry === 0) return undefined;
    const rank = entry - 1;
    const start = keyStarts[rank] ?? 0;
    const idStart = start + ID_PREFIX.length;
    if (
      keyAt(key, 0, key.length, keys, start + SLUG_START, slugEnds[rank] ?? 0) ||
      keyAt(key, 0, key.length, keys, idStart, idStart + ID_LENGTH)
    )
      return rank;
  }
}
