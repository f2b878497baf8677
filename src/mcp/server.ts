import type { IncomingHttpHeaders } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import packageJson from "../../package.json" with { type: "json" };
import { proseList } from "../api/prose.ts";
import { MCP_APP } from "../api/resources.ts";
import { ROUTES } from "../api/routes.ts";
import { TOOLS } from "../api/tools/index.ts";
import { searchBusinesses } from "../api/tools/search-businesses.ts";
import { searchOfferings } from "../api/tools/search-offerings.ts";
import { QUOTE_URL_RULE, TOOL_NAMES, UNTRUSTED_LISTING_TEXT } from "../api/tools/tool.ts";
import {
  CLIENT_CACHE_SECONDS,
  DIRECTORY_RETRY_AFTER_SECONDS,
  FAVICON_PATH,
  FAVICON_SVG_PATH,
  ICON_TYPE,
  MCP_LEGACY_VERSIONS,
  MCP_PROTOCOL_VERSIONS,
  SVG_TYPE,
} from "../contract.ts";
import type { AnswerCache } from "../core/answer-cache.ts";
import { ApiError, describeName } from "../core/errors.ts";
import { servedView } from "../core/served.ts";
import { FAVICON_SIZE } from "../render/favicon.ts";
import type { Part, ServedView } from "../snapshot/view.ts";
import { checkUnanswered, type Era, eraOf, META_KEYS } from "./era.ts";
import { isObject } from "./json.ts";
import { type Implementation, type InitializeResult, requestSchemas, type ServerCapabilities } from "./protocol.ts";
import type { ResourceIndex } from "./resources.ts";
import { RPC, RpcError } from "./rpc.ts";
import { resultBytes, toolResponse, toolResponseFrame } from "./tool-response.ts";
import { TOOLS_BY_NAME, toolList } from "./tools.ts";
import type { RpcMessage } from "./transport.ts";

const LEGACY_VERSIONS: readonly string[] = MCP_LEGACY_VERSIONS;
const LATEST_LEGACY_VERSION = MCP_LEGACY_VERSIONS[0];
/** The version of a 2025 request that names none (2025-06-18, Protocol Version Header). */
const OLDEST_LEGACY_VERSION: string = MCP_LEGACY_VERSIONS[MCP_LEGACY_VERSIONS.length - 1] ?? LATEST_LEGACY_VERSION;

/** Both eras' capabilities; `extensions` (SEP-2133) declares the MCP Apps extension, with no settings. */
const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false, subscribe: false },
  extensions: { [MCP_APP.extension]: {} },
};

/** 2026-07-28's caching hints (Caching): as long as HTTP caches a successful answer, for anyone. */
const CACHE_HINTS = { ttlMs: CLIENT_CACHE_SECONDS * 1000, cacheScope: "public" } as const;

/** The names of the tools that read the catalog or the directory, for prose. */
function toolsOf(tag: "Offerings" | "Directory"): string {
  return proseList(TOOLS.filter((tool) => ROUTES[tool.mirrors].tag === tag).map((tool) => tool.name));
}

export const INSTRUCTIONS = [
  "Free, read-only access to a small curated catalog of offerings and to a directory of approved public business listings. No account, key or payment; nothing here sends enquiries, operates accounts, books work or charges money.",
  `Tools: ${toolsOf("Offerings")} read the catalog; ${toolsOf("Directory")} read the directory. Their results are the REST API's JSON bodies (structuredContent), and errors are isError results with the REST error object {error: {code, message, resolution}}: follow its resolution.`,
  `Counting: to learn what exists before paging (which services are listed in a town, how many listings a country has), call ${TOOL_NAMES.directoryFacets} with the search's own filters: one call answers the exact total and the top counts by service, category, country and city. Then narrow the search with a value it gave.`,
  `Paging: ${searchBusinesses.name} answers one page {items, limit, offset, nextOffset}; to continue, repeat the call with the same filters and offset = nextOffset until nextOffset is null. ${searchOfferings.name} answers every match at once.`,
  `${UNTRUSTED_LISTING_TEXT} ${QUOTE_URL_RULE}`,
  "Resources: llms.txt (the index), the full catalog as Markdown and JSON, every offering guide, the API documentation and the OpenAPI description.",
  `If the directory is unavailable (directory_unavailable), wait ${DIRECTORY_RETRY_AFTER_SECONDS} seconds before retrying; it is not an empty result. The catalog keeps working meanwhile.`,
].join("\n\n");

