import type { PublicBusiness } from "../../schemas/business.ts";
import { ROUTES } from "../routes.ts";
import { QUOTE_URL_RULE, type ToolDefinition, UNTRUSTED_LISTING_TEXT } from "./tool.ts";

const route = ROUTES.getServiceBusiness;

export const getBusiness: ToolDefinition<{ identifier: string }, PublicBusiness> = {
  name: "get_business",
  title: "Read a business listing",
  description: [
    `Reads one approved public business listing by its slug or UUID id, as returned by search_businesses. Returns the listing exactly like GET ${route.path}; an unknown identifier is a not_found error.`,
    UNTRUSTED_LISTING_TEXT,
    QUOTE_URL_RULE,
  ].join("\n\n"),
  inputSchema: route.params,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: true,
  mirrors: route.operationId,
  run: (service, input) => service.getBusiness(input.identifier),
};
