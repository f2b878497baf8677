import type MiniSearch from "minisearch";
import type SearchableMap from "minisearch/SearchableMap";
import type { SiteInfo } from "../schemas/content.ts";
import type { Offering } from "../schemas/offering.ts";
import type { DirectoryIndex } from "./directory-index.ts";
import type { Manifest } from "./files.ts";
import type { ListingStore } from "./listings.ts";
import type { Releases } from "./releases.ts";
import type { OfferingIndexDocument } from "./search-index.ts";

/** The offerings catalog, in catalog order, with its search index. */
export interface Catalog {
  readonly offerings: readonly Offering[];
  readonly index: MiniSearch<OfferingIndexDocument>;
}

/**
 * Approved public listings in directory order (interface §4), held as their JSON bytes and an
 * index: a listing is parsed only when a page needs its fields.
 */
export interface Directory {
  readonly index: DirectoryIndex;
  /** The listings' bytes, line starts and slug and id lookup. */
  readonly listings: ListingStore;
  /** Term index by term: the prefix lookup of q's words. */
  readonly terms: SearchableMap<number>;
  /** Index in `index.countries` by country code. */
  readonly countryIndex: ReadonlyMap<string, number>;
}

/** Everything the server answers from, loaded once per snapshot and never changed. */
export interface Snapshot {
  readonly manifest: Manifest;
  /** The site's name, summary, operator, contact details and base URL. */
  readonly site: SiteInfo;
  readonly catalog: Catalog;
  /** Null when the directory data is missing or invalid: its endpoints answer 503. */
  readonly directory: Directory | null;
  /** Why the directory is unavailable, for the log. */
  readonly directoryProblem: string | null;
  /** The OpenAPI document as written by the build. */
  readonly openapi: string;
  /** The MCP App's HTML document as written by the build. */
  readonly mcpApp: string;
  /** The documents the manifest lists, by URL path (`/llms.txt`, `/offerings/x/index.md`). */
  readonly pages: ReadonlyMap<string, string>;
  /** The release history (interface §8): releases.json, and where its changes files are read on request. */
  readonly releases: Releases;
}
