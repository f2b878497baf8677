import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

/**
 * Traces exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set: the real server process
 * sends them to a receiver of the test's own on 127.0.0.1, and each test waits for the span it
 * expects to arrive (or, for the flush on stop, for the process to exit).
 */

const SERVER = 2;
const ERROR = 2;
/** The Host every MCP request names: the snapshot's BASE_URL (test/helpers/server-process.ts). */
const HOST = "localhost:3000";
const MODERN = "2026-07-28";

/** A W3C traceparent and the ids it names. */
function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

/** A 2026-07-28 tools/call, with `extraMeta` beside the protocol's own `_meta` fields. */
function toolCall(
  server: ServerProcess,
  id: number,
  name: string,
  args: Record<string, unknown>,
  extraMeta: Record<string, unknown>,
  extraHeaders: Record<string, string> = {},
) {
  const body = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, ...extraMeta },
    },
  };
  const headers = {
    host: HOST,
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": MODERN,
    "mcp-method": "tools/call",
    "mcp-name": name,
    ...extraHeaders,
  };
  return raw({ port: Number(new URL(server.url).port) }, "POST", headers, JSON.stringify(body));
}

describe("tracing on: spans exported over OTLP/HTTP", () => {
  let work: { path: string; remove: () => Promise<void> };
  let dist: string;
  let receiver: OtlpReceiver;
  let server: ServerProcess;

  before(async () => {
    work = await tempDir("tracing-");
    dist = `${work.path}/dist`;
    await buildSnapshot(`${FIXTURES}basic`, dist);
    receiver = new OtlpReceiver();
    await receiver.listen();
    server = await startServerProcess(dist, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "directory-under-test",
      // The SDK's batch delay, from its own variable: spans arrive soon after their request.
      OTEL_BSP_SCHEDULE_DELAY: "50",
    });
  });

  after(async () => {
    await stopServerProcess(server);
    await receiver.close();
    await work.remove();
  });

  test("a REST request continues the caller's trace in one span named after its route", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const response = await fetch(`${server.url}/api/directory?q=plumb&limit=2`, {
      headers: { traceparent: traceparent(traceId, "b7ad6b7169203331") },
    });
    assert.equal(response.status, 200);
    await response.arrayBuffer();

    const span = await receiver.waitFor("of the REST request", (received) => received.attributes["http.route"] === "/api/directory");
    assert.equal(span.name, "GET /api/directory");
    assert.equal(span.traceId, traceId);
    assert.equal(span.parentSpanId, "b7ad6b7169203331");
    assert.equal(span.kind, SERVER);
    assert.equal(span.scope, "@fastify/otel");
    assert.equal(span.attributes["http.route"], "/api/directory");
    assert.equal(span.attributes["http.request.method"], "GET");
    assert.equal(span.attributes["http.response.status_code"], 200);
    assert.equal(span.resource["service.name"], "directory-under-test");
    assert.deepEqual(
      receiver.spans.filter((received) => received.traceId === traceId).map((received) => received.name),
      ["GET /api/directory"],
    );
    assert.deepEqual(receiver.requests[0], { path: "/v1/traces", contentType: "application/json" });
  });

  test("an MCP tools/call continues the trace its _meta names, not the HTTP request's", async () => {
    const metaTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const httpTrace = "5d8e6f0a1b2c3d4e5f60718293a4b5c6";
    const response = await toolCall(
      server,
      7,
      "search_businesses",
      { q: "plumb", limit: 1 },
      { traceparent: traceparent(metaTrace, "00f067aa0ba902b7"), tracestate: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE" },
      { traceparent: traceparent(httpTrace, "0102030405060708") },
    );
    assert.equal(response.status, 200);
    assert.equal((JSON.parse(response.body) as { result: { isError?: boolean } }).result.isError, undefined);

    const span = await receiver.waitFor("of the tool call", (received) => received.attributes["jsonrpc.request.id"] === "7");
    const http = await receiver.waitFor("of the MCP POST", (received) => received.traceId === httpTrace);
    assert.equal(span.name, "tools/call search_businesses");
    assert.equal(span.traceId, metaTrace);
    assert.equal(span.parentSpanId, "00f067aa0ba902b7");
    assert.equal(span.traceState, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
    assert.equal(span.kind, SERVER);
    assert.deepEqual(span.attributes, {
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": "7",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp.protocol.version": MODERN,
      "gen_ai.tool.name": "search_businesses",
      "gen_ai.operation.name": "execute_tool",
    });
    assert.deepEqual(span.status, { code: 0, message: "" });
    // The HTTP request's span is linked, as the MCP conventions ask, and is not the parent.
    assert.equal(http.name, "POST /mcp");
    assert.equal(http.parentSpanId, "0102030405060708");
    assert.deepEqual(span.links, [{ traceId: httpTrace, spanId: http.spanId }]);
  });

  test("an invalid traceparent in _meta is ignored: the tool answers and its span is the HTTP request's child", async () => {
    const response = await toolCall(server, 8, "get_offering", { slug: "no-such-offering" }, { traceparent: "00-not-a-trace-01" });
    assert.equal(response.status, 200);
    assert.equal((JSON.parse(response.body) as { result: { isError?: boolean } }).result.isError, true);

    const span = await receiver.waitFor(
      "of the call with a bad traceparent",
      (received) => received.attributes["jsonrpc.request.id"] === "8",
    );
    const http = await receiver.waitFor("of its POST", (received) => received.spanId === span.parentSpanId);
    assert.equal(span.name, "tools/call get_offering");
    assert.equal(http.name, "POST /mcp");
    assert.equal(span.traceId, http.traceId);
    assert.deepEqual(span.links, []);
    // An isError result is a failed operation (error.type tool_error), though JSON-RPC succeeded.
    assert.equal(span.attributes["error.type"], "tool_error");
    assert.equal(span.status.code, ERROR);
  });

  test("a JSON-RPC error fails the MCP span with its code and message; an unknown tool's name stays out of the span's name", async () => {
    const response = await toolCall(server, 9, "book_job", {}, {});
    assert.equal(response.status, 200);
    const { error } = JSON.parse(response.body) as { error: { code: number; message: string } };
    assert.equal(error.code, -32602);

    const span = await receiver.waitFor("of the unknown tool's call", (received) => received.attributes["jsonrpc.request.id"] === "9");
    assert.equal(span.name, "tools/call");
    assert.deepEqual(span.attributes, {
      "mcp.method.name": "tools/call",
      "jsonrpc.request.id": "9",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "mcp.protocol.version": MODERN,
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
    assert.deepEqual(span.status, { code: ERROR, message: error.message });
  });
});

describe("tracing on: stopping the server", () => {
  test("SIGTERM sends the spans still queued before the process exits", async () => {
    const work = await tempDir("tracing-stop-");
    const receiver = new OtlpReceiver();
    await receiver.listen();
    let server: ServerProcess | undefined;
    try {
      await buildSnapshot(`${FIXTURES}basic`, `${work.path}/dist`);
      // Ten minutes between batches: only the flush on stop can send this span while the test runs.
      server = await startServerProcess(`${work.path}/dist`, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: "600000",
      });
      const traceId = "1e2d3c4b5a69788796a5b4c3d2e1f001";
      const response = await fetch(`${server.url}/api/offerings`, { headers: { traceparent: traceparent(traceId, "a1b2c3d4e5f60718") } });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      assert.equal(receiver.spans.length, 0, "no span is sent before the stop");

      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0);
      const names = receiver.spans.filter((span: ReceivedSpan) => span.traceId === traceId).map((span) => span.name);
      assert.deepEqual(names, ["GET /api/offerings"]);
    } finally {
      if (server !== undefined) await stopServerProcess(server);
      await receiver.close();
      await work.remove();
    }
  });

  test("a collector that never answers does not hold the stop: the server exits 0 and says the last spans were not sent", async () => {
    const work = await tempDir("tracing-silent-");
    // Takes the export and never answers it.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    let server: ServerProcess | undefined;
    try {
      await buildSnapshot(`${FIXTURES}basic`, `${work.path}/dist`);
      server = await startServerProcess(`${work.path}/dist`, {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        OTEL_BSP_SCHEDULE_DELAY: "600000",
      });
      const response = await fetch(`${server.url}/api/offerings`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();

      server.child.kill("SIGTERM");
      const [line] = await server.logs.waitFor("saying the spans were not sent", (entry) => entry.component === "opentelemetry");
      assert.deepEqual([line?.level, line?.msg], [40, "the last spans were not sent: the collector did not answer within 3000 ms"]);
      assert.equal(await server.exited, 0);
    } finally {
      if (server !== undefined) await stopServerProcess(server);
      silent.closeAllConnections();
      silent.close();
      await work.remove();
    }
  });
});
