import type MiniSearch from "minisearch";
import type { PublicBusiness } from "../schemas/business.ts";
import type { SiteInfo } from "../schemas/content.ts";
import type { Offering } from "../schemas/offering.ts";
import type { Manifest } from "./files.ts";
import type { BusinessIndexDocument, OfferingIndexDocument } from "./search-index.ts";

/** The offerings catalog, in catalog order, with its search index. */
export interface Catalog {
  readonly offerings: readonly Offering[];
  readonly index: MiniSearch<OfferingIndexDocument>;
}

/** Approved public listings in directory order (contract §4), with lookups and search index. */
export interface Directory {
  readonly businesses: readonly PublicBusiness[];
  readonly byIdentifier: ReadonlyMap<string, PublicBusiness>;
  /** Folded `city\nregion\npostalCode` per business, for location substring matching. */
  readonly locationKeys: readonly string[];
  readonly index: MiniSearch<BusinessIndexDocument>;
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
  /** Every document the build wrote beside the data, by URL path (`/llms.txt`, `/offerings/x/index.md`). */
  readonly pages: ReadonlyMap<string, string>;
}
