import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, read, readSync } from "node:fs";
import { promisify } from "node:util";
import { enter, ListingShapeError, type Lookup, type Lookups, NEWLINE, slugEndOf, tableFor } from "./listing-lookup.ts";
import { RecentLines } from "./recent-lines.ts";

/**
 * businesses.ndjson read from its file per request, when it is too large to hold whole: only each
 * line's start, id and slug stay in memory, about a ninth of the bytes, and the operating
 * system's page cache, which replicas on one host share and which it may reclaim, holds the rest.
 * The file stays open while the store may be read: until its snapshot is replaced and the last
 * bulk download reading it ends.
 */

/** businesses.ndjson could not be read, or no longer holds what was loaded (replaced in place). */
export class ListingReadError extends Error {}

export interface ListingsOnDisk extends Lookups {
  readonly bytes: null;
  readonly file: ListingFile;
}

/** A store of either form (listings.ts): one held whole has no file to check, hold or close. */
type EitherStore = Lookups & { readonly file: ListingFile | null };

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
export function closeListingStore(store: EitherStore): void {
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
export function retireListingStore(store: EitherStore): void {
  if (store.file === null) return;
  store.file.retired = true;
  if (store.file.streams === 0) closeListingStore(store);
}

/** Keeps the store's file open for a stream reading it; call the function returned, once, when the stream has ended or been destroyed. */
export function holdListingFile(store: EitherStore): () => void {
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
): Promise<{ store: ListingsOnDisk; sha256: string }> {
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

/** What a failed read of the file throws. */
function unreadable(error: unknown): ListingReadError {
  return new ListingReadError(`businesses.ndjson cannot be read: ${(error as Error).message}`);
}

/** Throws unless a read gave every byte asked for. */
function wholeRead(bytesRead: number, wanted: number): void {
  if (bytesRead !== wanted) throw new ListingReadError("businesses.ndjson is shorter than when it was loaded.");
}

/**
 * The line of listing `rank` without its newline, read from disk and kept. It must still start
 * with the id and slug loaded and end where it ended: a file changed in place (not replaced as
 * the build replaces dist/) is refused rather than served unchecked, as far as those bytes tell.
 */
export function lineFromFile(store: ListingsOnDisk, rank: number): Buffer {
  const start = store.lineStarts[rank] ?? 0;
  const end = (store.lineStarts[rank + 1] ?? 1) - 1;
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

/** Throws ListingReadError when a store read from disk no longer finds its file the length it loaded. */
export function checkListingFile(store: EitherStore): void {
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

/** Bytes start..end of businesses.ndjson read from disk, for the bulk downloads, without holding the event loop. */
export async function bytesFromFile(store: ListingsOnDisk, start: number, end: number): Promise<Buffer> {
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
