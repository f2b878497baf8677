import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.ts";
import { readConfig } from "../../src/config.ts";
import { CatalogService } from "../../src/core/service.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { freePort } from "../helpers/ports.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

export interface McpTestServer {
  /** Where tests connect: http://127.0.0.1:<port>. */
  url: string;
  /** BASE_URL of the server and of its snapshot: http://localhost:<port>, the same host on loopback (contract §6). */
  baseUrl: string;
  port: number;
  distDir: string;
  app: FastifyInstance;
  close: () => Promise<void>;
}

/**
 * Builds the basic fixture and serves it as src/server.ts does, with BASE_URL naming the port
 * the server really listens on: Host and Origin checks (contract §6) compare against BASE_URL,
 * so the Inspector and the SDK client must reach the server under that host.
 */
export async function startMcpServer(
  options: { env?: Record<string, string>; prepare?: (distDir: string) => Promise<void> } = {},
): Promise<McpTestServer> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dir = await tempDir("mcp-test-");
  const distDir = `${dir.path}/dist`;
  await buildSnapshot(`${FIXTURES}basic`, distDir, baseUrl);
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
  const snapshot = await loadSnapshot(distDir);
  const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: config.cacheSeconds });
  const app = await buildApp({ service, config });
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
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: server.port, path: "/mcp", method, headers, setHost: false }, (response) => {
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
