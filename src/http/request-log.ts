import type { FastifyInstance } from "fastify";

/**
 * One log line per request, when it is answered: the request id (fastify's `reqId`), method,
 * route (the pattern, e.g. `/api/directory/:identifier`, not the URL: no query text, no
 * identifiers from clients), status and duration in ms. Bodies and headers are never logged.
 * Replaces fastify's two lines per request (which carry the full URL).
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? "(no route)",
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      "request",
    );
    done();
  });
}
