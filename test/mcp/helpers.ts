import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  type Implementation,
  isInitializeRequest,
  type JSONRPCMessage,
  type ListResourcesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance } from "fastify";
import { buildApplication } from "../../src/application.ts";
import { readConfig } from "../../src/config.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
import { freePort } from "../helpers/ports.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/** The 2025 (handshake) versions, served to the SDK's v1 client as before 2026-07-28. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const MODERN_VERSION = "2026-07-28";

export interface McpTestServer {
  /** Where tests connect: http://127.0.0.1:<port>. */
  url: string;
  /** BASE_URL of the server and of its snapshot: http://localhost:<port>, the same host on loopback (interface §6). */
  baseUrl: string;
  port: number;
  distDir: string;
  app: FastifyInstance;
  close: () => Promise<void>;
}

/**
 * Builds the basic fixture and serves it as src/server.ts does, with BASE_URL naming the port
 * the server really listens on: Host and Origin checks (interface §6) compare against BASE_URL,
 * so the Inspector and the SDK client must reach the server under that host.
 */
export async function startMcpServer(
  options: { env?: Record<string, string>; prepare?: (distDir: string) => Promise<void>; content?: string } = {},
): Promise<McpTestServer> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dir = await tempDir("mcp-test-");
  const distDir = `${dir.path}/dist`;
  await buildSnapshot(options.content ?? `${FIXTURES}basic`, distDir, baseUrl);
  await options.prepare?.(distDir);
  // Rate limiting is off unless a test turns it on, as in test/helpers/server.ts.
  const config = readConfig({
    CACHE_SECONDS: "60",
    RATE_LIMIT_MAX: "0",
    ...options.env,
    BASE_URL: baseUrl,
    PORT: String(port),
    DIST_DIR: distDir,
  });
  const snapshot = await loadSnapshot(distDir, { listingsInMemoryBytes: config.listingsInMemoryBytes });
  const view = new SnapshotView(snapshot);
  const app = await buildApplication({ served: { current: () => view }, config });
  await app.listen({ port, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${port}`,
    baseUrl,
    port,
    distDir,
    app,
    close: async () => {
      await app.close();
      await dir.remove();
    },
  };
}

/**
 * The SDK's client transport, asking for `protocolVersion` in initialize (the SDK's Client
 * always asks for its latest), so each supported version can be tested end to end.
 */
class VersionedTransport extends StreamableHTTPClientTransport {
  readonly #protocolVersion: string;

  constructor(url: URL, protocolVersion: string) {
    super(url);
    this.#protocolVersion = protocolVersion;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isInitializeRequest(message)) {
      return super.send({ ...message, params: { ...message.params, protocolVersion: this.#protocolVersion } }, options);
    }
    return super.send(message, options);
  }
}

/** The SDK's Client connected over HTTP, having negotiated `protocolVersion`. */
export async function connectClient(
  server: McpTestServer,
  protocolVersion: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new VersionedTransport(new URL(`${server.url}/mcp`), protocolVersion);
  const client = new Client({ name: "mcp-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

/**
 * What the tests ask of a connected MCP client, whichever SDK line and era: the SDK's v1 client
 * (2025 versions only) and its v2 client (2026-07-28, or the 2025 handshake in its legacy mode)
 * both fit it.
 */
export interface McpSession {
  /** The era the connection uses and the protocol version it negotiated. */
  readonly era: "legacy" | "modern";
  readonly protocolVersion: string | undefined;
  listTools(): Promise<ListToolsResult>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<CallToolResult>;
  listResources(): Promise<ListResourcesResult>;
  readResource(params: { uri: string }): Promise<ReadResourceResult>;
  serverVersion(): Implementation | undefined;
  serverCapabilities(): ServerCapabilities | undefined;
  instructions(): string | undefined;
  /** What server/discover answered, when the client called it (the v2 client does in its modern era). */
  discovered(): { supportedVersions: string[] } | undefined;
  close(): Promise<void>;
}

/** How a test connects: the client's SDK line, and the version or negotiation it asks for. */
export type McpClientKind =
  | { readonly sdk: "v1"; readonly version: (typeof PROTOCOL_VERSIONS)[number] }
  | { readonly sdk: "v2"; readonly mode: "legacy" | "auto" | { readonly pin: string } };

export function clientLabel(kind: McpClientKind): string {
  if (kind.sdk === "v1") return `${kind.version} with the SDK's v1 client`;
  const mode = typeof kind.mode === "string" ? `${kind.mode} negotiation` : `pinned to ${kind.mode.pin}`;
  return `the SDK's v2 client, ${mode}`;
}

/** A connected session of `kind` against `server`. */
export async function connectSession(server: McpTestServer, kind: McpClientKind): Promise<McpSession> {
  if (kind.sdk === "v1") {
    const { client, transport } = await connectClient(server, kind.version);
    return {
      era: "legacy",
      protocolVersion: transport.protocolVersion,
      listTools: () => client.listTools(),
      callTool: (params) => client.callTool(params) as Promise<CallToolResult>,
      listResources: () => client.listResources(),
      readResource: (params) => client.readResource(params),
      serverVersion: () => client.getServerVersion(),
      serverCapabilities: () => client.getServerCapabilities(),
      instructions: () => client.getInstructions(),
      discovered: () => undefined,
      close: () => client.close(),
    };
  }
  const client = new ClientV2({ name: "mcp-tests", version: "1.0.0" }, { versionNegotiation: { mode: kind.mode } });
  await client.connect(new TransportV2(new URL(`${server.url}/mcp`)));
  // The v2 SDK's result types are its own; their JSON is the same protocol's, so they are read as v1's.
  const as = <T>(value: Promise<unknown>) => value as Promise<T>;
  return {
    era: client.getProtocolEra() ?? "legacy",
    protocolVersion: client.getNegotiatedProtocolVersion(),
    listTools: () => as(client.listTools()),
    callTool: (params) => as(client.callTool(params)),
    listResources: () => as(client.listResources()),
    readResource: (params) => as(client.readResource(params)),
    serverVersion: () => client.getServerVersion() as Implementation | undefined,
    serverCapabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
    instructions: () => client.getInstructions(),
    discovered: () => client.getDiscoverResult(),
    close: () => client.close(),
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Headers a well-behaved client sends with every POST. */
export function postHeaders(server: McpTestServer, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const headers: Record<string, string | undefined> = {
    host: `localhost:${server.port}`,
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    ...extra,
  };
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** One HTTP request with exactly these headers (fetch cannot set Host). */
export function raw(
  server: Pick<McpTestServer, "port">,
  method: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  path = "/mcp",
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: server.port, path, method, headers, setHost: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** POSTs one JSON body with a client's usual headers. */
export function post(server: McpTestServer, body: unknown, extra: Record<string, string | undefined> = {}): Promise<RawResponse> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return raw(server, "POST", postHeaders(server, extra), text);
}

/** A REST answer for comparison: status and parsed JSON body. */
export async function rest(server: McpTestServer, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, body: await response.json() };
}

/** The JSON-RPC error body every HTTP-level refusal carries. */
export function rpcError(code: number, message: string): { jsonrpc: "2.0"; error: { code: number; message: string }; id: null } {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}
