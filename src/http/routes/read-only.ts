import type { FastifyInstance, RouteOptions } from "fastify";
import { READ_METHODS } from "../../api/routes.ts";
import { methodNotAllowed } from "../../core/errors.ts";

const ALLOWED = READ_METHODS.split(", ");

/**
 * Answers every method but GET, HEAD and OPTIONS on `url` with 405 and `Allow: GET, HEAD`. The
 * 405 is decided in onRequest, before any body is read or parsed. OPTIONS goes to the CORS
 * preflight route (src/http/hooks/security.ts), which refuses a request that is not a preflight with
 * the same 405.
 */
export function rejectOtherMethods(app: FastifyInstance, url: string): void {
  app.route({
    method: app.supportedMethods.filter((method) => !ALLOWED.includes(method) && method !== "OPTIONS"),
    url,
    onRequest: async () => {
      throw methodNotAllowed(READ_METHODS);
    },
    handler: async () => {
      throw methodNotAllowed(READ_METHODS);
    },
  });
}

/** Registers a GET route (fastify adds HEAD) and a 405 for every other method on the same URL. */
export function readOnlyRoute(app: FastifyInstance, route: Omit<RouteOptions, "method">): void {
  app.route({ ...route, method: "GET" });
  rejectOtherMethods(app, route.url);
}

/** A GET route answering `body` as `type`, the same for every request and cacheable (an ETag, 304s). */
export function fixedDocumentRoute(app: FastifyInstance, document: { path: string; type: string; body: string }): void {
  const body = Buffer.from(document.body);
  readOnlyRoute(app, {
    url: document.path,
    config: { cacheable: true },
    handler: async (_request, reply) => reply.type(document.type).send(body),
  });
}
