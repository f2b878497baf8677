import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, read, readSync } from "node:fs";
import { promisify } from "node:util";
import { RankCache } from "./rank-cache.ts";

/**
 * The listings as the server holds them: businesses.ndjson, one listing per line in rank order,
 * with where each line starts and a hash table from slug and id to rank. No listing becomes a
 * JavaScript object or string until a page needs its fields: at 1,000,000 listings a Map of
 * 2,000,000 identifier strings alone took more memory than the index.
 *
 * The file's bytes are held whole when they are small enough (`listingStore`), and otherwise read
 * from the file per request (`listingStoreOnDisk`): then only each line's start, id and slug stay
 * in memory, about a ninth of the bytes, and the operating system's page cache, which replicas on
 * one host share and which it may reclaim, holds the rest.
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

/** businesses.ndjson could not be read, or no longer holds what was loaded (replaced in place). */
export class ListingReadError extends Error {}

/** The listings held whole, or read from their file per request. */
export type ListingStore = HeldListings | ListingsOnDisk;

interface HeldListings extends Lookups {
  /** businesses.ndjson as read. */
  readonly bytes: Buffer;
  readonly file: null;
}

interface ListingsOnDisk extends Lookups {
  readonly bytes: null;
  readonly file: ListingFile;
}

/** businesses.ndjson open for reading, the lines read from it lately, and who still needs it open. */
interface ListingFile {
  readonly fd: number;
  readonly recent: RecentLines;
  /** Streams reading the file now (bulk downloads): a retired store closes its file when the last one ends. */
  streams: number;
  /** Its snapshot has been replaced: the file closes as soon as no stream reads it. */
  retired: boolean;
  /** Closed: any later read is refused rather than made on a descriptor number the system may have given to another file. */
  closed: boolean;
}

