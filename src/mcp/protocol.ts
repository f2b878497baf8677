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

export {
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/core";

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
