import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * Traces exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set: the real server process
 * sends them to a receiver of the test's own on 127.0.0.1, and each test waits for the span it
 * expects to arrive (or, for the flush on stop, for the process to exit).
 */

const SERVER = 2;

/** A W3C traceparent and the ids it names. */
function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
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
});
