import type { FromSchema } from "json-schema-to-ts";
import {
  DIRECTORY_MAX_LIMIT,
  DIRECTORY_MAX_OFFSET,
  DIRECTORY_MIN_LIMIT,
  FACET_MAX_VALUES,
  MAX_OFFERINGS,
  VERSION_PATTERN,
} from "../contract.ts";
import { PublicBusinessSchema } from "./business.ts";
import { OfferingSchema } from "./offering.ts";

export const DirectoryPageSchema = {
  type: "object",
  additionalProperties: false,
  required: ["items", "limit", "offset", "nextOffset"],
  properties: {
    items: { type: "array", maxItems: DIRECTORY_MAX_LIMIT, items: PublicBusinessSchema },
    limit: { type: "integer", minimum: DIRECTORY_MIN_LIMIT, maximum: DIRECTORY_MAX_LIMIT },
    offset: { type: "integer", minimum: 0, maximum: DIRECTORY_MAX_OFFSET },
    nextOffset: {
      type: ["integer", "null"],
      minimum: 0,
      maximum: DIRECTORY_MAX_OFFSET,
      description: `Offset of the next page, or null when no further page is available within the ${DIRECTORY_MAX_OFFSET}-offset browsing limit.`,
    },
  },
} as const;

/** One facet: values of the matching listings with how many have each, by count descending, then value. */
function facetList(what: string) {
  return {
    type: "array",
    maxItems: FACET_MAX_VALUES,
    description: `The ${what} of the matching listings, each with how many of them have it: by count descending, then value (by character code), at most ${FACET_MAX_VALUES} (the top ones by count).`,
    items: {
      type: "object",
      additionalProperties: false,
      required: ["value", "count"],
      properties: {
        value: { type: "string", minLength: 1 },
        count: { type: "integer", minimum: 1 },
      },
    },
  } as const;
}

export const DirectoryFacetsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["total", "service", "category", "country", "city"],
  properties: {
    total: {
      type: "integer",
      minimum: 0,
      description: `How many listings the search matches in all: not limited by the ${DIRECTORY_MAX_OFFSET}-offset browsing limit.`,
    },
    service: facetList("services"),
    category: facetList("categories"),
    country: facetList("country codes"),
    city: facetList("cities (as the listings write them)"),
  },
} as const;

export const OfferingListSchema = {
  type: "object",
  additionalProperties: false,
  required: ["items", "total"],
  properties: {
    items: { type: "array", maxItems: MAX_OFFERINGS, items: OfferingSchema },
    total: { type: "integer", minimum: 0, maximum: MAX_OFFERINGS },
  },
} as const;

const version = (description: string) => ({ type: "string", pattern: VERSION_PATTERN, description }) as const;

/**
 * One line of the change feed (interface §8): the answer's first line, then an upsert or a removal
 * per listing, as in the changes files (data/changes/<version>.ndjson) except the first line.
 */
export const ChangeLineSchema = {
  type: "object",
  description:
    "One line of an application/x-ndjson answer. The first line says which releases the answer spans and how many lines follow; each other line is a listing's latest state: an upsert (added, or changed in any field; a renamed slug keeps its id) or a removal (deleted, or no longer approved), in id order, at most one per id.",
  oneOf: [
    {
      type: "object",
      title: "Header",
      additionalProperties: false,
      required: ["from", "to", "upserts", "removals"],
      properties: {
        from: version("The release asked for (since)."),
        to: version("The current release: the since of the next request."),
        upserts: { type: "integer", minimum: 0, description: "How many upsert lines follow." },
        removals: { type: "integer", minimum: 0, description: "How many removal lines follow." },
      },
    },
    {
      type: "object",
      title: "Upsert",
      additionalProperties: false,
      required: ["op", "business"],
      properties: { op: { type: "string", const: "upsert" }, business: PublicBusinessSchema },
    },
    {
      type: "object",
      title: "Removal",
      additionalProperties: false,
      required: ["op", "id"],
      properties: { op: { type: "string", const: "remove" }, id: PublicBusinessSchema.properties.id },
    },
  ],
} as const;

export type DirectoryPage = FromSchema<typeof DirectoryPageSchema>;
export type OfferingList = FromSchema<typeof OfferingListSchema>;
export type DirectoryFacets = FromSchema<typeof DirectoryFacetsSchema>;
export type FacetCount = DirectoryFacets["service"][number];
