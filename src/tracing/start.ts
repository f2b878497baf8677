/**
 * OpenTelemetry tracing, started by src/server.ts only when src/tracing/settings.ts says spans are
 * wanted; no other module imports OpenTelemetry, so with tracing off none of it is loaded.
 *
 * The SDK is the trace SDK for Node.js alone (NodeTracerProvider: W3C trace context and baggage
 * propagation, an AsyncLocalStorage context manager, and the OTEL_BSP_*, OTEL_TRACES_SAMPLER and
 * span limit variables), with the OTLP/HTTP exporter, which reads the OTEL_EXPORTER_OTLP_* variables.
 * Each HTTP request is one span from @fastify/otel, named after its route; each MCP request is
 * another (src/tracing/mcp.ts).
 */
import { setTimeout as delay } from "node:timers/promises";
import { FastifyOtelInstrumentation } from "@fastify/otel";
import { DiagLogLevel, diag } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { FastifyBaseLogger } from "fastify";
import packageJson from "../../package.json" with { type: "json" };
import type { Dispatch } from "../mcp/plugin.ts";
import { tracedDispatch } from "./mcp.ts";

/**
 * How long a stop waits for the last spans to be sent: a collector that does not answer must not
 * keep the server past its 10 s to stop (src/server.ts), nor make it exit 1.
 */
const SHUTDOWN_WAIT_MS = 3000;

export interface Tracing {
  /** The MCP dispatcher with a span for each request it answers. */
  wrapMcpDispatch: (dispatch: Dispatch) => Dispatch;
  /** Sends the SDK's own warnings and errors (a collector that cannot be reached, say) to the server's log. */
  logTo: (log: FastifyBaseLogger) => void;
  /** Ends tracing once the server has answered its last request: the spans still queued are sent first, for at most 3 s. */
  shutdown: () => Promise<void>;
}

export function startTracing(): Tracing {
  // service.name and service.version of this package, unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: packageJson.name, [ATTR_SERVICE_VERSION]: packageJson.version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register();

  // Attaches itself to the fastify instance src/http/rest-and-pages.ts creates (fastify's initialization
  // diagnostics channel), before any route exists. One span per request: no span per hook or handler.
  new FastifyOtelInstrumentation({
    registerOnInitialization: true,
    instrumentHooks: false,
    instrumentHandler: false,
    requestHook: (span, request) => {
      const route = request.routeOptions.url;
      span.updateName(route === undefined ? request.method : `${request.method} ${route}`);
    },
  });

  let logger: FastifyBaseLogger | undefined;
  return {
    wrapMcpDispatch: (dispatch) => tracedDispatch(dispatch, provider.getTracer(packageJson.name, packageJson.version)),
    logTo: (log) => {
      logger = log.child({ component: "opentelemetry" });
      const child = logger;
      diag.setLogger(
        {
          error: (message) => child.error(message),
          warn: (message) => child.warn(message),
          info: () => {},
          debug: () => {},
          verbose: () => {},
        },
        DiagLogLevel.WARN,
      );
    },
    shutdown: async () => {
      const sent = await Promise.race([provider.shutdown().then(() => true), delay(SHUTDOWN_WAIT_MS, false, { ref: false })]);
      if (!sent) logger?.warn(`the last spans were not sent: the collector did not answer within ${SHUTDOWN_WAIT_MS} ms`);
    },
  };
}
