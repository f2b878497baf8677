import type { FromSchema } from "json-schema-to-ts";
import { DIRECTORY_MAX_LIMIT, DIRECTORY_MAX_OFFSET, DIRECTORY_MIN_LIMIT, MAX_OFFERINGS } from "../contract.ts";
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

export const OfferingListSchema = {
  type: "object",
  additionalProperties: false,
  required: ["items", "total"],
  properties: {
    items: { type: "array", maxItems: MAX_OFFERINGS, items: OfferingSchema },
    total: { type: "integer", minimum: 0, maximum: MAX_OFFERINGS },
  },
} as const;

export type DirectoryPage = FromSchema<typeof DirectoryPageSchema>;
export type OfferingList = FromSchema<typeof OfferingListSchema>;
