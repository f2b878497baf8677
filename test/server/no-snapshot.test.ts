import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { postMcp } from "../helpers/mcp-post.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * A server started before any snapshot exists (a volume a sidecar or an init job fills after
 * start) stays up, says it is not ready, and serves the first build that lands.
 */

/** How soon the first snapshot must be served once it lands: the wait for the server's line fails after it. */
const FIRST_LOAD_LIMIT_MS = 5000;
const RETRY_AFTER = "30";

describe("a server started with no snapshot in DIST_DIR", () => {
  let work: { path: string; remove: () => Promise<void> };
  let dist: string;
  let server: ServerProcess;

  before(async () => {
    work = await tempDir("no-snapshot-");
    dist = join(work.path, "dist");
    server = await startServerProcess(dist);
  });
  after(async () => {
    await stopServerProcess(server);
    await work.remove();
  });

  test("says so in its log, and stays up: /healthz 200, /readyz 503 waiting", async () => {
    assert.ok(
      server.logs.lines.some(
        (line) => line.level === 40 && line.msg === `no snapshot in ${dist} yet; answering 503 until the first build lands there`,
      ),
    );
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal(ready.headers.get("retry-after"), RETRY_AFTER);
    assert.equal(ready.headers.get("cache-control"), "no-store");
    assert.deepEqual(await ready.json(), { status: "waiting", directory: "unavailable" });
  });

  for (const path of [
    "/api/directory?q=plumb",
    "/api/directory/leeds-plumbing-heating",
    "/api/offerings",
    "/openapi.json",
    "/",
    "/businesses",
    "/llms.txt",
    "/no-such-page",
  ]) {
    test(`GET ${path} answers 503 with Retry-After: 30, never an empty result`, async () => {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get("retry-after"), RETRY_AFTER);
      assert.equal(response.headers.get("cache-control"), "no-store");
      assert.deepEqual(await response.json(), {
        error: {
          code: "directory_unavailable",
          message: "The service is starting and has no data to answer from yet. This is not an empty result.",
          resolution: "Wait 30 seconds and retry.",
        },
      });
    });
  }

  test("a 503 while waiting is logged as its request line alone, never as an error with its stack", async () => {
    const response = await fetch(`${server.url}/api/facets?q=waiting`);
    assert.equal(response.status, 503);
    const [line] = await server.logs.waitFor(
      "the facets request's line",
      (entry) => entry.msg === "request" && entry.route === "/api/facets" && entry.status === 503,
    );
    assert.equal(line?.level, 30);
    assert.deepEqual(
      server.logs.lines.filter((entry) => entry.level >= 50).map((entry) => entry.msg),
      [],
    );
  });

  test("MCP still initializes, and its tools answer an isError directory_unavailable", async () => {
    const init = await postMcp(server.url, {
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    });
    assert.equal(init.status, 200);
    assert.equal((init.body as { result: { protocolVersion: string } }).result.protocolVersion, "2025-06-18");
    for (const [name, args] of [
      ["search_businesses", { q: "plumb" }],
      ["search_offerings", {}],
    ] as const) {
      const call = await postMcp(server.url, { method: "tools/call", params: { name, arguments: args } });
      assert.equal(call.status, 200);
      const { result } = call.body as { result: { isError: boolean; structuredContent: { error: { code: string } } } };
      assert.equal(result.isError, true, name);
      assert.equal(result.structuredContent.error.code, "directory_unavailable", name);
    }
    const list = await postMcp(server.url, { method: "resources/list", params: {} });
    assert.deepEqual(list.body, {
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32000,
        message: "The service is starting and has no data to answer from yet. This is not an empty result. Wait 30 seconds and retry.",
      },
    });
  });

  test("serves the first snapshot within 5 seconds of it landing, and is then ready", async () => {
    await buildSnapshot(`${FIXTURES}basic`, dist);
    const line = await server.logs.waitFor(
      "saying the first snapshot is served",
      (entry) => entry.level === 30 && / now served, the first since start$/.test(entry.msg),
      {
        timeoutMs: FIRST_LOAD_LIMIT_MS,
      },
    );
    const ready = await fetch(`${server.url}/readyz`);
    assert.equal(ready.status, 200);
    const body = (await ready.json()) as { status: string; version: string; builtAt: string; directory: string };
    assert.equal(body.status, "ready");
    assert.equal(body.directory, "available");
    assert.equal(line[0]?.msg, `snapshot ${body.version} (built ${body.builtAt}) now served, the first since start`);
    const search = await fetch(`${server.url}/api/directory?q=plumb`);
    assert.equal(search.status, 200);
    assert.ok(((await search.json()) as { items: unknown[] }).items.length > 0);
  });
});