/** Told of every MCP request and tool call (metrics: src/metrics.ts); labels are from bounded sets. */
export interface McpObserver {
  mcpRequest(method: string, protocolVersion: string, ok: boolean): void;
  toolCall(tool: string, protocolVersion: string, ok: boolean): void;
}

/** What the dispatcher answers from; built once by the plugin. */
export interface McpContext {
  served: ServedView;
  /** The view's answer cache, shared with REST and the pages (src/core/answer-cache.ts). */
  answers: Part<AnswerCache | null>;
  observer?: McpObserver;
  /** The resources of a view, derived once per view. */
  resources: Part<ResourceIndex>;
  serverInfo: Implementation;
}

/** The site's icons at their public URLs (src/render/favicon.ts draws them): the SVG first (any size), then the ICO. */
function siteIcons(baseUrl: string): NonNullable<Implementation["icons"]> {
  return [
    { src: `${baseUrl}${FAVICON_SVG_PATH}`, mimeType: SVG_TYPE, sizes: ["any"] },
    { src: `${baseUrl}${FAVICON_PATH}`, mimeType: ICON_TYPE, sizes: [`${FAVICON_SIZE}x${FAVICON_SIZE}`] },
  ];
}

export function serverInfo(baseUrl: string): Implementation {
  return {
    name: packageJson.name,
    title: "Public catalog and business directory",
    version: packageJson.version,
    websiteUrl: baseUrl,
    icons: siteIcons(baseUrl),
  };
}

function invalidParams(method: string): RpcError {
  return new RpcError(RPC.invalidParams, `Invalid params for ${method}; see the MCP specification for its parameters.`);
}

/** Checks a request against the protocol's schema for its method (src/mcp/protocol.ts); returns the typed request. */
function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  request: { method: string; params?: unknown },
): T {
  const result = schema.safeParse(request);
  if (!result.success) throw invalidParams(request.method);
  return result.data;
}

/** tools/call's params, checked by hand: it is the one method called per search, and a schema library costs more than the search. */
function toolCallParams(params: unknown): { name: string; arguments: Record<string, unknown> } {
  if (!isObject(params) || typeof params.name !== "string" || (params.arguments !== undefined && !isObject(params.arguments))) {
    throw new RpcError(
      RPC.invalidParams,
      "Invalid tools/call request: params.name must be a string, and params.arguments an object when given.",
    );
  }
  return { name: params.name, arguments: (params.arguments as Record<string, unknown> | undefined) ?? {} };
}

/** An answer to one POST: its HTTP status and JSON body. */
export interface McpReply {
  readonly status: number;
  readonly body: string | Buffer;
}

interface Request {
  readonly id: string | number;
  readonly method: string;
  readonly params?: unknown;
}

/** The JSON-RPC response for one request (text, or UTF-8 bytes), or throws RpcError. */
type Handler = (request: Request, era: Era, log: FastifyBaseLogger) => string | Buffer;

/**
 * The MCP server, stateless and dual-era: one dispatcher built at start answers every request
 * of either era from the tools' definitions and the current snapshot. Both eras share every
 * handler; an era adds its own result fields (2026-07-28: `resultType`, the server's identity
 * and, on list, read and discover results, caching hints) and its own methods (the 2025
 * handshake and `ping`; 2026-07-28's `server/discover`). No SDK Server is built per request (that
 * cost more than a search); the protocol's schemas still check the params of every method but
 * tools/call.
 */
