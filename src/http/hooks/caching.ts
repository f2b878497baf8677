import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fresh from "fresh";
import { CACHE_CONTROL_NO_STORE } from "../../contract.ts";
import { hashedTag } from "../kept.ts";

/** Whether the request's If-None-Match matches `tag` (RFC 9110 weak comparison: lists, `*` and `W/` count). */
function matchesIfNoneMatch(request: FastifyRequest, tag: string): boolean {
  const ifNoneMatch = request.headers["if-none-match"];
  return ifNoneMatch !== undefined && fresh({ "if-none-match": ifNoneMatch }, { etag: tag });
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** A successful answer gets Cache-Control, an ETag and conditional 304s. */
    cacheable?: boolean;
  }
}

/**
 * HTTP caching (interface §7): errors are `no-store`; successful answers of cacheable routes
 * get `cacheControl` (contract.ts's cacheControlSuccess) and an ETag, and `If-None-Match` is compared weakly (lists, `*` and
 * `W/` tags all count) to answer 304. A streamed answer (the bulk downloads) carries its ETag and
 * Content-Length already, and is not read at all for a 304 or a HEAD.
 */
export function registerCaching(app: FastifyInstance, cacheControl: string): void {
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 400) {
      reply.header("cache-control", CACHE_CONTROL_NO_STORE);
      return payload;
    }
    const preset = reply.getHeader("etag");
    const streamed = payload instanceof Readable && typeof preset === "string";
    if (
      reply.statusCode !== 200 ||
      request.routeOptions.config.cacheable !== true ||
      (!streamed && typeof payload !== "string" && !Buffer.isBuffer(payload))
    ) {
      return payload;
    }
    // Answers and documents made once per snapshot carry their tag already; a page rendered
    // for this request is hashed here.
    const tag = typeof preset === "string" ? preset : hashedTag(payload as string | Buffer);
    reply.header("cache-control", cacheControl);
    if (tag !== preset) reply.header("etag", tag);
    // Only If-None-Match decides: a request's own Cache-Control speaks to caches, not to us.
    const notModified = matchesIfNoneMatch(request, tag);
    if (notModified) reply.code(304);
    if (streamed && (notModified || request.method === "HEAD")) {
      (payload as Readable).destroy();
      // HEAD: an empty stream keeps the Content-Length the route set (fastify's HEAD handling
      // would otherwise read the whole body to discard it).
      if (request.method === "HEAD") return Readable.from([]);
      reply.removeHeader("content-length");
      return null;
    }
    // HEAD keeps the payload so fastify reports the 200's Content-Length, as RFC 9110 allows.
    return !notModified || request.method === "HEAD" ? payload : null;
  });
}
