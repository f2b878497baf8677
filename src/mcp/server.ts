import {
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
import type { Snapshot } from "../snapshot/types.ts";
import type { ResourceIndex } from "./resources.ts";
import { LISTING_NOTICE, TOOL_LIST, TOOLS_BY_NAME, type ToolOutcome } from "./tools.ts";
import type { RpcMessage } from "./transport.ts";

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

/** What the dispatcher answers from; built once by the plugin. */
export interface McpContext {
  service: CatalogService;
  /** The resources of a snapshot, derived once per snapshot. */
  resources: (snapshot: Snapshot) => ResourceIndex;
  serverInfo: Implementation;
}

export function serverInfo(baseUrl: string): Implementation {
  return {
    name: packageJson.name,
    title: "Public catalog and business directory",
    version: packageJson.version,
    websiteUrl: baseUrl,
  };
}

/** A JSON-RPC error answered for a request: its code and message, sent as they are. */
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

/** Checks a request against the SDK's schema for its method; returns the typed request. */
function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  request: { method: string; params?: unknown },
): T {
  const result = schema.safeParse(request);
  if (!result.success) throw invalidParams(request.method);
  return result.data;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** tools/call's params, checked by hand: it is the one method called per search, and a schema library costs more than the search. */
function toolCallParams(params: unknown): { name: string; arguments: Record<string, unknown> } {
  if (!isObject(params) || typeof params.name !== "string" || (params.arguments !== undefined && !isObject(params.arguments))) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      "Invalid tools/call request: params.name must be a string, and params.arguments an object when given.",
    );
  }
  return { name: params.name, arguments: (params.arguments as Record<string, unknown> | undefined) ?? {} };
}

const LISTING_NOTICE_JSON = JSON.stringify(LISTING_NOTICE);

/**
 * A tool's outcome as the JSON-RPC response. A successful answer's JSON (the REST body, made
 * once) is spliced in as bytes, as structuredContent and, escaped, as the text copy: it is
 * neither parsed nor serialised again, nor decoded as UTF-8.
 */
function toolResponse(id: string | number, outcome: ToolOutcome): string | Buffer {
  if (outcome.kind === "error") return JSON.stringify({ jsonrpc: "2.0", id, result: outcome.result });
  const { body, escaped } = outcome.answer;
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  const middle = `"}${outcome.listingText ? `,{"type":"text","text":${LISTING_NOTICE_JSON}}` : ""}],"structuredContent":`;
  const headBytes = Buffer.byteLength(head);
  const middleBytes = Buffer.byteLength(middle);
  const response = Buffer.allocUnsafe(headBytes + escaped.length + middleBytes + body.length + 2);
  let at = response.write(head, 0, "utf8");
  at += escaped.copy(response, at);
  at += response.write(middle, at, "utf8");
  at += body.copy(response, at);
  response.write("}}", at, "latin1");
  return response;
}

/** The JSON-RPC response for one request (text, or UTF-8 bytes), or throws RpcError. */
type Handler = (request: { id: string | number; method: string; params?: unknown }, log: FastifyBaseLogger) => string | Buffer;

/**
 * The MCP server, stateless: one dispatcher built at start answers every request from the
 * tools' definitions and the current snapshot. No SDK Server is built per request (that cost
 * more than a search); the SDK's schemas still check the params of every method but tools/call.
 */
export function createDispatcher(context: McpContext): (message: RpcMessage, log: FastifyBaseLogger) => string | Buffer | null {
  const { service } = context;
  const result = (id: string | number, value: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: value });
  const handlers: Record<string, Handler> = {
    initialize: (request) => {
      const { params } = parsed(InitializeRequestSchema, request);
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
        ? params.protocolVersion
        : LATEST_PROTOCOL_VERSION;
      const answer: InitializeResult = {
        protocolVersion,
        capabilities: CAPABILITIES,
        serverInfo: context.serverInfo,
        instructions: INSTRUCTIONS,
      };
      return result(request.id, answer);
    },
    ping: (request) => {
      parsed(PingRequestSchema, request);
      return result(request.id, {});
    },
    "tools/list": (request) => {
      parsed(ListToolsRequestSchema, request);
      return result(request.id, TOOL_LIST);
    },
    "tools/call": (request, log) => {
      const params = toolCallParams(request.params);
      const tool = TOOLS_BY_NAME.get(params.name);
      if (tool === undefined) {
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Tool ${describeName(params.name)} does not exist; call tools/list for the tools this server offers.`,
        );
      }
      return toolResponse(
        request.id,
        tool.call(service, params.arguments, (error) => log.error({ err: error }, "mcp tool failed")),
      );
    },
    "resources/list": (request) => {
      parsed(ListResourcesRequestSchema, request);
      return result(request.id, context.resources(service.current()).list);
    },
    "resources/templates/list": (request) => {
      parsed(ListResourceTemplatesRequestSchema, request);
      return result(request.id, { resourceTemplates: [] });
    },
    "resources/read": (request) => {
      const { params } = parsed(ReadResourceRequestSchema, request);
      const resource = context.resources(service.current()).byUri.get(params.uri);
      if (resource === undefined)
        throw new RpcError(RESOURCE_NOT_FOUND, "Resource not found; call resources/list for the URIs this server offers.");
      return result(request.id, resource.read);
    },
  };

  return (message, log) => {
    // A notification or a client's response has nowhere to be answered: 202 without a body.
    if (message.kind !== "request") return null;
    const { id, method } = message;
    const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
    try {
      if (handler === undefined) throw new RpcError(ErrorCode.MethodNotFound, "Method not found");
      return handler(message, log);
    } catch (error) {
      if (error instanceof RpcError) return JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message } });
      log.error({ err: error }, "mcp request failed");
      return JSON.stringify({
        jsonrpc: "2.0",
        id,
        error: { code: ErrorCode.InternalError, message: "Internal error: the server failed while answering; retry later." },
      });
    }
  };
}
