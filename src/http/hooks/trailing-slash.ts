import type { FastifyInstance } from "fastify";
import { notFound } from "../../core/errors.ts";
import { isApiPath, sendError } from "../error-reply.ts";

/** A path with a trailing slash that names a page of this host: not `//host/` or `/\host/`, which a browser reads as another host. */
const TRAILING_SLASH = /^\/[^/\\].*\/$/s;

/**
 * A page asked for with a trailing slash (`/businesses/`, as the Markdown URL
 * `/businesses/index.md` suggests, and as a static host serves a folder) is the page without it:
 * a same-host permanent redirect, the query kept. One URL per page, whatever the router would
 * have matched (`/businesses/` would otherwise be a profile with an empty slug).
 *
 * API paths never redirect (a client there expects JSON, and may not follow a redirect with its
 * method): one with a trailing slash is answered at once with the JSON Error that says so,
 * whatever its method, before a route with an empty parameter could take it for a bad identifier.
 */
export function registerTrailingSlash(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const { url } = request;
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    if (path.length > 1 && path.endsWith("/")) {
      if (isApiPath(path)) {
        sendError(reply, notFound(true));
        return;
      }
      if ((request.method === "GET" || request.method === "HEAD") && TRAILING_SLASH.test(path)) {
        reply.redirect(`${path.replace(/\/+$/, "")}${query === -1 ? "" : url.slice(query)}`, 308);
        return;
      }
    }
    done();
  });
}
