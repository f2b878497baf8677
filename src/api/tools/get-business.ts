import { business } from "../../core/answers.ts";
import type { PublicBusiness } from "../../schemas/business.ts";
import { MCP_APP } from "../resources.ts";
import { ROUTES } from "../routes.ts";
import { type ArgumentsOf, QUOTE_URL_RULE, TOOL_NAMES, type ToolDefinition, UNTRUSTED_LISTING_TEXT } from "./tool.ts";

const route = ROUTES.getServiceBusiness;

export const getBusiness: ToolDefinition<ArgumentsOf<typeof route.params>, PublicBusiness> = {
  name: TOOL_NAMES.getBusiness,
  title: "Read a business listing",
  description: [
    `Reads one approved public business listing by its slug or UUID id, as returned by ${TOOL_NAMES.searchBusinesses}. Returns the listing exactly like GET ${route.path}; an unknown identifier is a not_found error.`,
    UNTRUSTED_LISTING_TEXT,
    QUOTE_URL_RULE,
  ].join("\n\n"),
  inputSchema: route.params,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: true,
  advice: { not_found: `Call ${TOOL_NAMES.searchBusinesses} and use the slug or id of a listing it returns.` },
  mirrors: route.operationId,
  app: MCP_APP.uri,
  run: (view, input) => business(view, input.identifier).answer,
};
