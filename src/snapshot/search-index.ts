import type { Options } from "minisearch";
import { fold, words } from "./text.ts";

/**
 * MiniSearch options of the offerings index, shared by the build (which serialises it) and the
 * server (which loads it). A serialised index must be loaded with the options it was built with;
 * bump INDEX_FORMAT_VERSION whenever these change so a stale snapshot is refused.
 */
export const INDEX_FORMAT_VERSION = 1;

const common = {
  idField: "id",
  tokenize: words,
  processTerm: (term: string) => fold(term) || null,
  searchOptions: { prefix: true, fuzzy: false, combineWith: "AND" },
} as const;

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
