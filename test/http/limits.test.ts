import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BULK_JSON_PATH } from "../../src/contract.ts";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("with RATE_LIMIT_MAX=4", () => {
  const served = serveContent(`${FIXTURES}basic`, { RATE_LIMIT_MAX: "4" });

  // serveContent has already read /openapi.json once: 3 of the client's 4 requests remain.
  test("a client's first 4 requests in a minute are answered with the IETF RateLimit headers, the 5th gets 429 rate_limited with Retry-After", async () => {
    const seen: { status: number; policy: string | null; limit: string | null }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${served.current.url}/api/offerings`);
      await response.arrayBuffer();
      seen.push({
        status: response.status,
        policy: response.headers.get("ratelimit-policy"),
        limit: response.headers.get("ratelimit")?.replace(/t=\d+$/, "t=?") ?? null,
      });
    }
    assert.deepEqual(seen, [
      { status: 200, policy: '"minute";q=4;w=60', limit: '"minute";r=2;t=?' },
      { status: 200, policy: '"minute";q=4;w=60', limit: '"minute";r=1;t=?' },
      { status: 200, policy: '"minute";q=4;w=60', limit: '"minute";r=0;t=?' },
    ]);

    const refused = await fetch(`${served.current.url}/api/directory?q=plumb`);
    const body = await refused.json();
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get("ratelimit"), `"minute";r=0;t=${retryAfter}`);
    assert.equal(refused.headers.get("cache-control"), "no-store");
    assert.deepEqual(body, {
      error: {
        code: "rate_limited",
        message: "Too many requests from this client in the last minute.",
        resolution: `Wait ${retryAfter} seconds (Retry-After) before retrying, cache answers for at least a minute, and use ${BULK_JSON_PATH} for bulk reads.`,
      },
    });
    served.openapi.assertResponse("/api/directory", 429, body);
  });

  test("over its limit, a client gets 429 from pages and MCP too (MCP in JSON-RPC's shape), but health checks still answer", async () => {
    const page = await fetch(`${served.current.url}/contact`);
    await page.arrayBuffer();
    assert.equal(page.status, 429);

    // MCP checks the Host header against BASE_URL (http://localhost:3000), which fetch cannot set.
    const mcp = await raw(
      { port: Number(new URL(served.current.url).port) },
      "POST",
      { ...MCP_HEADERS, host: "localhost:3000" },
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    );
    const rpc = JSON.parse(mcp.body) as { jsonrpc: string; id: null; error: { code: number; message: string } };
    assert.equal(mcp.status, 429);
    const mcpRetryAfter = Number(mcp.headers["retry-after"]);
    assert.ok(Number.isInteger(mcpRetryAfter) && mcpRetryAfter >= 1 && mcpRetryAfter <= 60, `Retry-After ${mcpRetryAfter}`);
    assert.deepEqual({ jsonrpc: rpc.jsonrpc, id: rpc.id, code: rpc.error.code }, { jsonrpc: "2.0", id: null, code: -32000 });
    assert.match(rpc.error.message, /^Too many requests from this client in the last minute\. Wait \d+ seconds/);

    for (const path of ["/healthz", "/readyz"]) {
      const response = await fetch(`${served.current.url}${path}`);
      await response.arrayBuffer();
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("ratelimit"), null, path);
    }
  });
});

describe("with RATE_LIMIT_MAX=0", () => {
  const served = serveContent(`${FIXTURES}basic`, { RATE_LIMIT_MAX: "0" });

  test("rate limiting is off: 20 quick requests are all answered, without RateLimit headers", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`${served.current.url}/api/offerings`);
      await response.arrayBuffer();
      assert.equal(response.headers.get("ratelimit-policy"), null);
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, Array(20).fill(200));
  });
});

describe("health checks", () => {
  const served = serveContent(`${FIXTURES}basic`);

  test("/healthz says the process is up and /readyz which snapshot is served", async () => {
    const health = await fetch(`${served.current.url}/healthz`);
    assert.deepEqual(
      { status: health.status, cache: health.headers.get("cache-control"), body: await health.json() },
      { status: 200, cache: "no-store", body: { status: "ok" } },
    );
    const ready = await fetch(`${served.current.url}/readyz`);
    const manifest = served.current.service.current().manifest;
    assert.deepEqual(
      { status: ready.status, body: await ready.json() },
      { status: 200, body: { status: "ready", version: manifest.version, builtAt: manifest.builtAt, directory: "available" } },
    );
  });

  test("health checks are read-only: POST /healthz is 405 with Allow", async () => {
    const response = await fetch(`${served.current.url}/healthz`, { method: "POST" });
    await response.arrayBuffer();
    assert.equal(response.status, 405);
    assert.equal(response.headers.get("allow"), "GET, HEAD");
  });
});
