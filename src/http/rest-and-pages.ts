import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from "fastify";
import { CACHE_CONTROL_SUCCESS, DIRECTORY_API_PATH, MCP_MAX_MESSAGE_BYTES, OFFERINGS_API_PATH } from "../contract.ts";
import type { AnswerCache } from "../core/answer-cache.ts";
import { invalidParameter, malformedRequest, offeringNotFound } from "../core/errors.ts";
import { AJV_OPTIONS, REQUEST_VALIDATION } from "../schemas/ajv.ts";
import { DIRECTORY_RULES } from "../schemas/parameters.ts";
import type { Part, ServedView } from "../snapshot/view.ts";
import { isApiPath, sendError } from "./error-reply.ts";
import { registerCaching } from "./hooks/caching.ts";
import { clientErrorHandler, registerErrorHandling, registerNotFound } from "./hooks/errors.ts";
import { type LimitOptions, registerLimits } from "./hooks/limits.ts";
import { registerRequestLog } from "./hooks/request-log.ts";
import { registerSecurity } from "./hooks/security.ts";
import { registerTrailingSlash } from "./hooks/trailing-slash.ts";
import { notFoundPage } from "./page-replies.ts";
import { registerHealth } from "./routes/health.ts";
import { pagesPlugin } from "./routes/pages.ts";
import { restRoutes } from "./routes/rest.ts";

export interface RestAndPagesOptions {
  /** The snapshot's view to answer from. */
  served: ServedView;
  /** The view's answer cache (src/core/answer-cache.ts), shared with MCP. */
  answers: Part<AnswerCache | null>;
  logger?: FastifyServerOptions["logger"];
  /** Requests per client per minute before 429; 0 (the default here) turns rate limiting off. */
  rateLimitMax?: number;
  /** fastify's trustProxy: which proxies to believe about the client's address. */
  trustProxy?: boolean | number | string[];
  /** The Cache-Control of a successful answer; CACHE_CONTROL_SUCCESS unless the operator set the stale times. */
  cacheControl?: string;
  /** Watches the app's answers before any other hook is added (metrics: src/metrics.ts). */
  observe?: (app: FastifyInstance) => void;
  /** Told of every request refused by the rate limit or load shedding (metrics). */
  onRefused?: LimitOptions["onRefused"];
}

/** Longer path parameters are refused by the router before any route sees them. */
const MAX_PARAM_LENGTH = 1000;

/**
 * The fastify application with the REST routes and the pages; src/application.ts adds MCP. It never
 * listens (see src/server.ts).
 */
export async function buildRestAndPages({
  served,
  answers,
  logger = false,
  rateLimitMax = 0,
  trustProxy = false,
  cacheControl = CACHE_CONTROL_SUCCESS,
  observe,
  onRefused,
}: RestAndPagesOptions): Promise<FastifyInstance> {
  const notFound = notFoundPage(served);
  const app = Fastify({
    logger,
    // src/http/request-log.ts writes one line per request instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A hop count trusts that many proxies nearest to the server.
    trustProxy: typeof trustProxy === "number" ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // No route reads a body larger than an MCP message (the largest body the service accepts).
    bodyLimit: MCP_MAX_MESSAGE_BYTES,
    // Slow or stalled clients must not hold sockets forever.
    requestTimeout: 10_000,
    connectionTimeout: 10_000,
    keepAliveTimeout: 5_000,
    // While closing, a request that arrives on an open keep-alive connection is answered as usual
    // (with Connection: close), not with fastify's own 503 body; /readyz answers 503 meanwhile.
    return503OnClosing: false,
    clientErrorHandler,
    // Path parameters are checked by the route schemas; the router's own limit only guards
    // against absurd paths, and what it rejects is answered by frameworkErrors below.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (error, request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
        if (path.startsWith(`${OFFERINGS_API_PATH}/`)) return sendError(reply, offeringNotFound());
        if (path.startsWith(`${DIRECTORY_API_PATH}/`)) return sendError(reply, invalidParameter("identifier", DIRECTORY_RULES));
      }
      // No page has a name this long, or one that does not even decode (`%E0%A4%A`): outside the
      // API and MCP it is the 404 page, as any unknown page is. The API answers a JSON 400.
      if (!isApiPath(path) && (error.code === "FST_ERR_MAX_PARAM_LENGTH" || error.code === "FST_ERR_BAD_URL")) {
        return notFound(request, reply);
      }
      return sendError(reply, malformedRequest());
    },
    // Integers are read from query strings by src/http/routes/rest.ts, which accepts decimal digits only.
    ajv: { customOptions: { ...AJV_OPTIONS, ...REQUEST_VALIDATION } },
  });

  // The hooks that cut across routes, then the routes.
  observe?.(app);
  registerErrorHandling(app);
  registerRequestLog(app);
  await registerSecurity(app);
  await registerLimits(app, { rateLimitMax, onRefused });
  registerCaching(app, cacheControl);
  registerTrailingSlash(app);
  registerNotFound(app, notFound);

  registerHealth(app, served);
  restRoutes(app, served, answers);
  await app.register(pagesPlugin, { served, answers });
  return app;
}
