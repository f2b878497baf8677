import { LRUCache } from "lru-cache";
import type { Part } from "../snapshot/view.ts";
import { compact } from "./slab.ts";

/**
 * The answer cache (interface §7): every successful answer that depends on a query (a search,
 * its facets, a directory page, an MCP tool result) kept as the bytes it was sent as, with what
 * its representation sends beside them, for CACHE_SECONDS. It is a part of the snapshot's view
 * (src/snapshot/view.ts): a new snapshot starts with an empty one. Keys name the representation
 * and exactly what the answer depends on; errors are never kept (nothing here sees them).
 */

/** An answer as it is sent: its bytes, and the name and value pairs its representation sends with them. */
export interface Kept {
  readonly body: Buffer;
  readonly headers: readonly (readonly [name: string, value: string])[];
}

/** Counts of every view's cache since start, read by the metrics (src/metrics.ts). */
export class AnswerCacheStats {
  hits = 0;
  misses = 0;
  /** The cache of the view served now; its bytes are the cache's size. */
  current: AnswerCache | null = null;

  /** The bytes the cache of the view served now holds (see keptBytes). */
  get bytes(): number {
    return this.current?.bytes ?? 0;
  }
}

export interface AnswerCacheSettings {
  /** How long an answer is kept, in seconds (CACHE_SECONDS); 0 turns the cache off. */
  readonly seconds: number;
  /** The most the cache holds, in bytes (see keptBytes). */
  readonly maxBytes: number;
  readonly stats: AnswerCacheStats;
}

/** What an entry costs besides its body: the key, the header pairs, the cache's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 256;

/** Roughly the memory a kept answer holds: its bytes, its key and headers (two bytes a character), and a fixed overhead. */
function keptBytes(kept: Kept, key: string): number {
  let size = kept.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
  for (const [name, value] of kept.headers) size += (name.length + value.length) * 2;
  return size;
}

export class AnswerCache {
  readonly #entries: LRUCache<string, Kept>;
  readonly #stats: AnswerCacheStats;

  constructor({ seconds, maxBytes, stats }: AnswerCacheSettings) {
    // Bounded in bytes alone: expired entries stay until evicted, so the bound holds whatever clients ask.
    this.#entries = new LRUCache<string, Kept>({ maxSize: maxBytes, sizeCalculation: keptBytes, ttl: seconds * 1000 });
    this.#stats = stats;
  }

  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  /** The answer kept under `key`, if it is still fresh; counted as a hit or a miss. */
  find(key: string): Kept | undefined {
    const hit = this.#entries.get(key);
    if (hit === undefined) this.#stats.misses += 1;
    else this.#stats.hits += 1;
    return hit;
  }

  /** Keeps `made` under `key` (only ever a successful answer); returns what is kept. */
  keep(key: string, made: Kept): Kept {
    // Kept for up to CACHE_SECONDS: its body must not hold a whole slab (see slab.ts).
    const kept = { body: compact(made.body), headers: made.headers };
    this.#entries.set(key, kept);
    return kept;
  }
}

/** The view's answer cache, or none when CACHE_SECONDS is 0; each view's is told to `stats` as it is made. */
export function answerCachePart(settings: AnswerCacheSettings): Part<AnswerCache | null> {
  return {
    name: "answer cache",
    make: () => {
      if (settings.seconds <= 0) return null;
      const cache = new AnswerCache(settings);
      settings.stats.current = cache;
      return cache;
    },
  };
}

/**
 * The answer kept under `key` in `cache`, or made by `make` (and kept, when there is a cache).
 * `make` answers or throws: an error is never kept.
 */
export function kept(cache: AnswerCache | null, key: string, make: () => Kept): Kept {
  if (cache === null) return make();
  return cache.find(key) ?? cache.keep(key, make());
}

/** kept, for an answer made asynchronously (read from a file): the same keys, the same rules. */
export async function keptLater(cache: AnswerCache | null, key: string, make: () => Promise<Kept>): Promise<Kept> {
  const hit = cache?.find(key);
  if (hit !== undefined) return hit;
  const made = await make();
  return cache === null ? made : cache.keep(key, made);
}
