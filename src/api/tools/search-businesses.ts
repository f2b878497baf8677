import { DIRECTORY_MAX_OFFSET } from "../../contract.ts";
import { directoryPage, holdsNoListing, pageSearch } from "../../core/answers.ts";
import { type EmptySearchHelp, helpForEmptySearch, type SearchFields } from "../../core/suggest.ts";
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
    `Returns one page as {items, limit, offset, nextOffset}, in name order, exactly like GET ${route.path}. To page, call again with the same filters and offset set to the nextOffset you received; stop when nextOffset is null (browsing ends at offset ${DIRECTORY_MAX_OFFSET}). An empty items array means no match, not an error; a text item after the JSON then suggests arguments to try (a place moved from q to location, a spelling, GB for UK).`,
    UNTRUSTED_LISTING_TEXT,
    QUOTE_URL_RULE,
  ].join("\n\n"),
  inputSchema: route.querystring,
  outputSchema: route.response.schema,
  rules: route.rules,
  listingText: true,
  mirrors: route.operationId,
  app: MCP_APP.uri,
  run: (view, input) => directoryPage(view, pageSearch(input)),
  note: (view, input, answer) =>
    (input.offset ?? 0) === 0 && holdsNoListing(answer) ? emptySearchNote(helpForEmptySearch(view, input), input.limit) : undefined,
};

/**
 * What an agent can do after a search that found nothing: the arguments it may have meant, as the
 * directory page offers them to people (src/core/suggest.ts), or else how a search matches.
 */
function emptySearchNote(help: EmptySearchHelp, limit: number | undefined): string {
  const tries: (readonly [search: SearchFields, why: string])[] = [];
  if (help.country !== null)
    tries.push([help.country.search, `${help.country.suggestion} instead of ${help.country.typed}, which is no country's code`]);
  if (help.place !== null) tries.push([help.place.search, help.place.label]);
  for (const { search, typed, suggestion } of help.spellings) tries.push([search, `"${suggestion}" instead of "${typed}"`]);
  const complete = "No listing matches these arguments: a complete answer, not an error.";
  if (tries.length === 0) {
    return `${complete} Every q term must start a word of a listing's name or service, or a word people use for the service; try fewer or shorter terms, put a town in location rather than q, or leave location or country out. ${TOOL_NAMES.directoryFacets} counts what a search holds.`;
  }
  const calls = tries.map(([search, why]) => `${JSON.stringify(limit === undefined ? search : { ...search, limit })} (${why})`);
  return `${complete} Did you mean: call ${TOOL_NAMES.searchBusinesses} again with ${calls.join(", or ")}.`;
}
