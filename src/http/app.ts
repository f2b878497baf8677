import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Config } from "../config.ts";
import { invalidParameter, malformedRequest, offeringNotFound } from "../core/errors.ts";
import type { CatalogService } from "../core/service.ts";
import { registerMcp } from "../mcp/plugin.ts";
import { MAX_MESSAGE_BYTES } from "../mcp/transport.ts";
import { DIRECTORY_RULES } from "../schemas/parameters.ts";
import { registerCaching } from "./caching.ts";
import { clientErrorHandler, registerErrorHandling, registerNotFound, sendError } from "./errors.ts";
import { directoryRoutes } from "./routes/directory.ts";
import { offeringRoutes } from "./routes/offerings.ts";
import { openapiRoute } from "./routes/openapi.ts";
import { pageRoutes } from "./routes/pages.ts";

export interface AppOptions {
  service: CatalogService;
  config: Config;
  logger?: FastifyServerOptions["logger"];
}

/** Longer path parameters are refused by the router before any route sees them. */
const MAX_PARAM_LENGTH = 1000;

/** Builds the HTTP application; it never listens (see src/server.ts). */
export async function buildApp({ service, config, logger = false }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // No route reads a body larger than an MCP message.
    bodyLimit: MAX_MESSAGE_BYTES,
    // Slow or stalled clients must not hold sockets forever.
    requestTimeout: 10_000,
    connectionTimeout: 10_000,
    keepAliveTimeout: 5_000,
    return503OnClosing: true,
    clientErrorHandler,
    // Path parameters are checked by the route schemas; the router's own limit only guards
    // against absurd paths, and what it rejects is answered by frameworkErrors below.
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (error, request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH" && path.startsWith("/api/offerings/")) return sendError(reply, offeringNotFound());
      if (error.code === "FST_ERR_MAX_PARAM_LENGTH" && path.startsWith("/api/directory/"))
        return sendError(reply, invalidParameter("identifier", DIRECTORY_RULES));
      return sendError(reply, malformedRequest());
    },
    ajv: {
      customOptions: {
        // Strict parameters (contract §5): unknown ones are errors, never silently dropped;
        // scalars are coerced from query strings, but a repeated parameter stays an array.
        removeAdditional: false,
        coerceTypes: true,
        useDefaults: false,
        allErrors: false,
      },
    },
  });

  registerErrorHandling(app);
  registerCaching(app);
  directoryRoutes(app, service);
  offeringRoutes(app, service);
  openapiRoute(app, service);
  registerNotFound(app, pageRoutes(app, service));
  await registerMcp(app, { service, config });
  return app;
}
