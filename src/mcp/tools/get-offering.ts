import { type Offering, OfferingSchema } from "../../schemas/offering.ts";
import { OFFERINGS_RULES, OfferingParamsSchema } from "../../schemas/parameters.ts";
import type { ToolDefinition } from "./tool.ts";

/** Mirrors GET /api/offerings/{slug}. */
export const getOffering: ToolDefinition<{ slug: string }, Offering> = {
  name: "get_offering",
  title: "Read an offering",
  description:
    "Reads one offering by the exact slug that search_offerings returned: description, audience, access conditions, features, steps, FAQ and the guide's links (guideUrl, markdownUrl), exactly like GET /api/offerings/{slug}. An unknown slug is a not_found error.",
  inputSchema: OfferingParamsSchema,
  outputSchema: OfferingSchema,
  rules: OFFERINGS_RULES,
  listingText: false,
  run: (service, input) => service.getOffering(input.slug),
};
