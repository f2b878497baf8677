import type { IncomingHttpHeaders } from "node:http";
import type { Config } from "../config.ts";
import { HOST_HEADER_SHAPE, MCP_MAX_MESSAGE_BYTES, MCP_PATH, ORIGIN_SHAPE } from "../contract.ts";
import { isObject } from "./json.ts";
import { RPC } from "./rpc.ts";

/**
 * The HTTP rules of POST /mcp (interface §6) that hold in both eras. Everything a header can
 * decide alone is decided before the body is read; every refusal is a JSON-RPC error object
 * with `id: null`, and none of them echoes what the client sent. The headers that must agree
 * with the body (the protocol version, and in 2026-07-28 the method and name) are era.ts's.
 */

export interface RpcErrorBody {
  jsonrpc: "2.0";
  error: { code: number; message: string };
  id: null;
}

/** A refusal at the HTTP level: its status, its JSON-RPC error and any headers it needs. */
export class McpHttpError extends Error {
  readonly status: number;
  readonly rpcCode: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, rpcCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "McpHttpError";
    this.status = status;
    this.rpcCode = rpcCode;
    this.headers = headers;
  }

  toBody(): RpcErrorBody {
    return { jsonrpc: "2.0", error: { code: this.rpcCode, message: this.message }, id: null };
  }
}

export const refusals = {
  forbiddenHost: () => new McpHttpError(403, RPC.serverError, "Forbidden: the Host header does not name this server."),
  forbiddenOrigin: () => new McpHttpError(403, RPC.serverError, "Forbidden: requests from this Origin are not allowed."),
  methodNotAllowed: () =>
    new McpHttpError(
      405,
      RPC.serverError,
      `Method Not Allowed: POST each JSON-RPC message to ${MCP_PATH}; this server offers no GET event stream and no sessions to delete.`,
      { allow: "POST" },
    ),
  notAcceptable: () =>
    new McpHttpError(406, RPC.serverError, "Not Acceptable: the Accept header must list both application/json and text/event-stream."),
  unsupportedMediaType: () => new McpHttpError(415, RPC.serverError, "Unsupported Media Type: Content-Type must be application/json."),
  tooLarge: () =>
    new McpHttpError(
      413,
      RPC.invalidRequest,
      `Payload Too Large: a message may be at most ${MCP_MAX_MESSAGE_BYTES / 1024} KiB (${MCP_MAX_MESSAGE_BYTES} bytes).`,
    ),
  parseError: () => new McpHttpError(400, RPC.parseError, "Parse error: the body is not valid JSON."),
  batch: () => new McpHttpError(400, RPC.invalidRequest, "Invalid Request: batches are not supported; send one JSON-RPC message per POST."),
  notJsonRpc: () => new McpHttpError(400, RPC.invalidRequest, "Invalid Request: the body is not a JSON-RPC 2.0 message."),
  badRequest: () => new McpHttpError(400, RPC.invalidRequest, "Invalid Request: the HTTP request is malformed."),
  internal: () => new McpHttpError(500, RPC.internalError, "Internal error: the server failed while answering; retry later."),
};

/**
 * CORS for a browser page on an allowed origin (BASE_URL's or MCP_ALLOWED_ORIGINS): checkCaller
 * has already refused any other origin with 403, so the origin is echoed. The preflight allows
 * POST with the headers a client sends; answers let the page read the headers it may need.
 */
const CORS_ALLOW_HEADERS = "content-type, accept, mcp-protocol-version, mcp-method, mcp-name";
const CORS_EXPOSE_HEADERS = "mcp-protocol-version, retry-after, ratelimit, ratelimit-policy";
const CORS_MAX_AGE_SECONDS = 86_400;

/** The headers of the answer to an allowed origin's preflight. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": "POST",
    "access-control-allow-headers": CORS_ALLOW_HEADERS,
    "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
    vary: "Origin",
  };
}

/** The CORS headers of an answer to a POST from an allowed origin. */
export function corsHeaders(origin: string): Record<string, string> {
  return { "access-control-allow-origin": origin, "access-control-expose-headers": CORS_EXPOSE_HEADERS, vary: "Origin" };
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** `host` as URL normalises it (lower case, default port dropped), or undefined when it is no plain host. */
function normalHost(host: string, protocol: string): string | undefined {
  if (!HOST_HEADER_SHAPE.test(host)) return undefined;
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return undefined;
  }
}

function normalOrigin(origin: string): string | undefined {
  if (!ORIGIN_SHAPE.test(origin)) return undefined;
  try {
    return new URL(origin).origin;
  } catch {
    return undefined;
  }
}

/** Decides, from headers alone, whether a request may reach the MCP server. */
export interface RequestRules {
  /** DNS-rebinding protection, for every method: Host must be ours, Origin (when sent) too. */
  checkCaller(headers: IncomingHttpHeaders): void;
  /** The POST-only rules a header decides alone: size, Accept and Content-Type. The protocol version is the era's (era.ts). */
  checkPost(headers: IncomingHttpHeaders): void;
}

