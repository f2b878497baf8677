/**
 * `npm run bench`: builds the sample content, starts the real server (src/server.ts) in its own
 * process on 127.0.0.1, and measures throughput and latency of each scenario over HTTP from this
 * process. Each scenario runs for a fixed time and stops by itself; the server is stopped at the end.
 *
 * BENCH_SECONDS (default 5) and BENCH_CONNECTIONS (default 16) tune the run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import { freePort } from "../test/helpers/ports.ts";
import { buildSnapshot, SAMPLE_CONTENT, tempDir } from "../test/helpers/snapshot.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
/** The scenario the others are compared with: a page the build wrote, answered from memory. */
const REFERENCE = "guide as Markdown";

interface Scenario {
  name: string;
  path: string;
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
}

const scenarios: Scenario[] = [
  { name: "directory search q=plumb", path: "/api/directory?q=plumb" },
  { name: "directory browse, page 5", path: "/api/directory?limit=25&offset=100" },
  { name: "business by slug", path: "/api/directory/cafe-creme-decor" },
  { name: "offerings list", path: "/api/offerings" },
  { name: "directory HTML page", path: "/businesses?q=plumb" },
  { name: REFERENCE, path: "/offerings/request-quotes", headers: { accept: "text/markdown" } },
  { name: "directory overview as Markdown", path: "/businesses/index.md" },
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

/** CPU time a process has used so far, in ms (Linux: utime + stime of /proc/<pid>/stat, in 1/100 s). */
async function cpuMs(pid: number | undefined): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** The resident memory of a process, in MiB (Linux). */
async function rssMiB(pid: number | undefined): Promise<string> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
    return Number.isFinite(kib) ? (kib / 1024).toFixed(0) : "?";
  } catch {
    return "?";
  }
}

/** Starts src/server.ts on `port` and waits until it answers; returns the process and the time to first answer. */
async function startServer(distDir: string, port: number): Promise<{ server: ChildProcess; readyMs: number }> {
  const started = performance.now();
  const server = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: new URL("..", import.meta.url).pathname,
    env: {
      ...process.env,
      DIST_DIR: distDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://localhost:${port}`,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/offerings`);
      await response.arrayBuffer();
      if (response.ok) return { server, readyMs: performance.now() - started };
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  server.kill("SIGKILL");
  throw new Error("the server did not answer within 6 s");
}

async function run(url: string, host: string, scenario: Scenario, dispatcher: Agent, serverPid: number | undefined) {
  const latencies: number[] = [];
  const cpuBefore = await cpuMs(serverPid);
  let errors = 0;
  let bytes = 0;
  const end = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const response = await request(`${url}${scenario.path}`, {
        dispatcher,
        method: scenario.method ?? "GET",
        // The server checks Host against BASE_URL (DNS-rebinding protection on /mcp).
        headers: { host, ...scenario.headers },
        body: scenario.body,
      });
      bytes = Number(response.headers["content-length"] ?? 0);
      // Read the whole body, but keep none of it: the client's own cost stays small.
      await response.body.dump({ limit: Number.POSITIVE_INFINITY });
      latencies.push(performance.now() - started);
      if (response.statusCode !== 200) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const serverMicros = ((await cpuMs(serverPid)) - cpuBefore) * 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / SECONDS,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    bytes,
    serverMicrosPerRequest: serverMicros / latencies.length,
  };
}

const work = await tempDir("catalog-bench-");
const port = await freePort();
const dist = join(work.path, "dist");
const buildStart = performance.now();
await buildSnapshot(SAMPLE_CONTENT, dist, `http://localhost:${port}`);
const buildMs = performance.now() - buildStart;
const { server, readyMs } = await startServer(dist, port);
const dispatcher = new Agent({ connections: CONNECTIONS, pipelining: 1 });

try {
  console.log(`Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per scenario, sample content; server in its own process`);
  console.log(
    `build ${buildMs.toFixed(0)} ms; server start to first answer ${readyMs.toFixed(0)} ms; server RSS after start ${await rssMiB(server.pid)} MiB\n`,
  );
  const results = new Map<string, Awaited<ReturnType<typeof run>>>();
  for (const scenario of scenarios) {
    results.set(scenario.name, await run(`http://127.0.0.1:${port}`, `localhost:${port}`, scenario, dispatcher, server.pid));
  }
  const reference = results.get(REFERENCE);
  const share = (value: number, of: number | undefined) => `${((value / (of ?? Number.NaN)) * 100).toFixed(0)}%`;
  console.log(
    "scenario".padEnd(36),
    "KB".padStart(5),
    "req/s".padStart(8),
    "vs page".padStart(8),
    "p50 ms".padStart(8),
    "p99 ms".padStart(8),
    "errors".padStart(7),
    "server µs/req".padStart(14),
    "vs page".padStart(8),
  );
  for (const [name, { perSecond, p50, p99, errors, bytes, serverMicrosPerRequest }] of results) {
    console.log(
      name.padEnd(36),
      (bytes / 1000).toFixed(1).padStart(5),
      perSecond.toFixed(0).padStart(8),
      share(perSecond, reference?.perSecond).padStart(8),
      p50.toFixed(2).padStart(8),
      p99.toFixed(2).padStart(8),
      String(errors).padStart(7),
      serverMicrosPerRequest.toFixed(1).padStart(14),
      share(serverMicrosPerRequest, reference?.serverMicrosPerRequest).padStart(8),
    );
  }
  console.log(
    `\n"vs page": a share of the "${REFERENCE}" figure. "server µs/req": CPU time the server process spent per request, whatever the load generator's own cost (reading a large body costs the load generator more than it costs the server). Server RSS after the run ${await rssMiB(server.pid)} MiB.`,
  );
} finally {
  await dispatcher.close();
  server.kill("SIGTERM");
  await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve(undefined)));
  await work.remove();
}
