import { LRUCache } from "lru-cache";
import type { PublicBusiness } from "../schemas/business.ts";
import type { Offering } from "../schemas/offering.ts";
import { DIRECTORY_DEFAULT_LIMIT, type DirectorySearchQuery } from "../schemas/parameters.ts";
import type { DirectoryPage, OfferingList } from "../schemas/responses.ts";
import type { Directory, Snapshot } from "../snapshot/types.ts";
import { findOffering, searchOfferings } from "./catalog.ts";
import { directorySearchKey, findBusiness, searchDirectory } from "./directory.ts";
import { businessNotFound, directoryUnavailable, offeringNotFound } from "./errors.ts";

export interface ServiceOptions {
  /** The snapshot to answer from; called per request so a reloaded snapshot takes effect at once. */
  snapshot: () => Snapshot;
  /** Lifetime of cached search results; 0 turns the cache off. */
  cacheSeconds: number;
}

/**
 * What REST, pages and MCP all call: searches and lookups over the current snapshot, with the
 * service-side result cache. Inputs are already validated; failures throw ApiError.
 */
export class CatalogService {
  readonly #snapshot: () => Snapshot;
  readonly #cache: LRUCache<string, DirectoryPage | OfferingList> | null;
  #cachedFor: Snapshot | null = null;

  constructor({ snapshot, cacheSeconds }: ServiceOptions) {
    this.#snapshot = snapshot;
    this.#cache = cacheSeconds > 0 ? new LRUCache({ max: 5000, ttl: cacheSeconds * 1000 }) : null;
  }

  /** The current snapshot; cached results of an earlier snapshot are dropped. */
  current(): Snapshot {
    const snapshot = this.#snapshot();
    if (snapshot !== this.#cachedFor) {
      this.#cache?.clear();
      this.#cachedFor = snapshot;
    }
    return snapshot;
  }

  #directory(): Directory {
    const directory = this.current().directory;
    if (directory === null) throw directoryUnavailable();
    return directory;
  }

  #cached<T extends DirectoryPage | OfferingList>(key: string, compute: () => T): T {
    if (this.#cache === null) return compute();
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit as T;
    const value = compute();
    this.#cache.set(key, value);
    return value;
  }

  searchBusinesses(query: DirectorySearchQuery): DirectoryPage {
    const directory = this.#directory();
    const search = {
      q: query.q,
      location: query.location,
      country: query.country,
      limit: query.limit ?? DIRECTORY_DEFAULT_LIMIT,
      offset: query.offset ?? 0,
    };
    return this.#cached(`directory:${directorySearchKey(search)}`, () => searchDirectory(directory, search));
  }

  getBusiness(identifier: string): PublicBusiness {
    const business = findBusiness(this.#directory(), identifier);
    if (business === undefined) throw businessNotFound();
    return business;
  }

  searchOfferings(q: string | undefined): OfferingList {
    const catalog = this.current().catalog;
    return this.#cached(`offerings:${JSON.stringify(q ?? null)}`, () => {
      const items = searchOfferings(catalog, q);
      return { items, total: items.length };
    });
  }

  getOffering(slug: string): Offering {
    const offering = findOffering(this.current().catalog, slug);
    if (offering === undefined) throw offeringNotFound();
    return offering;
  }
}
