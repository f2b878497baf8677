import type { FastifyInstance, RouteOptions } from "fastify";
import { methodNotAllowed, repeatedParameter } from "../core/errors.ts";

/** Methods a read-only resource answers; every other method gets 405. */
const ALLOWED = ["GET", "HEAD"];
const ALLOW_HEADER = ALLOWED.join(", ");

/**
 * Registers a GET route (fastify adds HEAD) and a 405 for every other method on the same URL.
 * The 405 is decided in onRequest, before any body is read or parsed.
 */
export function readOnlyRoute(app: FastifyInstance, route: Omit<RouteOptions, "method">): void {
  const known = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  app.route({
    ...route,
    method: "GET",
    // Fastify turns a repeated parameter into an array; the contract answers it with its own code.
    preValidation: async (request) => {
      const query = request.query as Record<string, unknown>;
      for (const [name, value] of Object.entries(query)) {
        if (Array.isArray(value) && Object.hasOwn(known, name)) throw repeatedParameter(name);
      }
    },
  });
  app.route({
    method: app.supportedMethods.filter((method) => !ALLOWED.includes(method)),
    url: route.url,
    onRequest: async () => {
      throw methodNotAllowed(ALLOW_HEADER);
    },
    handler: async () => {
      throw methodNotAllowed(ALLOW_HEADER);
    },
  });
}
