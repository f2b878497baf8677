import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createAjv } from "../../schemas/ajv.ts";
import { getBusiness } from "./get-business.ts";
import { getOffering } from "./get-offering.ts";
import { searchBusinesses } from "./search-businesses.ts";
import { searchOfferings } from "./search-offerings.ts";
import { type CatalogTool, defineTool } from "./tool.ts";

/**
 * Validators compiled once at start. No coercion and no defaults: MCP arguments are JSON, so
 * `"5"` is not a limit, and the core applies the defaults as it does for REST.
 */
const ajv = createAjv({ coerceTypes: false, useDefaults: false, removeAdditional: false, allErrors: false });

export const TOOLS: readonly CatalogTool[] = [
  defineTool(ajv, searchBusinesses),
  defineTool(ajv, getBusiness),
  defineTool(ajv, searchOfferings),
  defineTool(ajv, getOffering),
];

export const TOOLS_BY_NAME: ReadonlyMap<string, CatalogTool> = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The tools/list answer: the same object for every request. */
export const TOOL_LIST: { tools: Tool[] } = { tools: TOOLS.map((tool) => tool.descriptor) };