interface Lookups extends Lookup {
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

/** Whether `key` is bytes start..end of `bytes`. */
function keyAt(key: Buffer, bytes: Buffer, start: number, end: number): boolean {
  return key.compare(bytes, start, end) === 0;
}

/** The slug and id lookup, filled line by line. */
interface Lookup {
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

function tableFor(count: number): Uint32Array {
  let size = 1;
  while (size < count * 4) size *= 2;
  return new Uint32Array(size);
}

/** Adds key bytes start..end of listing `rank`; false when an earlier listing has that key as its slug or id. */
function insert({ keys, keyStarts, slugEnds, table }: Lookup, start: number, end: number, rank: number): boolean {
  const mask = table.length - 1;
  const key = keys.subarray(start, end);
  let slot = hashBytes(keys, start, end) & mask;
  for (let entry = table[slot] ?? 0; entry !== 0; entry = table[slot] ?? 0) {
    const other = entry - 1;
    const otherId = (keyStarts[other] ?? 0) + ID_PREFIX.length;
    if (
      other !== rank &&
      (keyAt(key, keys, otherId + ID_LENGTH + SLUG_PREFIX.length, slugEnds[other] ?? 0) || keyAt(key, keys, otherId, otherId + ID_LENGTH))
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
function slugEndOf(bytes: Buffer, start: number, end: number, rank: number): number {
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
function enter(lookup: Lookup, rank: number): void {
  const idStart = (lookup.keyStarts[rank] ?? 0) + ID_PREFIX.length;
  if (
    !insert(lookup, idStart + ID_LENGTH + SLUG_PREFIX.length, lookup.slugEnds[rank] ?? 0, rank) ||
    !insert(lookup, idStart, idStart + ID_LENGTH, rank)
  ) {
    throw new ListingShapeError("two listings share a slug or an id.");
  }
}

/**
 * Reads the lines of `bytes`, held whole: exactly `count`, each of the expected shape, no two
 * sharing a slug or an id; builds the lookup table.
 */
export function listingStore(bytes: Buffer, count: number): ListingStore {
  const lineStarts = new Uint32Array(count + 1);
  const lookup: Lookup = { keys: bytes, keyStarts: lineStarts, slugEnds: new Uint32Array(count), table: tableFor(count) };
  let position = 0;
  for (let rank = 0; rank < count; rank += 1) {
    lineStarts[rank] = position;
    const end = bytes.indexOf(NEWLINE, position);
    if (end < 0) throw new ListingShapeError(`businesses.ndjson holds ${rank} listings, the index ${count}.`);
    lookup.slugEnds[rank] = slugEndOf(bytes, position, end, rank);
    enter(lookup, rank);
    position = end + 1;
  }
  if (position !== bytes.length) throw new ListingShapeError(`businesses.ndjson holds more listings than the index's ${count}.`);
  lineStarts[count] = position;
  return { count, bytes, file: null, lineStarts, ...lookup };
}

/** The memory the lines read from disk may keep, in bytes: listings asked for often are read once. */
const RECENT_LINE_BYTES = 32 * 2 ** 20;
/** Lines are kept in chunks of this many bytes, cut in order. */
const RECENT_CHUNK_BYTES = 2 ** 20;

/**
 * Lines read from disk, kept by rank (see RankCache). Each is a view of a chunk that is never
 * written again, so a line still being sent is never overwritten.
 */
export class RecentLines {
  readonly #byRank: RankCache;
  #chunk = Buffer.allocUnsafeSlow(0);
  #used = 0;

  constructor(count: number, maxBytes = RECENT_LINE_BYTES) {
    this.#byRank = new RankCache(count, maxBytes);
  }

  get(rank: number): Buffer | undefined {
    return this.#byRank.get(rank);
  }

  /** Room for `length` bytes, to be read into and then kept with `keep`. */
  room(length: number): Buffer {
    if (length > RECENT_CHUNK_BYTES) return Buffer.allocUnsafeSlow(length);
    if (this.#used + length > this.#chunk.length) {
      this.#chunk = Buffer.allocUnsafeSlow(RECENT_CHUNK_BYTES);
      this.#used = 0;
    }
    return this.#chunk.subarray(this.#used, this.#used + length);
  }

  /** Keeps the first `length` bytes of `room` (which `room` gave) as the line of listing `rank`; returns them. */
  keep(rank: number, room: Buffer, length: number): Buffer {
    if (room.buffer === this.#chunk.buffer) this.#used += room.length;
    return this.#byRank.set(rank, room.subarray(0, length));
  }
}

/** Closes the file of a store read from disk once nothing holds the store (a replaced snapshot). */
const openFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/**
 * Closes the file of a store read from disk that is not going to be used (its snapshot was
 * refused), rather than wait for it to be collected.
 */
export function closeListingStore(store: ListingStore): void {
  const { file } = store;
  if (file === null || file.closed) return;
  file.closed = true;
  openFiles.unregister(store);
  closeSync(file.fd);
}

/**
 * The store's snapshot has been replaced. Its file (and the disk space of a file the build has
 * since deleted) is given back now, or when the last stream reading it ends (see
 * holdListingFile), not whenever V8 happens to collect the store. Requests read a store
 * synchronously, within the tick in which they took the current snapshot, so only streams can
 * still be reading it.
 */
export function retireListingStore(store: ListingStore): void {
  if (store.file === null) return;
  store.file.retired = true;
  if (store.file.streams === 0) closeListingStore(store);
}

/** Keeps the store's file open for a stream reading it; call the function returned, once, when the stream has ended or been destroyed. */
export function holdListingFile(store: ListingStore): () => void {
  const { file } = store;
  if (file === null) return () => {};
  file.streams += 1;
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    file.streams -= 1;
    if (file.retired && file.streams === 0) closeListingStore(store);
  };
}

/** The file's descriptor; refuses a closed file. */
function descriptor(file: ListingFile): number {
  if (file.closed) throw new ListingReadError("businesses.ndjson was closed: a newer snapshot replaced this one.");
  return file.fd;
}

const readAt = promisify(read);

/**
 * Reads the lines of the file at `path` a chunk at a time, as `listingStore` reads them, and
 * keeps the file open to read each line when it is asked for. Resolves with the store and the
 * SHA-256 of the bytes it read, which the caller compares with the manifest's.
 */
export async function listingStoreOnDisk(
  path: string,
  count: number,
  chunkBytes = 1024 * 1024,
): Promise<{ store: ListingStore; sha256: string }> {
  const fd = openSync(path, "r");
  try {
    const lineStarts = new Uint32Array(count + 1);
    const keyStarts = new Uint32Array(count + 1);
    const slugEnds = new Uint32Array(count);
    // A line's key bytes (its id and slug, with what comes between) are about a ninth of it.
    let keys = Buffer.allocUnsafeSlow(Math.max(1024, count * 96));
    const table = tableFor(count);
    let lookup: Lookup = { keys, keyStarts, slugEnds, table };
    const hash = createHash("sha256");
    let buffer = Buffer.allocUnsafeSlow(chunkBytes);
    // The file offset of buffer[0], and how much of the buffer holds unscanned bytes.
    let base = 0;
    let filled = 0;
    let keyEnd = 0;
    let rank = 0;
    for (;;) {
      if (filled === buffer.length) {
        // One line longer than the buffer: make room for it.
        const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
        buffer.copy(larger, 0, 0, filled);
        buffer = larger;
      }
      const { bytesRead } = await readAt(fd, buffer, filled, buffer.length - filled, base + filled);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(filled, filled + bytesRead));
      filled += bytesRead;
      let position = 0;
      for (let end = buffer.indexOf(NEWLINE, position); end >= 0 && end < filled; end = buffer.indexOf(NEWLINE, position)) {
        if (rank === count) throw new ListingShapeError(`businesses.ndjson holds more listings than the index's ${count}.`);
        const slugEnd = slugEndOf(buffer, position, end, rank);
        const length = slugEnd - position;
        if (keyEnd + length > keys.length) {
          const larger = Buffer.allocUnsafeSlow(Math.max(keys.length * 2, keyEnd + length));
          keys.copy(larger, 0, 0, keyEnd);
          keys = larger;
          lookup = { keys, keyStarts, slugEnds, table };
        }
        buffer.copy(keys, keyEnd, position, slugEnd);
        lineStarts[rank] = base + position;
        keyStarts[rank] = keyEnd;
        slugEnds[rank] = keyEnd + length;
        keyEnd += length;
        enter(lookup, rank);
        rank += 1;
        position = end + 1;
      }
      buffer.copy(buffer, 0, position, filled);
      base += position;
      filled -= position;
    }
    if (rank < count || filled > 0) throw new ListingShapeError(`businesses.ndjson holds ${rank} listings, the index ${count}.`);
    lineStarts[count] = base;
    keyStarts[count] = keyEnd;
    // The keys' buffer is kept when the estimate was close (a second one would stay resident until
    // V8 next collects the first); one grown past it, up to twice too long, is copied.
    let exact = keys.subarray(0, keyEnd);
    if (keys.length - keyEnd > keys.length / 8) {
      exact = Buffer.allocUnsafeSlow(keyEnd);
      keys.copy(exact, 0, 0, keyEnd);
    }
    const store: ListingsOnDisk = {
      count,
      bytes: null,
      file: { fd, recent: new RecentLines(count), streams: 0, retired: false, closed: false },
      lineStarts,
      keys: exact,
      keyStarts,
      slugEnds,
      table,
    };
    openFiles.register(store, fd, store);
    return { store, sha256: hash.digest("hex") };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The slug of the listing at `rank`. */
export function slugAt(store: ListingStore, rank: number): string {
  return store.keys.toString("latin1", (store.keyStarts[rank] ?? 0) + SLUG_START, store.slugEnds[rank] ?? 0);
}

/** The rank of the listing whose slug, or lower-case id, is `identifier`. */
export function rankOf(store: ListingStore, identifier: string): number | undefined {
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
    if (keyAt(key, keys, start + SLUG_START, slugEnds[rank] ?? 0) || keyAt(key, keys, idStart, idStart + ID_LENGTH)) return rank;
  }
}

/** The length of the line of listing `rank`, without its newline. */
export function lineLength(store: ListingStore, rank: number): number {
  return (store.lineStarts[rank + 1] ?? 0) - 1 - (store.lineStarts[rank] ?? 0);
}

/** What a failed read of the file throws. */
function unreadable(error: unknown): ListingReadError {
  return new ListingReadError(`businesses.ndjson cannot be read: ${(error as Error).message}`);
}

/** Throws unless a read gave every byte asked for. */
function wholeRead(bytesRead: number, wanted: number): void {
  if (bytesRead !== wanted) throw new ListingReadError("businesses.ndjson is shorter than when it was loaded.");
}

/**
 * The line of listing `rank` without its newline: a view of the held bytes, or of a line read
 * from disk and kept. Read from disk, the line must still start with the id and slug loaded and
 * end where it ended: a file changed in place (not replaced as the build replaces dist/) is
 * refused rather than served unchecked, as far as those bytes tell.
 */
export function lineAt(store: ListingStore, rank: number): Buffer {
  const start = store.lineStarts[rank] ?? 0;
  const end = (store.lineStarts[rank + 1] ?? 1) - 1;
  if (store.bytes !== null) return store.bytes.subarray(start, end);
  const { recent } = store.file;
  const kept = recent.get(rank);
  if (kept !== undefined) return kept;
  const fd = descriptor(store.file);
  const length = end - start;
  // The line and its newline.
  const room = recent.room(length + 1);
  let bytesRead: number;
  try {
    bytesRead = readSync(fd, room, 0, length + 1, start);
  } catch (error) {
    throw unreadable(error);
  }
  wholeRead(bytesRead, length + 1);
  const keyStart = store.keyStarts[rank] ?? 0;
  const keyLength = (store.slugEnds[rank] ?? 0) - keyStart;
  if (room[length] !== NEWLINE || room.compare(store.keys, keyStart, keyStart + keyLength, 0, keyLength) !== 0) {
    throw new ListingReadError("businesses.ndjson has changed since it was loaded.");
  }
  return recent.keep(rank, room, length);
}

/** Copies the line of listing `rank` (without its newline) into `target` at `at`; returns its length. */
export function copyLine(store: ListingStore, rank: number, target: Buffer, at: number): number {
  if (store.bytes !== null) return store.bytes.copy(target, at, store.lineStarts[rank] ?? 0, (store.lineStarts[rank + 1] ?? 1) - 1);
  return lineAt(store, rank).copy(target, at);
}

/** Throws ListingReadError when a store read from disk no longer finds its file the length it loaded. */
export function checkListingFile(store: ListingStore): void {
  if (store.file === null) return;
  const fd = descriptor(store.file);
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (error) {
    throw unreadable(error);
  }
  if (size !== store.lineStarts[store.count]) throw new ListingReadError("businesses.ndjson has changed since it was loaded.");
}

/**
 * Bytes start..end of businesses.ndjson, for the bulk downloads: a view of the held bytes, or
 * read from disk without holding the event loop.
 */
export async function bytesAt(store: ListingStore, start: number, end: number): Promise<Buffer> {
  if (store.bytes !== null) return store.bytes.subarray(start, end);
  const fd = descriptor(store.file);
  const bytes = Buffer.allocUnsafe(end - start);
  let bytesRead: number;
  try {
    ({ bytesRead } = await readAt(fd, bytes, 0, end - start, start));
  } catch (error) {
    throw unreadable(error);
  }
  wholeRead(bytesRead, end - start);
  return bytes;
}
