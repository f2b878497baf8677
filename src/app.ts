import type { FastifyInstance, FastifyServerOptions } from "fastify";
import type { Config } from "./config.ts";
import { cacheControlSuccess } from "./contract.ts";
import type { CatalogService } from "./core/service.ts";
import { buildHttpApp } from "./http/app.ts";
import { fixedDocumentRoute } from "./http/read-only.ts";
import { type McpOptions, registerMcp } from "./mcp/plugin.ts";
import { serverInfo } from "./mcp/server.ts";
import { serverCardDocuments } from "./mcp/server-card.ts";
import type { Metrics } from "./metrics.ts";

export interface AppOptions {
  service: CatalogService;
  config: Config;
  logger?: FastifyServerOptions["logger"];
  /** Prometheus metrics (METRICS_PORT); undefined when off, and then nothing is counted. */
  metrics?: Metrics;
  /** src/tracing's MCP spans, when tracing is on. */
  wrapMcpDispatch?: McpOptions["wrapDispatch"];
}

/**
 * The whole application: REST and pages (src/http) with the MCP endpoint and its server card
 * (src/mcp) beside them, on one fastify instance. It never listens (see src/server.ts).
 */
export async function buildApp({ service, config, logger, metrics, wrapMcpDispatch }: AppOptions): Promise<FastifyInstance> {
  const app = await buildHttpApp({
    service,
    logger,
    rateLimitMax: config.rateLimitMax,
    trustProxy: config.trustProxy,
    cacheControl: cacheControlSuccess(config.staleWhileRevalidateSeconds, config.staleIfErrorSeconds),
    observe: metrics === undefined ? undefined : (scope) => metrics.observeRequests(scope),
    onRefused: metrics === undefined ? undefined : (reason) => metrics.refused(reason),
  });
  await registerMcp(app, { service, config, observer: metrics, wrapDispatch: wrapMcpDispatch });
  for (const document of serverCardDocuments(config.baseUrl, serverInfo(config.baseUrl))) fixedDocumentRoute(app, document);
  return app;
}
