/**
 * The listings as the server holds them: businesses.ndjson's bytes, one listing per line in
 * rank order, with where each line starts and a hash table from slug and id to rank. No listing
 * becomes a JavaScript object or string until a page needs its fields: at 1,000,000 listings a
 * Map of 2,000,000 identifier strings alone took more memory than the index.
 *
 * Every line starts `{"id":"<uuid>","slug":"<slug>",` (the build writes PublicBusiness fields in
 * schema order, and the loader checks each line), so a listing's id and slug are found by
 * position, without parsing.
 */

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const ID_PREFIX = Buffer.from('{"id":"');
const ID_LENGTH = 36;
const SLUG_PREFIX = Buffer.from('","slug":"');
const SLUG_START = ID_PREFIX.length + ID_LENGTH + SLUG_PREFIX.length;

/** A line of businesses.ndjson that does not have the shape the store relies on. */
export class ListingShapeError extends Error {}

export interface ListingStore {
  readonly count: number;
  /** businesses.ndjson as read. */
  readonly bytes: Buffer;
  /** Line `rank` is bytes lineStarts[rank] .. lineStarts[rank + 1] - 1 (its newline excluded). */
  readonly lineStarts: Uint32Array;
  /** Where each line's slug ends (its closing quote). */
  readonly slugEnds: Uint32Array;
  /** Open addressing: rank + 1 of the listing whose slug or id hashes here, 0 when empty; length a power of two. */
  readonly table: Uint32Array;
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

/** Whether `key` is bytes start..end of `bytes`. */
function keyAt(key: Buffer, bytes: Buffer, start: number, end: number): boolean {
  return key.compare(bytes, start, end) === 0;
}

/** Adds key bytes start..end of listing `rank`; false when an earlier listing has that key as its slug or id. */
function insert(
  bytes: Buffer,
  lineStarts: Uint32Array,
  slugEnds: Uint32Array,
  table: Uint32Array,
  start: number,
  end: number,
  rank: number,
): boolean {
  const mask = table.length - 1;
  const key = bytes.subarray(start, end);
  let slot = hashBytes(bytes, start, end) & mask;
  for (let entry = table[slot] ?? 0; entry !== 0; entry = table[slot] ?? 0) {
    const other = entry - 1;
    const otherId = (lineStarts[other] ?? 0) + ID_PREFIX.length;
    if (
      other !== rank &&
      (keyAt(key, bytes, otherId + ID_LENGTH + SLUG_PREFIX.length, slugEnds[other] ?? 0) || keyAt(key, bytes, otherId, otherId + ID_LENGTH))
    ) {
      return false;
    }
    slot = (slot + 1) & mask;
  }
  table[slot] = rank + 1;
  return true;
}

/**
 * Reads the lines of `bytes`: exactly `count`, each of the expected shape, no two sharing a slug
 * or an id; builds the lookup table.
 */
export function listingStore(bytes: Buffer, count: number): ListingStore {
  const lineStarts = new Uint32Array(count + 1);
  const slugEnds = new Uint32Array(count);
  let size = 1;
  while (size < count * 4) size *= 2;
  const table = new Uint32Array(size);
  let position = 0;
  for (let rank = 0; rank < count; rank += 1) {
    lineStarts[rank] = position;
    const end = bytes.indexOf(NEWLINE, position);
    if (end < 0) throw new ListingShapeError(`businesses.ndjson holds ${rank} listings, the index ${count}.`);
    const idStart = position + ID_PREFIX.length;
    const slugStart = position + SLUG_START;
    const slugEnd = bytes.indexOf(QUOTE, slugStart);
    if (
      end - position <= SLUG_START ||
      bytes.compare(ID_PREFIX, 0, ID_PREFIX.length, position, idStart) !== 0 ||
      bytes.compare(SLUG_PREFIX, 0, SLUG_PREFIX.length, idStart + ID_LENGTH, slugStart) !== 0 ||
      slugEnd < 0 ||
      slugEnd >= end
    ) {
      throw new ListingShapeError(`listing ${rank + 1} of businesses.ndjson does not start with its id and slug.`);
    }
    slugEnds[rank] = slugEnd;
    if (
      !insert(bytes, lineStarts, slugEnds, table, slugStart, slugEnd, rank) ||
      !insert(bytes, lineStarts, slugEnds, table, idStart, idStart + ID_LENGTH, rank)
    ) {
      throw new ListingShapeError("two listings share a slug or an id.");
    }
    position = end + 1;
  }
  if (position !== bytes.length) throw new ListingShapeError(`businesses.ndjson holds more listings than the index's ${count}.`);
  lineStarts[count] = position;
  return { count, bytes, lineStarts, slugEnds, table };
}

/** The slug of the listing at `rank`. */
export function slugAt(store: ListingStore, rank: number): string {
  return store.bytes.toString("latin1", (store.lineStarts[rank] ?? 0) + SLUG_START, store.slugEnds[rank] ?? 0);
}

/** The rank of the listing whose slug, or lower-case id, is `identifier`. */
export function rankOf(store: ListingStore, identifier: string): number | undefined {
  const { table, bytes, lineStarts, slugEnds } = store;
  // UTF-8: a character outside ASCII never equals a slug's or an id's bytes.
  const key = Buffer.from(identifier, "utf8");
  const mask = table.length - 1;
  for (let slot = hashBytes(key, 0, key.length) & mask; ; slot = (slot + 1) & mask) {
    const entry = table[slot] ?? 0;
    if (entry === 0) return undefined;
    const rank = entry - 1;
    const start = lineStarts[rank] ?? 0;
    const idStart = start + ID_PREFIX.length;
    if (keyAt(key, bytes, start + SLUG_START, slugEnds[rank] ?? 0) || keyAt(key, bytes, idStart, idStart + ID_LENGTH)) return rank;
  }
}
