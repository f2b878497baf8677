import { proseList } from "../prose.ts";
import { directoryFacets } from "./directory-facets.ts";
import { getBusiness } from "./get-business.ts";
import { getOffering } from "./get-offering.ts";
import { searchBusinesses } from "./search-businesses.ts";
import { searchOfferings } from "./search-offerings.ts";
import type { ToolDefinition } from "./tool.ts";

/** Every MCP tool, in the order tools/list and the documentation show them. */
export const TOOLS: readonly ToolDefinition[] = [searchBusinesses, directoryFacets, getBusiness, searchOfferings, getOffering];

/** The tools' names, for prose: "search_businesses, get_business, search_offerings and get_offering". */
export function toolNames(conjunction = "and"): string {
  const names = TOOLS.map((tool) => tool.name);
  return proseList(names, conjunction);
}

/** A tool's argument names, as its input schema declares them. */
export function toolArguments(tool: ToolDefinition): string[] {
  return Object.keys(tool.inputSchema.properties);
}
