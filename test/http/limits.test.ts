import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CACHE_CONTROL_NO_STORE, RATE_LIMIT_POLICY, RATE_LIMIT_WINDOW_SECONDS } from "../../src/contract.ts";
import { rateLimited } from "../../src/core/errors.ts";
import { RPC } from "../../src/mcp/rpc.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { type RunningServer, serveContent, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("with RATE_LIMIT_MAX=4", () => {
  // Started here rather than by serveContent, which reads /openapi.json: every request counts.
  let server: RunningServer;
  let remove: () => Promise<void>;
  before(async () => {
    const work = await tempDir();
    remove = work.remove;
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    server = await startServer(join(work.path, "dist"), { RATE_LIMIT_MAX: "4" });
  });
  after(async () => {
    await server.close();
    await remove();
  });

  const policy = `"${RATE_LIMIT_POLICY}";q=4;w=${RATE_LIMIT_WINDOW_SECONDS}`;

  test("a client's first 4 requests in a minute are answered with the IETF RateLimit headers, the 5th gets 429 rate_limited with Retry-After", async () => {
    const seen: { status: number; policy: string | null; limit: string | null }[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${server.url}/api/offerings`);
      await response.arrayBuffer();
      seen.push({
        status: response.status,
        policy: response.headers.get("ratelimit-policy"),
        limit: response.headers.get("ratelimit")?.replace(/t=\d+$/, "t=?") ?? null,
      });
    }
    assert.deepEqual(
      seen,
      [3, 2, 1, 0].map((left) => ({ status: 200, policy, limit: `"${RATE_LIMIT_POLICY}";r=${left};t=?` })),
    );

    const refused = await fetch(`${server.url}/api/directory?q=plumb`);
    const body = await refused.json();
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= RATE_LIMIT_WINDOW_SECONDS, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get("ratelimit"), `"${RATE_LIMIT_POLICY}";r=0;t=${retryAfter}`);
    assert.equal(refused.headers.get("cache-control"), CACHE_CONTROL_NO_STORE);
    assert.deepEqual(body, rateLimited(retryAfter).toBody());
    OpenApiValidator.of(server.snapshot.openapi).assertResponse("/api/directory", 429, body);
  });

  test("over its limit, a client gets 429 from pages and MCP too (MCP in JSON-RPC's shape), but health checks still answer", async () => {
    const page = await fetch(`${server.url}/contact`);
    await page.arrayBuffer();
    assert.equal(page.status, 429);

    // MCP checks the Host header against BASE_URL, which fetch cannot set.
    const mcp = await raw(
      { port: Number(new URL(server.url).port) },
      "POST",
      { ...MCP_HEADERS, host: new URL(TEST_BASE_URL).host },
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    );
    const retryAfter = Number(mcp.headers["retry-after"]);
    assert.equal(mcp.status, 429);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= RATE_LIMIT_WINDOW_SECONDS, `Retry-After ${retryAfter}`);
    const refusal = rateLimited(retryAfter);
    assert.deepEqual(JSON.parse(mcp.body), {
      jsonrpc: "2.0",
      id: null,
      error: { code: RPC.serverError, message: `${refusal.message} ${refusal.resolution}` },
    });

    for (const path of ["/healthz", "/readyz"]) {
      const response = await fetch(`${server.url}${path}`);
      await response.arrayBuffer();
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("ratelimit"), null, path);
    }
  });
});

describe("with RATE_LIMIT_MAX=0", () => {
  const served = serveContent(`${FIXTURES}basic`, { RATE_LIMIT_MAX: "0" });

  test("rate limiting is off: 20 quick requests are all answered, without RateLimit headers", async () => {
    const answers: [number, string | null][] = [];
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`${served.current.url}/api/offerings`);
      await response.arrayBuffer();
      answers.push([response.status, response.headers.get("ratelimit-policy")]);
    }
    assert.deepEqual(answers, Array(20).fill([200, null]));
  });
});
