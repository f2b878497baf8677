import { type PublicBusiness, PublicBusinessSchema } from "../../schemas/business.ts";
import { DIRECTORY_RULES, DirectoryParamsSchema } from "../../schemas/parameters.ts";
import { QUOTE_URL_RULE, type ToolDefinition, UNTRUSTED_LISTING_TEXT } from "./tool.ts";

/** Mirrors GET /api/directory/{identifier}. */
export const getBusiness: ToolDefinition<{ identifier: string }, PublicBusiness> = {
  name: "get_business",
  title: "Read a business listing",
  description: [
    "Reads one approved public business listing by its slug or UUID id, as returned by search_businesses. Returns the listing exactly like GET /api/directory/{identifier}; an unknown identifier is a not_found error.",
    UNTRUSTED_LISTING_TEXT,
    QUOTE_URL_RULE,
  ].join("\n\n"),
  inputSchema: DirectoryParamsSchema,
  outputSchema: PublicBusinessSchema,
  rules: DIRECTORY_RULES,
  listingText: true,
  run: (service, input) => service.getBusiness(input.identifier),
};
