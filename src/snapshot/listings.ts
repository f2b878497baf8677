import type { HeldListings } from "./listings-in-memory.ts";
import { bytesFromFile, type ListingsOnDisk, lineFromFile } from "./listings-on-disk.ts";

/**
 * The listings as the server holds them: businesses.ndjson, one listing per line in rank order,
 * with where each line starts and a lookup from slug and id to rank (listing-lookup.ts). No
 * listing becomes a JavaScript object or string until a page needs its fields.
 *
 * The file's bytes are held whole when they are small enough (listings-in-memory.ts), and
 * otherwise read from the file per request (listings-on-disk.ts). Reading a line is the same
 * call for both.
 */

/** The listings held whole, or read from their file per request. */
export type ListingStore = HeldListings | ListingsOnDisk;

/** The length of the line of listing `rank`, without its newline. */
export function lineLength(store: ListingStore, rank: number): number {
  return (store.lineStarts[rank + 1] ?? 0) - 1 - (store.lineStarts[rank] ?? 0);
}

/** The line of listing `rank` without its newline: a view of the held bytes, or of a line read from disk and kept. */
export function lineAt(store: ListingStore, rank: number): Buffer {
  if (store.bytes !== null) return store.bytes.subarray(store.lineStarts[rank] ?? 0, (store.lineStarts[rank + 1] ?? 1) - 1);
  return lineFromFile(store, rank);
}

/** Copies the line of listing `rank` (without its newline) into `target` at `at`; returns its length. */
export function copyLine(store: ListingStore, rank: number, target: Buffer, at: number): number {
  if (store.bytes !== null) return store.bytes.copy(target, at, store.lineStarts[rank] ?? 0, (store.lineStarts[rank + 1] ?? 1) - 1);
  return lineAt(store, rank).copy(target, at);
}

/**
 * Bytes start..end of businesses.ndjson, for the bulk downloads: a view of the held bytes, or
 * read from disk without holding the event loop.
 */
export function bytesAt(store: ListingStore, start: number, end: number): Promise<Buffer> {
  return store.bytes !== null ? Promise.resolve(store.bytes.subarray(start, end)) : bytesFromFile(store, start, end);
}
