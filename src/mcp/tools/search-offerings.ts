import { OFFERINGS_RULES, type OfferingsQuery, OfferingsQuerySchema } from "../../schemas/parameters.ts";
import { type OfferingList, OfferingListSchema } from "../../schemas/responses.ts";
import type { ToolDefinition } from "./tool.ts";

/** Mirrors GET /api/offerings. */
export const searchOfferings: ToolDefinition<OfferingsQuery, OfferingList> = {
  name: "search_offerings",
  title: "List or search the offerings",
  description: [
    "Lists the curated offerings in catalog order, or only those matching q: every term must start a word of the name, description, audience or features (case- and accent-insensitive).",
    "Returns {items, total} exactly like GET /api/offerings: every match at once (at most 20), so there is no paging. An empty items array means no match. Use get_offering with a slug for one offering.",
  ].join("\n\n"),
  inputSchema: OfferingsQuerySchema,
  outputSchema: OfferingListSchema,
  rules: OFFERINGS_RULES,
  listingText: false,
  run: (service, input) => service.searchOfferings(input.q),
};
