import { LRUCache } from "lru-cache";
import { DIRECTORY_DEFAULT_LIMIT } from "../contract.ts";
import type { PublicBusiness } from "../schemas/business.ts";
import type { Offering } from "../schemas/offering.ts";
import type { DirectorySearchQuery } from "../schemas/parameters.ts";
import type { DirectoryPage, OfferingList } from "../schemas/responses.ts";
import type { Directory, Snapshot } from "../snapshot/types.ts";
import { type Answer, answer, answerSize } from "./answer.ts";
import { searchOfferings } from "./catalog.ts";
import { directorySearchKey, findBusiness, searchDirectory } from "./directory.ts";
import { businessNotFound, directoryUnavailable, offeringNotFound } from "./errors.ts";

export interface ServiceOptions {
  /** The snapshot to answer from; called per request so a reloaded snapshot takes effect at once. */
  snapshot: () => Snapshot;
  /** Lifetime of cached search results; 0 turns the cache off. */
  cacheSeconds: number;
}

/**
 * The result cache's bounds: entries and bytes (see answerSize; a page of 25 listings is about
 * 30 KB of JSON). Expired entries stay until evicted, so both bounds hold whatever clients ask.
 */
const RESULT_CACHE_ENTRIES = 10_000;
const RESULT_CACHE_BYTES = 64 * 2 ** 20;
/** Single-listing answers kept per snapshot: a large directory's every listing would not fit. */
const BUSINESS_ANSWER_ENTRIES = 20_000;
const BUSINESS_ANSWER_BYTES = 32 * 2 ** 20;

/** The answers that depend only on the snapshot, made once for it. */
class SnapshotAnswers {
  readonly snapshot: Snapshot;
  /** The whole catalog (GET /api/offerings without q). */
  readonly catalog: Answer<OfferingList>;
  readonly offerings: ReadonlyMap<string, Answer<Offering>>;
  /** Listings by slug, made on first read: a directory can be too large to serialise up front. */
  readonly businesses = new LRUCache<string, Answer<PublicBusiness>>({
    max: BUSINESS_ANSWER_ENTRIES,
    maxSize: BUSINESS_ANSWER_BYTES,
    sizeCalculation: answerSize,
  });

  constructor(snapshot: Snapshot) {
    this.snapshot = snapshot;
    const offerings = snapshot.catalog.offerings;
    this.catalog = answer({ items: [...offerings], total: offerings.length });
    this.offerings = new Map(offerings.map((offering) => [offering.slug, answer(offering)]));
  }
}

/**
 * What REST, pages and MCP all call: searches and lookups over the current snapshot, answered
 * serialised (see Answer). Answers that depend only on the snapshot are made once for it;
 * search results are kept by the result cache. Inputs are already validated; failures throw
 * ApiError.
 */
export class CatalogService {
  readonly #snapshot: () => Snapshot;
  readonly #cache: LRUCache<string, Answer<DirectoryPage | OfferingList>> | null;
  #answers: SnapshotAnswers | null = null;

  constructor({ snapshot, cacheSeconds }: ServiceOptions) {
    this.#snapshot = snapshot;
    this.#cache =
      cacheSeconds > 0
        ? new LRUCache<string, Answer<DirectoryPage | OfferingList>>({
            max: RESULT_CACHE_ENTRIES,
            maxSize: RESULT_CACHE_BYTES,
            sizeCalculation: answerSize,
            ttl: cacheSeconds * 1000,
          })
        : null;
  }

  /** The answers of the current snapshot; when the snapshot has changed, everything kept for the old one is dropped. */
  #current(): SnapshotAnswers {
    const snapshot = this.#snapshot();
    if (this.#answers?.snapshot !== snapshot) {
      this.#cache?.clear();
      this.#answers = new SnapshotAnswers(snapshot);
    }
    return this.#answers;
  }

  /** The current snapshot. */
  current(): Snapshot {
    return this.#current().snapshot;
  }

  #directory(): Directory {
    const directory = this.current().directory;
    if (directory === null) throw directoryUnavailable();
    return directory;
  }

  #cached<T extends DirectoryPage | OfferingList>(key: string, compute: () => T): Answer<T> {
    if (this.#cache === null) return answer(compute());
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit as Answer<T>;
    const value = answer(compute());
    this.#cache.set(key, value);
    return value;
  }

  searchBusinesses(query: DirectorySearchQuery): Answer<DirectoryPage> {
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

  getBusiness(identifier: string): Answer<PublicBusiness> {
    const business = findBusiness(this.#directory(), identifier);
    if (business === undefined) throw businessNotFound();
    const { businesses } = this.#current();
    let found = businesses.get(business.slug);
    if (found === undefined) {
      found = answer(business);
      businesses.set(business.slug, found);
    }
    return found;
  }

  searchOfferings(q: string | undefined): Answer<OfferingList> {
    const answers = this.#current();
    if (q === undefined) return answers.catalog;
    return this.#cached(`offerings:${JSON.stringify(q)}`, () => {
      const items = searchOfferings(answers.snapshot.catalog, q);
      return { items, total: items.length };
    });
  }

  getOffering(slug: string): Answer<Offering> {
    const found = this.#current().offerings.get(slug);
    if (found === undefined) throw offeringNotFound();
    return found;
  }
}
