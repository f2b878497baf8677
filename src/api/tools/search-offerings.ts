import { MAX_OFFERINGS } from "../../contract.ts";
import { offeringList } from "../../core/answers.ts";
import { OfferingsSearchArgumentsSchema } from "../../schemas/parameters.ts";
import type { OfferingList } from "../../schemas/responses.ts";
import { ROUTES } from "../routes.ts";
import { type ArgumentsOf, TOOL_NAMES, type ToolDefinition } from "./tool.ts";

const route = ROUTES.listServiceOfferings;

/** This tool's input is named `query` (interface §6); it is the REST route's `q`. */
export const searchOfferings: ToolDefinition<ArgumentsOf<typeof OfferingsSearchArgumentsSchema>, OfferingList> = {
  name: TOOL_NAMES.searchOfferings,
  title: "List or search the offerings",
  description: [
    "Lists the curated offerings in catalog order, or only those matching query: every term must start a word of the name, description, audience or features (case- and accent-insensitive).",
    `Returns {items, total} exactly like GET ${route.path}?q=...: every match at once (at most ${MAX_OFFERINGS}), so there is no paging. An empty items array means no match. Use ${TOOL_NAMES.getOffering} with a slug for one offering.`,
  ].join("\n\n"),
  inputSchema: OfferingsSearchArgumentsSchema,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: false,
  mirrors: route.operationId,
  run: (view, input) => offeringList(view, input.query),
};
