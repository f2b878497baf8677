import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fleetRequired } from "../helpers/fleet-tools.ts";
import { postMcp } from "../helpers/mcp-post.ts";
import { freePort } from "../helpers/ports.ts";
import { findPrometheus, type RunningPrometheus, startPrometheus } from "../helpers/prometheus.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * Prometheus metrics (METRICS_PORT) on a listener of their own, scraped by a real Prometheus
 * that the test starts on 127.0.0.1 with a scrape configuration it writes.
 */

const SEARCHES = 7;
const MISSING = 3;
const TOOL_CALLS = 2;

describe("metrics on METRICS_PORT", () => {
  let work: { path: string; remove: () => Promise<void> };
  let server: ServerProcess;
  let metricsUrl: string;

  before(async () => {
    work = await tempDir("metrics-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    server = await startServerProcess(join(work.path, "dist"), { METRICS_PORT: String(metricsPort), LOG_LEVEL: "debug" });
    await server.logs.waitFor("saying where the metrics are", (line) => line.msg === `metrics at http://127.0.0.1:${metricsPort}/metrics`);
  });
  after(async () => {
    await stopServerProcess(server);
    await work.remove();
  });

  test("the metrics listener serves /metrics in the Prometheus text format and nothing else; the public port has no /metrics", async () => {
    const metrics = await fetch(`${metricsUrl}/metrics`);
    assert.equal(metrics.status, 200);
    assert.equal(metrics.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const text = await metrics.text();
    for (const name of [
      "http_request_duration_seconds",
      "mcp_requests_total",
      "mcp_tool_calls_total",
      "http_requests_refused_total",
      "catalog_snapshot_info",
      "catalog_snapshot_age_seconds",
      "catalog_snapshot_listings",
      "catalog_directory_available",
      "catalog_snapshot_reloads_total",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, "m"), name);
    }
    assert.equal((await fetch(`${metricsUrl}/`)).status, 404);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
  });

  test("the answer cache's hits, misses and bytes are counted", async () => {
    // No search of the API's: the test below counts those.
    for (const path of ["/api/facets?q=plumb", "/api/facets?q=plumb", "/api/facets?q=roof", "/businesses?q=plumb"]) {
      assert.equal((await fetch(`${server.url}${path}`)).status, 200);
    }
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    assert.deepEqual([value("catalog_answer_cache_hits_total"), value("catalog_answer_cache_misses_total")], [1, 3]);
    assert.ok(value("catalog_answer_cache_bytes") > 0);
  });

  describe("scraped by Prometheus", () => {
    let prometheus: RunningPrometheus | undefined;
    let skipReason: string | undefined;

    before(async () => {
      const found = await findPrometheus();
      if (found.path === null) {
        skipReason = found.reasons.join("; ");
        if (fleetRequired()) throw new Error(`REQUIRE_FLEET_TESTS=1, but ${skipReason}`);
        return;
      }
      for (let i = 0; i < SEARCHES; i += 1) assert.equal((await fetch(`${server.url}/api/directory?q=plumb&offset=${i}`)).status, 200);
      for (let i = 0; i < MISSING; i += 1) assert.equal((await fetch(`${server.url}/api/directory/no-such-listing-${i}`)).status, 404);
      for (let i = 0; i < TOOL_CALLS; i += 1)
        assert.equal(
          (await postMcp(server.url, { method: "tools/call", params: { name: "search_businesses", arguments: { q: "plumb" } } })).status,
          200,
        );
      const scraped = (line: { msg: string }) => line.msg === "metrics scraped";
      const earlier = server.logs.lines.filter(scraped).length;
      prometheus = await startPrometheus(found.path, work.path, new URL(metricsUrl).host);
      // The second scrape starts only after the first one is stored: then every query below sees it.
      await server.logs.waitFor("saying Prometheus scraped twice", scraped, { count: earlier + 2 });
    });
    after(async () => {
      await prometheus?.stop();
    });

    test("Prometheus sees the target up", async (t) => {
      if (prometheus === undefined) return t.skip(skipReason);
      assert.deepEqual(await prometheus.query('up{job="catalog"}'), [
        [{ __name__: "up", instance: new URL(metricsUrl).host, job: "catalog" }, 1],
      ]);
    });

    test("the request counters match the requests sent, by route pattern and status", async (t) => {
      if (prometheus === undefined) return t.skip(skipReason);
      const count = async (promql: string) => (await prometheus?.query(promql))?.map(([, value]) => value);
      assert.deepEqual(await count('http_request_duration_seconds_count{route="/api/directory",method="GET",status_code="200"}'), [
        SEARCHES,
      ]);
      assert.deepEqual(await count('http_request_duration_seconds_count{route="/api/directory/:identifier",status_code="404"}'), [MISSING]);
      assert.deepEqual(await count('mcp_tool_calls_total{tool="search_businesses",protocol_version="2025-06-18",outcome="ok"}'), [
        TOOL_CALLS,
      ]);
      assert.deepEqual(await count("catalog_snapshot_listings"), [9]);
      assert.deepEqual(await count("catalog_directory_available"), [1]);
    });
  });
});

describe("metrics with WORKERS=2", () => {
  let work: { path: string; remove: () => Promise<void> };
  let server: ServerProcess;
  let metricsUrl: string;

  before(async () => {
    work = await tempDir("metrics-workers-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    server = await startServerProcess(join(work.path, "dist"), { METRICS_PORT: String(metricsPort), WORKERS: "2" });
    await server.logs.waitFor("saying both workers listen", (line) => line.msg === `Server listening at ${server.url}`, { count: 2 });
    await server.logs.waitFor(
      "saying where the metrics are",
      (line) => line.msg === `metrics of 2 workers at http://127.0.0.1:${metricsPort}/metrics`,
    );
  });
  after(async () => {
    await stopServerProcess(server);
    await work.remove();
  });

  test("the supervising process serves the workers' metrics summed: every request counted once, each worker's snapshot counted", async () => {
    for (let i = 0; i < SEARCHES; i += 1) assert.equal((await fetch(`${server.url}/api/directory?q=plumb&offset=${i}`)).status, 200);
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    const sample = (name: string) => text.split("\n").find((line) => line.startsWith(name));
    assert.equal(
      sample('http_request_duration_seconds_count{route="/api/directory",'),
      `http_request_duration_seconds_count{route="/api/directory",method="GET",status_code="200"} ${SEARCHES}`,
    );
    const { version } = (await (await fetch(`${server.url}/readyz`)).json()) as { version: string };
    assert.equal(sample("catalog_snapshot_info{"), `catalog_snapshot_info{version="${version}"} 2`);
    assert.equal(sample("catalog_snapshot_listings "), "catalog_snapshot_listings 9");
  });
});
