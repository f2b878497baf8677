import { enter, ListingShapeError, type Lookup, type Lookups, NEWLINE, slugEndOf, tableFor } from "./listing-lookup.ts";

/** businesses.ndjson held whole: each line and its key bytes are views of the one buffer read. */
export interface HeldListings extends Lookups {
  /** businesses.ndjson as read. */
  readonly bytes: Buffer;
  readonly file: null;
}

/**
 * Reads the lines of `bytes`, held whole: exactly `count`, each of the expected shape, no two
 * sharing a slug or an id; builds the lookup table.
 */
export function listingStore(bytes: Buffer, count: number): HeldListings {
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
