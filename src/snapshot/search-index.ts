import type { Options } from "minisearch";
import { fold, words } from "./text.ts";

/**
 * MiniSearch options shared by the build (which serialises the indexes) and the server
 * (which loads them). A serialised index must be loaded with the options it was built with;
 * bump INDEX_FORMAT_VERSION whenever these change so a stale snapshot is refused.
 */
export const INDEX_FORMAT_VERSION = 1;

const common = {
  idField: "id",
  tokenize: words,
  processTerm: (term: string) => fold(term) || null,
  searchOptions: { prefix: true, fuzzy: false, combineWith: "AND" },
} as const;

/** A business as indexed: its position in the name order, and the words that q matches. */
export interface BusinessIndexDocument {
  id: number;
  name: string;
  service: string;
}

export const BUSINESS_INDEX_OPTIONS: Options<BusinessIndexDocument> = {
  ...common,
  fields: ["name", "service"],
};

/** An offering as indexed: its position in catalog order, and the text that q matches. */
export interface OfferingIndexDocument {
  id: number;
  name: string;
  description: string;
  audience: string;
  features: string;
}

export const OFFERING_INDEX_OPTIONS: Options<OfferingIndexDocument> = {
  ...common,
  fields: ["name", "description", "audience", "features"],
};
