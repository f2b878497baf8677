/**
 * Buffers (or strings, a character counted as a byte) kept by listing rank, bounded by their
 * bytes, starting afresh when the next would pass the bound: an array lookup per listing instead
 * of an LRU's bookkeeping, on hot paths, and a listing asked for often is made again at most once
 * per bound's worth of others. MCP's escaped listings (src/core/answers.ts), the lines read from
 * disk (recent-lines.ts) and the directory page's cards (src/http/page-parts.ts) are kept
 * this way.
 */
export class RankCache<T extends Buffer | string = Buffer> {
  readonly #count: number;
  readonly #maxBytes: number;
  #byRank: (T | undefined)[];
  #bytes = 0;

  constructor(count: number, maxBytes: number) {
    this.#count = count;
    this.#maxBytes = maxBytes;
    this.#byRank = this.#empty();
  }

  /** One slot per listing, made at full length so that V8 keeps it a fast (holey) array. */
  #empty(): (T | undefined)[] {
    return new Array<T | undefined>(this.#count);
  }

  get(rank: number): T | undefined {
    return this.#byRank[rank];
  }

  /** Keeps `value` for `rank`; returns it. */
  set(rank: number, value: T): T {
    if (this.#bytes + value.length > this.#maxBytes) {
      this.#byRank = this.#empty();
      this.#bytes = 0;
    }
    this.#byRank[rank] = value;
    this.#bytes += value.length;
    return value;
  }
}
