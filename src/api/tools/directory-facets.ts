import { directoryFacets as facetsAnswer } from "../../core/answers.ts";
import { normalizeSearch } from "../../core/directory.ts";
import type { DirectoryFacets } from "../../schemas/responses.ts";
import { ROUTES } from "../routes.ts";
import { type ArgumentsOf, TOOL_NAMES, type ToolDefinition, UNTRUSTED_LISTING_TEXT } from "./tool.ts";

const route = ROUTES.countServiceBusinesses;

export const directoryFacets: ToolDefinition<ArgumentsOf<typeof route.querystring>, DirectoryFacets> = {
  name: TOOL_NAMES.directoryFacets,
  title: "Count what a directory search matches",
  description: [
    `Counts what ${TOOL_NAMES.searchBusinesses} would find for the same q, location and country (same rules, same matching; all optional): the exact total, however many pages that is, and the values of service, category, country and city among the matches, each with its count, most common first (at most 50 each).`,
    `Returns {total, service, category, country, city}, exactly like GET ${route.path}. Call it before paging to see what exists ("which trades are listed in Leeds?", "how many roofers in Germany?"), then narrow ${TOOL_NAMES.searchBusinesses} with a value it gave: a service as q, a country code as country, a city as location.`,
    UNTRUSTED_LISTING_TEXT,
  ].join("\n\n"),
  inputSchema: route.querystring,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: true,
  mirrors: route.operationId,
  run: (view, input) => facetsAnswer(view, normalizeSearch({ ...input, limit: 1, offset: 0 })),
};