export function createDispatcher(
  context: McpContext,
): (message: RpcMessage, headers: IncomingHttpHeaders, log: FastifyBaseLogger) => McpReply | null {
  const { served, answers, observer } = context;
  /** The tool the current tools/call called and whether it answered, for the observer (the dispatch is synchronous). */
  let toolCalled: { readonly name: string; readonly ok: boolean } | null = null;
  const serverMeta = { [META_KEYS.serverInfo]: context.serverInfo };
  /** The tools/list answer: the tools carry the server's icons. */
  const tools = toolList(context.serverInfo.icons);
  /** Every modern result's own fields, as JSON members for the tool responses spliced from bytes. */
  const modernFields = `"resultType":"complete","_meta":${JSON.stringify(serverMeta)},`;
  const frames = { legacy: toolResponseFrame(""), modern: toolResponseFrame(modernFields) };

  /** A result response in the era's shape; `cacheable` results carry 2026-07-28's caching hints. */
  const result = (era: Era, id: string | number, value: object, cacheable: boolean): string => {
    if (era.kind === "legacy") return JSON.stringify({ jsonrpc: "2.0", id, result: value });
    const fields = cacheable ? { ...value, ...CACHE_HINTS } : value;
    return JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete", ...fields, _meta: serverMeta } });
  };

  const shared: Record<string, Handler> = {
    "tools/list": (request, era) => {
      parsed(requestSchemas().ListToolsRequestSchema, request);
      return result(era, request.id, tools, true);
    },
    "tools/call": (request, era, log) => {
      const params = toolCallParams(request.params);
      const tool = TOOLS_BY_NAME.get(params.name);
      if (tool === undefined) {
        throw new RpcError(
          RPC.invalidParams,
          `Tool ${describeName(params.name)} does not exist; call tools/list for the tools this server offers.`,
        );
      }
      const [frame, fields] = era.kind === "modern" ? [frames.modern, modernFields] : [frames.legacy, ""];
      const view = served.current();
      const refusal = tool.refusal(params.arguments);
      const cache = refusal === null && view !== null ? view.get(answers) : null;
      // A successful answer is kept as its bytes after the id: a hit only writes the id before them.
      const key = cache === null ? "" : `mcp ${era.kind} ${tool.name} ${tool.key(params.arguments)}`;
      const hit = cache?.find(key);
      if (hit !== undefined) {
        if (observer !== undefined) toolCalled = { name: tool.name, ok: true };
        return toolResponse(request.id, hit.body);
      }
      const outcome = refusal ?? tool.call(view, params.arguments, (error) => log.error({ err: error }, "mcp tool failed"));
      if (observer !== undefined) toolCalled = { name: tool.name, ok: outcome.kind === "answer" };
      if (cache === null || outcome.kind === "error") return resultBytes(outcome, frame, fields, request.id);
      return toolResponse(request.id, cache.keep(key, { body: resultBytes(outcome, frame, fields, null), headers: [] }).body);
    },
    "resources/list": (request, era) => {
      parsed(requestSchemas().ListResourcesRequestSchema, request);
      return result(era, request.id, servedView(served).get(context.resources).list, true);
    },
    "resources/templates/list": (request, era) => {
      parsed(requestSchemas().ListResourceTemplatesRequestSchema, request);
      return result(era, request.id, { resourceTemplates: [] }, true);
    },
    "resources/read": (request, era) => {
      const { params } = parsed(requestSchemas().ReadResourceRequestSchema, request);
      const resource = servedView(served).get(context.resources).byUri.get(params.uri);
      if (resource === undefined) {
        const message = "Resource not found; call resources/list for the URIs this server offers.";
        // 2026-07-28 moved resource-not-found from -32002 to Invalid Params, with the URI as data (Resources: Error Handling).
        if (era.kind === "modern") throw new RpcError(RPC.invalidParams, message, { data: { uri: params.uri } });
        throw new RpcError(RPC.legacyResourceNotFound, message);
      }
      return result(era, request.id, resource.read, true);
    },
  };

  const legacy: Record<string, Handler> = {
    ...shared,
    initialize: (request) => {
      const { params } = parsed(requestSchemas().InitializeRequestSchema, request);
      const protocolVersion = LEGACY_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : LATEST_LEGACY_VERSION;
      const answer: InitializeResult = {
        protocolVersion,
        capabilities: CAPABILITIES,
        serverInfo: context.serverInfo,
        instructions: INSTRUCTIONS,
      };
      return JSON.stringify({ jsonrpc: "2.0", id: request.id, result: answer });
    },
    ping: (request) => {
      parsed(requestSchemas().PingRequestSchema, request);
      return JSON.stringify({ jsonrpc: "2.0", id: request.id, result: {} });
    },
  };

  const discover: DiscoverResultFields = {
    supportedVersions: [...MCP_PROTOCOL_VERSIONS],
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
  };
  const modern: Record<string, Handler> = {
    ...shared,
    "server/discover": (request, era) => result(era, request.id, discover, true),
  };

  return (message, headers, log) => {
    if (message.kind !== "request") {
      // A notification or a client's response has nowhere to be answered: 202 without a body.
      try {
        checkUnanswered(headers);
      } catch (error) {
        if (error instanceof RpcError) return { status: error.status, body: error.toResponse(null) };
        throw error;
      }
      return null;
    }
    const { id, method } = message;
    let era: Era | undefined;
    try {
      era = eraOf(headers, message);
      const handlers = era.kind === "modern" ? modern : legacy;
      const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
      if (handler === undefined) {
        // 2026-07-28 answers an unknown method with 404, so that a client can tell it from a legacy server (Streamable HTTP).
        throw new RpcError(RPC.methodNotFound, "Method not found", { status: era.kind === "modern" ? 404 : 200 });
      }
      const body = handler(message, era, log);
      if (observer !== undefined) {
        observe(observer, era, headers, message, true, toolCalled);
        toolCalled = null;
      }
      return { status: 200, body };
    } catch (error) {
      if (observer !== undefined) {
        observe(observer, era, headers, message, false, null);
        toolCalled = null;
      }
      if (error instanceof RpcError) return { status: error.status, body: error.toResponse(id) };
      // A refusal the service made for every kind of call (no snapshot loaded yet), in JSON-RPC's shape.
      if (error instanceof ApiError)
        return { status: 200, body: new RpcError(RPC.serverError, `${error.message} ${error.resolution}`).toResponse(id) };
      log.error({ err: error }, "mcp request failed");
      const internal = new RpcError(RPC.internalError, "Internal error: the server failed while answering; retry later.");
      return { status: 200, body: internal.toResponse(id) };
    }
  };
}

