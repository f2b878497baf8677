/**
 * The MCP shapes this endpoint reads and writes, from the protocol's own schemas
 * (`@modelcontextprotocol/core`: every revision's Zod schemas, and nothing else at run time).
 * Its types are each schema's parsed output, so one source gives both the check and the type.
 */
import type {
  CallToolResultSchema,
  ImplementationSchema,
  InitializeResultSchema,
  ListResourcesResultSchema,
  ReadResourceResultSchema,
  ResourceSchema,
  ServerCapabilitiesSchema,
  ToolAnnotationsSchema,
  ToolSchema,
} from "@modelcontextprotocol/core";

/** The request schemas the dispatcher checks params with (every method but tools/call). */
type RequestSchemas = Pick<
  typeof import("@modelcontextprotocol/core"),
  | "InitializeRequestSchema"
  | "ListResourcesRequestSchema"
  | "ListResourceTemplatesRequestSchema"
  | "ListToolsRequestSchema"
  | "PingRequestSchema"
  | "ReadResourceRequestSchema"
>;

let loaded: RequestSchemas | undefined;

/**
 * Loads the request schemas, once. `@modelcontextprotocol/core` (Zod and every revision's
 * schemas) cost about 0.3 s of the server's start, and the one method called per search,
 * tools/call, never needs it: the endpoint loads it before the first request of another method.
 */
export async function loadRequestSchemas(): Promise<void> {
  loaded ??= await import("@modelcontextprotocol/core");
}

/** The request schemas; `loadRequestSchemas` must have finished. */
export function requestSchemas(): RequestSchemas {
  if (loaded === undefined) throw new Error("the MCP request schemas are used before loadRequestSchemas() finished");
  return loaded;
}

/** What a schema's `parse` returns: the shape it checks. */
type Parsed<Schema extends { parse(value: unknown): unknown }> = ReturnType<Schema["parse"]>;

export type CallToolResult = Parsed<typeof CallToolResultSchema>;
export type Implementation = Parsed<typeof ImplementationSchema>;
export type InitializeResult = Parsed<typeof InitializeResultSchema>;
export type ListResourcesResult = Parsed<typeof ListResourcesResultSchema>;
export type ReadResourceResult = Parsed<typeof ReadResourceResultSchema>;
export type Resource = Parsed<typeof ResourceSchema>;
export type ServerCapabilities = Parsed<typeof ServerCapabilitiesSchema>;
export type Tool = Parsed<typeof ToolSchema>;
export type ToolAnnotations = Parsed<typeof ToolAnnotationsSchema>;
