import type { IncomingHttpHeaders } from "node:http";
import { MCP_LEGACY_VERSIONS, MCP_MODERN_VERSIONS, MCP_PROTOCOL_VERSIONS } from "../contract.ts";
import { isObject } from "./json.ts";
import { RPC, RpcError } from "./rpc.ts";

/**
 * Which revision's rules serve a request on the dual-era endpoint (interface §6; MCP 2026-07-28,
 * Versioning: Backward Compatibility). A request that declares a modern version is served by
 * 2026-07-28; an `initialize`, a 2025 `MCP-Protocol-Version` or no version at all (2025-03-26
 * clients send none) by the 2025 rules. The checks here are the ones 2026-07-28 makes of every
 * request before its method runs (Streamable HTTP: Server Validation; Base Protocol: `_meta`).
 */
export type Era = { readonly kind: "legacy" } | { readonly kind: "modern"; readonly version: string };

/** The `_meta` keys 2026-07-28 reserves for per-request and per-result protocol fields. */
export const META_KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

const LEGACY: Era = { kind: "legacy" };
const MODERN: ReadonlyMap<string, Era> = new Map(MCP_MODERN_VERSIONS.map((version) => [version, { kind: "modern", version }]));
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(MCP_LEGACY_VERSIONS);

/** The methods whose `Mcp-Name` header repeats a body field, and that field. */
const NAMED: Readonly<Record<string, "name" | "uri">> = { "tools/call": "name", "resources/read": "uri", "prompts/get": "name" };

/** A header value as 2026-07-28 allows it: visible ASCII, space and tab. */
const PLAIN_HEADER = /^[\t\x20-\x7e]*$/;
/** The Base64 sentinel form; a value that has its markers but not valid Base64 between them is malformed. */
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const eraErrors = {
  unsupportedVersion: (requested: string) =>
    new RpcError(RPC.unsupportedProtocolVersion, "Unsupported protocol version", {
      status: 400,
      data: { supported: [...MCP_PROTOCOL_VERSIONS], requested },
    }),
  headerMismatch: (detail: string) => new RpcError(RPC.headerMismatch, `Header mismatch: ${detail}`, { status: 400 }),
  missingMeta: () =>
    new RpcError(
      RPC.invalidParams,
      `Invalid params: a ${MCP_MODERN_VERSIONS[0]} request carries params._meta with "${META_KEYS.protocolVersion}" (a string) and "${META_KEYS.clientCapabilities}" (an object), and "${META_KEYS.clientInfo}", when present, as {name, version}.`,
      { status: 400 },
    ),
};

/** The one value of a header, or undefined; a header sent twice is joined by Node with ", " and so never matches. */
function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}

/** A `Mcp-Name` value decoded from its Base64 sentinel form, or undefined when it is malformed. */
function decodedName(value: string): string | undefined {
  if (!PLAIN_HEADER.test(value)) return undefined;
  const encoded = SENTINEL.exec(value)?.[1];
  if (encoded === undefined) return value;
  if (!BASE64.test(encoded)) return undefined;
  const bytes = Buffer.from(encoded, "base64");
  const text = bytes.toString("utf8");
  // Bytes that are not UTF-8 cannot be the body's value.
  return Buffer.from(text, "utf8").equals(bytes) ? text : undefined;
}

/** The protocol version a request's `_meta` declares, if any: the mark of a modern request. */
function declaredVersion(params: unknown): unknown {
  return isObject(params) && isObject(params._meta) ? params._meta[META_KEYS.protocolVersion] : undefined;
}

/**
 * The era of a message with no answer (a notification or a client's response): its version is
 * checked, nothing else, since 2026-07-28 defines no header rules for them.
 */
export function checkUnanswered(headers: IncomingHttpHeaders): void {
  const version = headers["mcp-protocol-version"];
  if (version === undefined) return;
  if (typeof version !== "string" || !(MODERN.has(version) || LEGACY_VERSIONS.has(version)))
    throw eraErrors.unsupportedVersion(String(version));
}

/** The era that serves `request`, or throws the RpcError that refuses it. */
export function eraOf(headers: IncomingHttpHeaders, request: { readonly method: string; readonly params?: unknown }): Era {
  const rawVersion = headers["mcp-protocol-version"];
  const declared = declaredVersion(request.params);
  if (rawVersion === undefined) {
    if (declared === undefined) return LEGACY;
    throw eraErrors.headerMismatch(
      `the MCP-Protocol-Version header is missing; it must repeat params._meta["${META_KEYS.protocolVersion}"].`,
    );
  }
  const version = String(rawVersion);
  const modern = MODERN.get(version);
  if (modern === undefined) {
    if (!LEGACY_VERSIONS.has(version)) throw eraErrors.unsupportedVersion(version);
    if (declared !== undefined && declared !== version)
      throw eraErrors.headerMismatch(`the MCP-Protocol-Version header does not match params._meta["${META_KEYS.protocolVersion}"].`);
    return LEGACY;
  }
  checkModern(headers, request, version);
  return modern;
}

/** 2026-07-28's checks of a request's `_meta` and of the headers that mirror its body. */
function checkModern(headers: IncomingHttpHeaders, request: { readonly method: string; readonly params?: unknown }, version: string): void {
  const meta = isObject(request.params) && isObject(request.params._meta) ? request.params._meta : undefined;
  const declared = meta?.[META_KEYS.protocolVersion];
  const clientInfo = meta?.[META_KEYS.clientInfo];
  if (
    typeof declared !== "string" ||
    !isObject(meta?.[META_KEYS.clientCapabilities]) ||
    (clientInfo !== undefined && !(isObject(clientInfo) && typeof clientInfo.name === "string" && typeof clientInfo.version === "string"))
  ) {
    throw eraErrors.missingMeta();
  }
  if (declared !== version)
    throw eraErrors.headerMismatch(`the MCP-Protocol-Version header does not match params._meta["${META_KEYS.protocolVersion}"].`);

  const method = header(headers, "mcp-method");
  if (method === undefined) throw eraErrors.headerMismatch("the Mcp-Method header is missing; it must repeat the request's method.");
  if (method !== request.method) throw eraErrors.headerMismatch("the Mcp-Method header does not match the request's method.");

  const field = Object.hasOwn(NAMED, request.method) ? NAMED[request.method] : undefined;
  if (field === undefined) return;
  const rawName = header(headers, "mcp-name");
  if (rawName === undefined) throw eraErrors.headerMismatch(`the Mcp-Name header is missing; it must repeat params.${field}.`);
  const name = decodedName(rawName);
  if (name === undefined) throw eraErrors.headerMismatch("the Mcp-Name header is malformed: plain ASCII, or =?base64?…?= for other text.");
  const value = isObject(request.params) ? request.params[field] : undefined;
  if (name !== value) throw eraErrors.headerMismatch(`the Mcp-Name header does not match params.${field}.`);
}