const KNOWN_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/**
 * The protocol version a request was served under, as a metrics label: the modern era's, or the
 * 2025 version its header (or its initialize) names, the oldest when none does (the 2025
 * revisions' rule); `unknown` when the request was refused before its version was settled.
 */
function versionLabel(era: Era | undefined, headers: IncomingHttpHeaders, request: Request): string {
  if (era === undefined) return "unknown";
  if (era.kind === "modern") return era.version;
  const header = headers["mcp-protocol-version"];
  if (typeof header === "string") return header;
  if (request.method === "initialize" && isObject(request.params)) {
    const asked = request.params.protocolVersion;
    return typeof asked === "string" && LEGACY_VERSIONS.includes(asked) ? asked : LATEST_LEGACY_VERSION;
  }
  return OLDEST_LEGACY_VERSION;
}

/** Reports one request, and the tool call it made if any, to the observer. */
function observe(
  observer: McpObserver,
  era: Era | undefined,
  headers: IncomingHttpHeaders,
  request: Request,
  ok: boolean,
  tool: { readonly name: string; readonly ok: boolean } | null,
): void {
  const version = versionLabel(era, headers, request);
  observer.mcpRequest(KNOWN_METHODS.has(request.method) ? request.method : "other", version, ok);
  if (tool !== null) observer.toolCall(tool.name, version, tool.ok);
}

/** server/discover's own fields (2026-07-28, Discovery); the era adds resultType, caching hints and the server's identity. */
interface DiscoverResultFields {
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly instructions: string;
}