/** The rules for a configuration; the allowed hosts and origins are computed here, once. */
export function requestRules(config: Pick<Config, "baseUrl" | "mcpAllowedHosts" | "mcpAllowedOrigins">): RequestRules {
  const base = new URL(config.baseUrl);
  const baseHosts = LOOPBACK.includes(base.hostname)
    ? LOOPBACK.map((name) => (base.port === "" ? name : `${name}:${base.port}`))
    : [base.host];
  const hosts = new Set<string>();
  for (const host of [...baseHosts, ...config.mcpAllowedHosts]) {
    const normal = normalHost(host, base.protocol);
    if (normal !== undefined) hosts.add(normal);
  }
  const origins = new Set<string>();
  for (const origin of [...baseHosts.map((host) => `${base.protocol}//${host}`), ...config.mcpAllowedOrigins]) {
    const normal = normalOrigin(origin);
    if (normal !== undefined) origins.add(normal);
  }

  return {
    checkCaller(headers) {
      // A header already in normal form is found as it is; only others are parsed as URLs.
      const { host: rawHost, origin } = headers;
      if (rawHost === undefined || !hosts.has(rawHost)) {
        const host = rawHost === undefined ? undefined : normalHost(rawHost, base.protocol);
        if (host === undefined || !hosts.has(host)) throw refusals.forbiddenHost();
      }
      if (origin !== undefined && !origins.has(origin)) {
        const normal = normalOrigin(origin);
        if (normal === undefined || !origins.has(normal)) throw refusals.forbiddenOrigin();
      }
    },
    checkPost(headers) {
      const length = headers["content-length"];
      if (length !== undefined && Number(length) > MCP_MAX_MESSAGE_BYTES) throw refusals.tooLarge();
      const accepted = mediaTypes(headers.accept);
      if (!accepted.includes("application/json") || !accepted.includes("text/event-stream")) throw refusals.notAcceptable();
      if (mediaTypes(headers["content-type"]).join() !== "application/json") throw refusals.unsupportedMediaType();
    },
  };
}

/** The media types of an Accept or Content-Type value, lower case, without parameters. */
function mediaTypes(value: string | undefined): readonly string[] {
  if (value === undefined) return [];
  let types = parsedMediaTypes.get(value);
  if (types === undefined) {
    if (parsedMediaTypes.size >= MEDIA_TYPE_VALUES) parsedMediaTypes.clear();
    types = value.split(",").map((part) => (part.split(";", 1)[0] ?? "").trim().toLowerCase());
    parsedMediaTypes.set(value, types);
  }
  return types;
}

/**
 * Accept and Content-Type values already read, by their text: clients send the same few on every
 * POST, so each is split once. Bounded: past MEDIA_TYPE_VALUES distinct values it starts over.
 */
const parsedMediaTypes = new Map<string, readonly string[]>();
const MEDIA_TYPE_VALUES = 64;

/** A JSON-RPC 2.0 message, as far as the endpoint needs to know it. */
export type RpcMessage =
  | { readonly kind: "request"; readonly id: string | number; readonly method: string; readonly params?: unknown }
  | { readonly kind: "notification" }
  | { readonly kind: "response" };

const isId = (value: unknown) => typeof value === "string" || Number.isInteger(value);
const onlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) => Object.keys(value).every((key) => allowed.includes(key));

/** Params are an object, and their `_meta`, when present, an object whose progress token is an id. */
function validParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isObject(params)) return false;
  const meta = params._meta;
  return meta === undefined || (isObject(meta) && (meta.progressToken === undefined || isId(meta.progressToken)));
}

/**
 * The one JSON-RPC message a POST body may hold, checked by hand against JSON-RPC 2.0 as the
 * protocol's message schema states it (strict objects, integer or string ids, object params): it
 * runs on every request, and the schema library cost more than answering a search.
 */
export function toMessage(body: unknown): RpcMessage {
  if (Array.isArray(body)) throw refusals.batch();
  if (!isObject(body) || body.jsonrpc !== "2.0") throw refusals.notJsonRpc();
  if (typeof body.method === "string") {
    if (!validParams(body.params)) throw refusals.notJsonRpc();
    if (!("id" in body)) {
      if (!onlyKeys(body, ["jsonrpc", "method", "params"])) throw refusals.notJsonRpc();
      return { kind: "notification" };
    }
    if (!isId(body.id) || !onlyKeys(body, ["jsonrpc", "id", "method", "params"])) throw refusals.notJsonRpc();
    return { kind: "request", id: body.id as string | number, method: body.method, params: body.params };
  }
  if ("result" in body && isId(body.id) && isObject(body.result) && onlyKeys(body, ["jsonrpc", "id", "result"]))
    return { kind: "response" };
  const error = body.error;
  if (
    "error" in body &&
    isObject(error) &&
    Number.isInteger(error.code) &&
    typeof error.message === "string" &&
    (body.id === undefined || isId(body.id)) &&
    onlyKeys(body, ["jsonrpc", "id", "error"])
  ) {
    return { kind: "response" };
  }
  throw refusals.notJsonRpc();
}
