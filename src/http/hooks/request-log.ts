import type { FastifyInstance } from "fastify";

/** pino's loggers can tell whether a level is written; fastify's type of them does not say so. */
type LevelAware = { isLevelEnabled?: (level: string) => boolean };

/**
 * One log line per request, when it is answered: the request id (fastify's `reqId`), method,
 * route (the pattern, e.g. `/api/directory/:identifier`, not the URL: no query text, no
 * identifiers from clients), status and duration in ms. Bodies and headers are never logged.
 * Replaces fastify's two lines per request (which carry the full URL).
 *
 * The level is read once at start (LOG_LEVEL): when `info` is off (or there is no logger, as in
 * tests), the line would never be written, so the hook is not registered rather than run on
 * every request for nothing.
 */
export function registerRequestLog(app: FastifyInstance): void {
  // fastify's stand-in when logging is off has no levels: nothing is ever written.
  const { isLevelEnabled } = app.log as LevelAware;
  if (typeof isLevelEnabled !== "function") return;
  if (!isLevelEnabled.call(app.log, "info")) return;
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
