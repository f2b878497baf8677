import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { Config } from "./config.ts";
import { cacheControlSuccess } from "./contract.ts";
import { AnswerCacheStats, answerCachePart } from "./core/answer-cache.ts";
import { buildRestAndPages } from "./http/rest-and-pages.ts";
import { fixedDocumentRoute } from "./http/routes/read-only.ts";
import { type McpOptions, registerMcp } from "./mcp/plugin.ts";
import { serverInfo } from "./mcp/server.ts";
import { serverCardDocuments } from "./mcp/server-card.ts";
import type { Metrics } from "./metrics.ts";
import type { ServedView } from "./snapshot/view.ts";

export interface ApplicationOptions {
  /** The snapshot's view to answer from: the live one (src/snapshot/reload.ts), or a test's. */
  served: ServedView;
  config: Config;
  logger?: FastifyServerOptions["logger"];
  /** The answer cache's counts, for metrics; counted into a fresh one when not given. */
  answerStats?: AnswerCacheStats;
  /** Prometheus metrics (METRICS_PORT); undefined when off, and then nothing is counted. */
  metrics?: Metrics;
  /** src/tracing's MCP spans, when tracing is on. */
  wrapMcpDispatch?: McpOptions["wrapDispatch"];
}

/**
 * The whole application: REST and pages (src/http) with the MCP endpoint and its server card
 * (src/mcp) beside them, on one fastify instance, sharing one answer cache per view
 * (CACHE_SECONDS, CACHE_MAX_MB). It never listens (see src/server.ts).
 */
export async function buildApplication({
  served,
  config,
  logger,
  answerStats,
  metrics,
  wrapMcpDispatch,
}: ApplicationOptions): Promise<FastifyInstance> {
  const answers = answerCachePart({
    seconds: config.cacheSeconds,
    maxBytes: config.cacheMaxBytes,
    stats: answerStats ?? new AnswerCacheStats(),
  });
  const app = await buildRestAndPages({
    served,
    answers,
    logger,
    rateLimitMax: config.rateLimitMax,
    trustProxy: config.trustProxy,
    cacheControl: cacheControlSuccess(config.staleWhileRevalidateSeconds, config.staleIfErrorSeconds),
    observe: metrics === undefined ? undefined : (scope) => metrics.observeRequests(scope),
    onRefused: metrics === undefined ? undefined : (reason) => metrics.refused(reason),
  });
  await registerMcp(app, { served, answers, config, observer: metrics, wrapDispatch: wrapMcpDispatch });
  for (const document of serverCardDocuments(config.baseUrl, serverInfo(config.baseUrl))) fixedDocumentRoute(app, document);
  return app;
}
