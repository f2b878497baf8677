import { DIRECTORY_MAX_OFFSET } from "../../contract.ts";
import type { DirectoryPage } from "../../schemas/responses.ts";
import { MCP_APP } from "../resources.ts";
import { ROUTES } from "../routes.ts";
import { type ArgumentsOf, QUOTE_URL_RULE, TOOL_NAMES, type ToolDefinition, UNTRUSTED_LISTING_TEXT } from "./tool.ts";

const route = ROUTES.searchServiceBusinesses;

export const searchBusinesses: ToolDefinition<ArgumentsOf<typeof route.querystring>, DirectoryPage> = {
  name: TOOL_NAMES.searchBusinesses,
  title: "Search the business directory",
  description: [
    "Searches approved public business listings. Every q term must start a word of the listing's name, its service or the words people use for the service, such as plumber for Plumbing (case- and accent-insensitive); location is part of a city, region or postal code; country is a two-letter code. All filters are optional.",
    `Returns one page as {items, limit, offset, nextOffset}, in name order, exactly like GET ${route.path}. To page, call again with the same filters and offset set to the nextOffset you received; stop when nextOffset is null (browsing ends at offset ${DIRECTORY_MAX_OFFSET}). An empty items array means no match, not an error.`,
    UNTRUSTED_LISTING_TEXT,
    QUOTE_URL_RULE,
  ].join("\n\n"),
  inputSchema: route.querystring,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: true,
  mirrors: route.operationId,
  app: MCP_APP.uri,
  run: (service, input) => service.searchBusinesses(input),
};
