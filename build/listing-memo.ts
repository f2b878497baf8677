import type { PublicBusiness } from "../src/schemas/business.ts";

/**
 * What a series of builds in one process (`npm run dev`) remembers of each listing beyond the
 * cache (build/cache.ts, which keeps its own warnings): its public record and that record's JSON
 * line. At 100,000 listings, making them again for every listing took about 1 s of each build.
 * It also keeps the last build's names in directory order, for the next to start from.
 *
 * Each is remembered by the listing's parsed front matter, the object itself: a file unchanged
 * since the previous build is read from the cache as the very same object (BuildCache.next keeps
 * the entries of unchanged files as they are), and a file that changed is parsed into a new one.
 * The same object is the same file (its path, front matter and body), so what was made of it is
 * what would be made again. The maps are weak: what no build reads any more is forgotten with it.
 *
 * `npm run build` has none: in a process that builds once it would only hold every line until
 * the build ends.
 */
export class ListingMemo {
  readonly #businesses = new WeakMap<object, { readonly baseUrl: string; readonly business: PublicBusiness }>();
  readonly #lines = new WeakMap<PublicBusiness, string>();
  /** The distinct names of the last build's approved listings, in directory order (build/derive.ts). */
  sortedNames: readonly string[] | null = null;

  /** The listing's public record for `baseUrl`, as `make` makes it from its front matter `data`. */
  business(data: object, baseUrl: string, make: () => PublicBusiness): PublicBusiness {
    const known = this.#businesses.get(data);
    if (known !== undefined && known.baseUrl === baseUrl) return known.business;
    const business = make();
    this.#businesses.set(data, { baseUrl, business });
    return business;
  }

  /** The public record's JSON line (a line of businesses.ndjson). */
  line(business: PublicBusiness): string {
    let line = this.#lines.get(business);
    if (line === undefined) {
      line = JSON.stringify(business);
      this.#lines.set(business, line);
    }
    return line;
  }
}
