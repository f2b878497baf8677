import { LRUCache } from "lru-cache";

/**
 * Buffers kept by listing rank in an LRU cache bounded by their bytes: a listing asked for often
 * is made once. MCP's escaped listings (src/core/service.ts) and the lines read from disk
 * (recent-lines.ts) are kept this way.
 */
export class RankCache {
  readonly #cache: LRUCache<number, Buffer>;

  constructor(maxBytes: number) {
    this.#cache = new LRUCache<number, Buffer>({ maxSize: maxBytes, sizeCalculation: (value) => value.length });
  }

  get(rank: number): Buffer | undefined {
    return this.#cache.get(rank);
  }

  /** Keeps `value` for `rank`; returns it. */
  set(rank: number, value: Buffer): Buffer {
    this.#cache.set(rank, value);
    return value;
  }
}
