import cluster from "node:cluster";
import { createServer, type Server } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { CACHE_CONTROL_NO_STORE } from "./contract.ts";
import type { AnswerCacheStats } from "./core/answer-cache.ts";
import type { Refusal } from "./core/errors.ts";
import type { ServedView } from "./snapshot/view.ts";

/**
 * Prometheus metrics (METRICS_PORT), on a listener of their own: never on the public port, so
 * what operators watch is not published with the directory. prom-client keeps the counters and
 * writes the text format; this module is loaded only when metrics are on (src/server.ts).
 *
 * What is counted:
 * - `http_request_duration_seconds{route,method,status_code}`: every answer, by route pattern
 *   (`/api/directory/:identifier`, not the path asked for, so the label set stays bounded; an
 *   unmatched path is `unmatched`), its `_count` being the request count;
 * - `mcp_requests_total{method,protocol_version,outcome}` and
 *   `mcp_tool_calls_total{tool,protocol_version,outcome}`;
 * - `http_requests_refused_total{reason}`: `rate_limited` (429) and `overloaded` (503, load shed);
 * - the snapshot served: `catalog_snapshot_info{version}`, `catalog_snapshot_age_seconds`,
 *   `catalog_snapshot_listings`, `catalog_snapshot_offerings`, `catalog_directory_available`;
 * - `catalog_snapshot_reloads_total{outcome}`: `served` or `rejected`;
 * - Node.js process metrics (CPU, memory, event-loop lag, GC, handles), prom-client's defaults.
 *
 * With WORKERS=n the supervising process serves the listener and sums its workers' metrics
 * (prom-client's AggregatorRegistry): `catalog_snapshot_info` then counts the workers serving
 * each version, the age and counts are the largest, and the directory is available only if it
 * is in every worker.
 */

/** Latency buckets in seconds: a search from the snapshot takes well under a millisecond. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The path of the metrics listener's one document. */
export const METRICS_PATH = "/metrics";

export type ReloadOutcome = "served" | "rejected";

