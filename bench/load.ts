/**
 * One load test, run as its own process so the load generator does not share the benchmark's
 * event loop: autocannon against 127.0.0.1 for a fixed time after a warm-up (both stop by themselves), then one JSON
 * line of results on stdout. The scenario comes as a JSON file named by argv[2].
 */
import { readFile } from "node:fs/promises";
import autocannon from "autocannon";

export interface LoadSpec {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly connections: number;
  /** Load first run for this long and not measured: the server's JIT and index caches warm up, as on a server in service. */
  readonly warmupSeconds: number;
  readonly seconds: number;
  /** Cycled in order by every connection. */
  readonly requests: readonly { method: "GET" | "POST"; path: string; body?: string; headers?: Record<string, string> }[];
  readonly headers: Record<string, string>;
}

export interface LoadResult {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly bytesPerRequest: number;
}

const spec = JSON.parse(await readFile(process.argv[2] ?? "", "utf8")) as LoadSpec;
const drive = (seconds: number) =>
  autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    headers: spec.headers,
    requests: spec.requests.map((request) => ({ ...request })),
  });
if (spec.warmupSeconds > 0) await drive(spec.warmupSeconds);
const result = await drive(spec.seconds);
const output: LoadResult = {
  requests: result.requests.total,
  perSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
  bytesPerRequest: result.requests.total === 0 ? 0 : Math.round(result.throughput.total / result.requests.total),
};
console.log(JSON.stringify(output));
