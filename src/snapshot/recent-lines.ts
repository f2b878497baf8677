import { RankCache } from "./rank-cache.ts";

/** The memory the lines read from disk may keep, in bytes: listings asked for often are read once. */
const RECENT_LINE_BYTES = 32 * 2 ** 20;

/**
 * Lines read from disk (listings-on-disk.ts), kept by rank (see RankCache). Each is read into
 * memory of its own, so a line still being sent is never written over, and one kept for long
 * holds no other's memory.
 */
export class RecentLines {
  readonly #byRank: RankCache;

  constructor(maxBytes = RECENT_LINE_BYTES) {
    this.#byRank = new RankCache(maxBytes);
  }

  get(rank: number): Buffer | undefined {
    return this.#byRank.get(rank);
  }

  /** Room for `length` bytes, to be read into and then kept with `keep`. */
  room(length: number): Buffer {
    return Buffer.allocUnsafeSlow(length);
  }

  /** Keeps the first `length` bytes of `room` (which `room` gave) as the line of listing `rank`; returns them. */
  keep(rank: number, room: Buffer, length: number): Buffer {
    return this.#byRank.set(rank, room.subarray(0, length));
  }
}
