import { RankCache } from "./rank-cache.ts";

/** The memory the lines read from disk may keep, in bytes: listings asked for often are read once. */
const RECENT_LINE_BYTES = 32 * 2 ** 20;
/** Lines are kept in chunks of this many bytes, cut in order. */
const RECENT_CHUNK_BYTES = 2 ** 20;

/**
 * Lines read from disk (listings-on-disk.ts), kept by rank (see RankCache). Each is a view of a
 * chunk that is never written again, so a line still being sent is never overwritten.
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
