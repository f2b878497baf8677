/**
 * `npm run bench`: builds the sample content, serves it on 127.0.0.1 and measures throughput and
 * latency of a few endpoints over HTTP. Each scenario runs for a fixed time and stops by itself.
 * The load generator shares the server's process (and so its CPU), so figures are conservative.
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Agent, request } from "undici";
import { startServer } from "../test/helpers/server.ts";
import { buildSnapshot, SAMPLE_CONTENT, tempDir } from "../test/helpers/snapshot.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const scenarios: { name: string; path: string; method?: "GET" | "POST"; body?: string; headers?: Record<string, string> }[] = [
  { name: "directory search q=plumb", path: "/api/directory?q=plumb" },
  { name: "directory browse, page 5", path: "/api/directory?limit=25&offset=100" },
  { name: "business by slug", path: "/api/directory/cafe-creme-decor" },
  { name: "offerings list", path: "/api/offerings" },
  { name: "directory HTML page", path: "/businesses?q=plumb" },
  { name: "guide as Markdown", path: "/offerings/request-quotes", headers: { accept: "text/markdown" } },
  {
    name: "MCP tools/call search_businesses",
    path: "/mcp",
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_businesses", arguments: { q: "plumb" } } }),
  },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const work = await tempDir("catalog-bench-");
const dist = join(work.path, "dist");
const buildStart = performance.now();
await buildSnapshot(SAMPLE_CONTENT, dist);
const buildMs = performance.now() - buildStart;
const loadStart = performance.now();
const server = await startServer(dist, { BASE_URL: "http://localhost:3000", LOG_LEVEL: "silent" });
const loadMs = performance.now() - loadStart;
const dispatcher = new Agent({ connections: CONNECTIONS, pipelining: 1 });
// The server checks Host against BASE_URL (DNS-rebinding protection on /mcp).
const host = "localhost:3000";

console.log(`Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per scenario, sample content`);
console.log(
  `build ${buildMs.toFixed(0)} ms; snapshot load + app start ${loadMs.toFixed(0)} ms; RSS after start ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB\n`,
);
console.log("scenario".padEnd(36), "req/s".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7));

for (const scenario of scenarios) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const response = await request(`${server.url}${scenario.path}`, {
        dispatcher,
        method: scenario.method ?? "GET",
        headers: { host, ...scenario.headers },
        body: scenario.body,
      });
      await response.body.arrayBuffer();
      latencies.push(performance.now() - started);
      if (response.statusCode !== 200) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  latencies.sort((a, b) => a - b);
  console.log(
    scenario.name.padEnd(36),
    (latencies.length / SECONDS).toFixed(0).padStart(8),
    percentile(latencies, 50).toFixed(2).padStart(8),
    percentile(latencies, 99).toFixed(2).padStart(8),
    String(errors).padStart(7),
  );
}

await dispatcher.close();
await server.close();
await work.remove();