export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Histogram<"route" | "method" | "status_code">;
  readonly #mcpRequests: Counter<"method" | "protocol_version" | "outcome">;
  readonly #toolCalls: Counter<"tool" | "protocol_version" | "outcome">;
  readonly #refused: Counter<"reason">;
  readonly #reloads: Counter<"outcome">;

  constructor(served: ServedView, answerStats: AnswerCacheStats) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Histogram({
      name: "http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route pattern, method and status.",
      labelNames: ["route", "method", "status_code"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#mcpRequests = new Counter({
      name: "mcp_requests_total",
      help: "MCP JSON-RPC requests, by method, protocol version and outcome (ok, or error: a JSON-RPC error).",
      labelNames: ["method", "protocol_version", "outcome"],
      registers,
    });
    this.#toolCalls = new Counter({
      name: "mcp_tool_calls_total",
      help: "MCP tool calls, by tool, protocol version and outcome (ok, or error: an isError result).",
      labelNames: ["tool", "protocol_version", "outcome"],
      registers,
    });
    this.#refused = new Counter({
      name: "http_requests_refused_total",
      help: "Requests refused before being answered: rate_limited (429) or overloaded (503, load shed).",
      labelNames: ["reason"],
      registers,
    });
    this.#reloads = new Counter({
      name: "catalog_snapshot_reloads_total",
      help: "Rebuilt snapshots seen: served, or rejected (the previous one kept serving).",
      labelNames: ["outcome"],
      registers,
    });
    for (const outcome of ["served", "rejected"] as const) this.#reloads.inc({ outcome }, 0);
    for (const reason of ["rate_limited", "overloaded"] as const) this.#refused.inc({ reason }, 0);
    snapshotGauges(served, registers);
    answerCacheMetrics(answerStats, registers);
    if (cluster.isWorker) {
      // A worker answers its supervisor's requests for metrics (listenForWorkers) with this
      // registry; constructing an AggregatorRegistry is what sets up that answering.
      AggregatorRegistry.setRegistries([this.registry]);
      new AggregatorRegistry();
    }
  }

  /** Counts every answer of `app` (added first, so it sees every route's answers, MCP's too). */
  observeRequests(app: FastifyInstance): void {
    const requests = this.#requests;
    // A callback hook, as src/http/request-log.ts's: it runs on every answer.
    app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      requests.observe(
        { route: request.routeOptions.url ?? "unmatched", method: request.method, status_code: reply.statusCode },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  mcpRequest(method: string, protocolVersion: string, ok: boolean): void {
    this.#mcpRequests.inc({ method, protocol_version: protocolVersion, outcome: ok ? "ok" : "error" });
  }

  toolCall(tool: string, protocolVersion: string, ok: boolean): void {
    this.#toolCalls.inc({ tool, protocol_version: protocolVersion, outcome: ok ? "ok" : "error" });
  }

  refused(reason: Refusal): void {
    this.#refused.inc({ reason });
  }

  reload(outcome: ReloadOutcome): void {
    this.#reloads.inc({ outcome });
  }

  /** Serves this process's metrics on `port`, each scrape logged at debug level; resolves once it listens. */
  listen(port: number, host: string, log: FastifyBaseLogger): Promise<Server> {
    return metricsListener(port, host, this.registry.contentType, async () => {
      const text = await this.registry.metrics();
      log.debug("metrics scraped");
      return text;
    });
  }
}

/** Serves the metrics of every worker, summed, on `port` (the supervising process of WORKERS=n). */
export function listenForWorkers(port: number, host: string): Promise<Server> {
  const workers = new AggregatorRegistry();
  return metricsListener(port, host, workers.contentType, () => workers.clusterMetrics());
}

/** GET /metrics on `port` (every other request 404, a failure 500 without detail); resolves once it listens. */
async function metricsListener(port: number, host: string, contentType: string, read: () => Promise<string>): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?", 1)[0];
    if (path !== METRICS_PATH || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": CACHE_CONTROL_NO_STORE }).end("Not found\n");
      return;
    }
    read().then(
      (text) => {
        response.writeHead(200, { "content-type": contentType, "cache-control": CACHE_CONTROL_NO_STORE });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      () => response.writeHead(500, { "cache-control": CACHE_CONTROL_NO_STORE }).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** Gauges read from the snapshot when scraped: nothing is done per request. */
function snapshotGauges(served: ServedView, registers: Registry[]): void {
  const snapshot = () => served.current()?.snapshot ?? null;
  new Gauge({
    name: "catalog_snapshot_info",
    help: "The snapshot served (1), by version; absent before the first one has loaded.",
    labelNames: ["version"],
    registers,
    collect() {
      this.reset();
      const current = snapshot();
      if (current !== null) this.set({ version: current.manifest.version }, 1);
    },
  });
  new Gauge({
    name: "catalog_snapshot_age_seconds",
    help: "Seconds since the snapshot served was built.",
    registers,
    aggregator: "max",
    collect() {
      const current = snapshot();
      this.set(current === null ? 0 : Math.max(0, (Date.now() - Date.parse(current.manifest.builtAt)) / 1000));
    },
  });
  new Gauge({
    name: "catalog_snapshot_listings",
    help: "Approved public listings in the snapshot served.",
    registers,
    aggregator: "max",
    collect() {
      this.set(snapshot()?.manifest.counts.businesses ?? 0);
    },
  });
  new Gauge({
    name: "catalog_snapshot_offerings",
    help: "Offerings in the snapshot served.",
    registers,
    aggregator: "max",
    collect() {
      this.set(snapshot()?.manifest.counts.offerings ?? 0);
    },
  });
  new Gauge({
    name: "catalog_directory_available",
    help: "1 when the directory can be searched, 0 when its endpoints answer 503.",
    registers,
    aggregator: "min",
    collect() {
      const current = snapshot();
      this.set(current !== null && current.directory !== null ? 1 : 0);
    },
  });
}

/**
 * The answer cache (src/core/answer-cache.ts), read when scraped: hits and misses since start,
 * and the bytes the served snapshot's cache holds. With WORKERS=n they are summed.
 */
function answerCacheMetrics(stats: AnswerCacheStats, registers: Registry[]): void {
  new Counter({
    name: "catalog_answer_cache_hits_total",
    help: "Answers sent from the answer cache (searches, facets, directory pages, MCP tool results).",
    registers,
    collect() {
      this.reset();
      this.inc(stats.hits);
    },
  });
  new Counter({
    name: "catalog_answer_cache_misses_total",
    help: "Answers made because the answer cache did not hold them (with the cache on).",
    registers,
    collect() {
      this.reset();
      this.inc(stats.misses);
    },
  });
  new Gauge({
    name: "catalog_answer_cache_bytes",
    help: "The bytes the answer cache of the snapshot served holds, its bound being CACHE_MAX_MB.",
    registers,
    collect() {
      this.set(stats.bytes);
    },
  });
}
