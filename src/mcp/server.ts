import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  type Implementation,
  InitializeRequestSchema,
  type InitializeResult,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { FastifyBaseLogger } from "fastify";
import packageJson from "../../package.json" with { type: "json" };
import { ROUTES } from "../api/routes.ts";
import { TOOLS } from "../api/tools/index.ts";
import { searchBusinesses } from "../api/tools/search-businesses.ts";
import { searchOfferings } from "../api/tools/search-offerings.ts";
import { QUOTE_URL_RULE, UNTRUSTED_LISTING_TEXT } from "../api/tools/tool.ts";
import { DIRECTORY_RETRY_AFTER_SECONDS, MCP_PROTOCOL_VERSIONS } from "../contract.ts";
import { describeName } from "../core/errors.ts";
import type { CatalogService } from "../core/service.ts";
import { createAjv } from "../schemas/ajv.ts";
import type { Snapshot } from "../snapshot/types.ts";
import type { ResourceIndex } from "./resources.ts";
import { TOOL_LIST, TOOLS_BY_NAME } from "./tools.ts";

const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = MCP_PROTOCOL_VERSIONS;
const LATEST_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];

/** The JSON-RPC error code of an unknown resource URI (MCP specification, Resources). */
export const RESOURCE_NOT_FOUND = -32002;

const CAPABILITIES: ServerCapabilities = { tools: { listChanged: false }, resources: { listChanged: false, subscribe: false } };

/** The names of the tools that read the catalog or the directory, for prose. */
function toolsOf(tag: "Offerings" | "Directory"): string {
  return TOOLS.filter((tool) => ROUTES[tool.mirrors].tag === tag)
    .map((tool) => tool.name)
    .join(" and ");
}

export const INSTRUCTIONS = [
  "Free, read-only access to a small curated catalog of offerings and to a directory of approved public business listings. No account, key or payment; nothing here sends enquiries, operates accounts, books work or charges money.",
  `Tools: ${toolsOf("Offerings")} read the catalog; ${toolsOf("Directory")} read the directory. Their results are the REST API's JSON bodies (structuredContent), and errors are isError results with the REST error object {error: {code, message, resolution}}: follow its resolution.`,
  `Paging: ${searchBusinesses.name} answers one page {items, limit, offset, nextOffset}; to continue, repeat the call with the same filters and offset = nextOffset until nextOffset is null. ${searchOfferings.name} answers every match at once.`,
  `${UNTRUSTED_LISTING_TEXT} ${QUOTE_URL_RULE}`,
  "Resources: llms.txt (the index), the full catalog as Markdown and JSON, every offering guide, the API documentation and the OpenAPI description.",
  `If the directory is unavailable (directory_unavailable), wait ${DIRECTORY_RETRY_AFTER_SECONDS} seconds before retrying; it is not an empty result. The catalog keeps working meanwhile.`,
].join("\n\n");

/** What every per-request server shares; built once by the plugin. */
export interface McpContext {
  service: CatalogService;
  /** The resources of a snapshot, derived once per snapshot. */
  resources: (snapshot: Snapshot) => ResourceIndex;
  serverInfo: Implementation;
  log: FastifyBaseLogger;
}

export function serverInfo(baseUrl: string): Implementation {
  return {
    name: packageJson.name,
    title: "Public catalog and business directory",
    version: packageJson.version,
    websiteUrl: baseUrl,
  };
}

/**
 * The Server never validates JSON Schemas itself here (that is for elicitation); sharing one
 * validator keeps its constructor from building an Ajv per request.
 */
const sharedValidator = new AjvJsonSchemaValidator(createAjv({ strict: false }));

/**
 * The SDK parses each request with the handler's schema before calling it and reports a failed
 * parse as -32603 Internal error with zod's text. These schemas only check the method, so each
 * handler validates its params itself and answers -32602 Invalid params, as JSON-RPC says.
 * (For tools/call the SDK's own wrapper already does so.)
 */
const byMethod = {
  initialize: InitializeRequestSchema.pick({ method: true }).loose(),
  ping: PingRequestSchema.pick({ method: true }).loose(),
  listTools: ListToolsRequestSchema.pick({ method: true }).loose(),
  callTool: CallToolRequestSchema.pick({ method: true }).loose(),
  listResources: ListResourcesRequestSchema.pick({ method: true }).loose(),
  listResourceTemplates: ListResourceTemplatesRequestSchema.pick({ method: true }).loose(),
  readResource: ReadResourceRequestSchema.pick({ method: true }).loose(),
};

/**
 * A JSON-RPC error the SDK sends as it is: it copies `code` and `message` into the response.
 * (McpError would prefix the message with "MCP error <code>: ", and clients prefix it again.)
 */
export class RpcError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.name = "RpcError";
    this.code = code;
  }
}

function invalidParams(method: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}; see the MCP specification for its parameters.`);
}

/** Checks params against the SDK's schema for the method; returns the typed request. */
function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  request: unknown,
  method: string,
): T {
  const result = schema.safeParse(request);
  if (!result.success) throw invalidParams(method);
  return result.data;
}

/**
 * A low-level SDK Server for one request (stateless: it never sees the client's initialize).
 * Everything it answers from is built once: tool descriptors and validators at start, resource
 * indexes once per snapshot, so construction is a few microseconds.
 */
export function createMcpServer(context: McpContext): Server {
  const { service } = context;
  const server = new Server(context.serverInfo, {
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  });
  // Protocol-level failures (a client's stray response, a failed send) concern no one but the log.
  server.onerror = (error) => context.log.debug({ err: error }, "mcp protocol error");

  server.setRequestHandler(byMethod.initialize, (request): InitializeResult => {
    const { params } = parsed(InitializeRequestSchema, request, "initialize");
    const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_PROTOCOL_VERSION;
    return { protocolVersion, capabilities: CAPABILITIES, serverInfo: context.serverInfo, instructions: INSTRUCTIONS };
  });

  server.setRequestHandler(byMethod.ping, (request) => {
    parsed(PingRequestSchema, request, "ping");
    return {};
  });

  server.setRequestHandler(byMethod.listTools, (request) => {
    parsed(ListToolsRequestSchema, request, "tools/list");
    return TOOL_LIST;
  });

  server.setRequestHandler(byMethod.callTool, (request) => {
    const { params } = parsed(CallToolRequestSchema, request, "tools/call");
    const tool = TOOLS_BY_NAME.get(params.name);
    if (tool === undefined) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Tool ${describeName(params.name)} does not exist; call tools/list for the tools this server offers.`,
      );
    }
    return tool.call(service, params.arguments ?? {}, (error) => context.log.error({ err: error }, "mcp tool failed"));
  });

  server.setRequestHandler(byMethod.listResources, (request) => {
    parsed(ListResourcesRequestSchema, request, "resources/list");
    return context.resources(service.current()).list;
  });

  server.setRequestHandler(byMethod.listResourceTemplates, (request) => {
    parsed(ListResourceTemplatesRequestSchema, request, "resources/templates/list");
    return { resourceTemplates: [] };
  });

  server.setRequestHandler(byMethod.readResource, (request) => {
    const { params } = parsed(ReadResourceRequestSchema, request, "resources/read");
    const resource = context.resources(service.current()).byUri.get(params.uri);
    if (resource === undefined) {
      throw new RpcError(RESOURCE_NOT_FOUND, "Resource not found; call resources/list for the URIs this server offers.");
    }
    return resource.read;
  });

  return server;
}
