import { getBusiness } from "../api/tools/get-business.ts";
import { searchBusinesses } from "../api/tools/search-businesses.ts";
import {
  API_DOCS_PATH,
  BULK_JSON_PATH,
  BULK_NDJSON_PATH,
  businessPagePath,
  DIRECTORY_API_PATH,
  DIRECTORY_PATH,
  MCP_PATH,
  markdownPath,
} from "../contract.ts";
import type { Block } from "./page-model.ts";

/** The directory page's words for agents alone (directory.ts): how to search it by program, and its bulk data. */

/** How an agent searches: the Markdown URL, the REST API and the MCP tools. */
export function searchHowTo(baseUrl: string): Block {
  return {
    kind: "markdown",
    only: "agents",
    markdown: [
      "## How to search",
      "",
      `- Markdown: ${baseUrl}${markdownPath(DIRECTORY_PATH)}?q=plumb&location=leeds&country=GB on this service answers the search as Markdown, with \`offset\` for further pages (a static copy of the site serves this overview without a query).`,
      `- REST: \`GET ${baseUrl}${DIRECTORY_API_PATH}?q=plumb&location=leeds&country=GB&limit=10&offset=0\` returns JSON; follow \`nextOffset\` until it is null. See [the API documentation](<${baseUrl}${markdownPath(API_DOCS_PATH)}>).`,
      `- MCP: the \`${searchBusinesses.name}\` and \`${getBusiness.name}\` tools at \`POST ${baseUrl}${MCP_PATH}\`.`,
      "",
      "`q` matches the start of words in a listing's name, its service or the words people use for the service, such as `plumber` for Plumbing (every word must match), `location` part of its city, region or postal code, `country` its two-letter code. A quote link leads to the website's normal quote-request form; the user follows it themselves.",
    ].join("\n"),
  };
}

/** The whole directory as data files, and where a listing's Markdown profile is. */
export function bulkData(baseUrl: string): Block {
  return {
    kind: "markdown",
    only: "agents",
    markdown: [
      "## Bulk data",
      "",
      `- [businesses.json](<${baseUrl}${BULK_JSON_PATH}>): every approved listing as a JSON array, one listing per line (the API's PublicBusiness shape)`,
      `- [businesses.ndjson](<${baseUrl}${BULK_NDJSON_PATH}>): the same listings, one JSON object per line`,
      "",
      `A listing's Markdown profile is at \`${baseUrl}${markdownPath(businessPagePath("{slug}"))}\`.`,
    ].join("\n"),
  };
}
