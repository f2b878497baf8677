import etag from "etag";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fresh from "fresh";

/** What clients and shared caches may do with a successful directory or catalog answer. */
export const CACHE_CONTROL_SUCCESS = "public, max-age=60";
export const CACHE_CONTROL_ERROR = "no-store";

const tagsBySnapshot = new WeakMap<object, Map<string, string>>();

/**
 * The ETag of a document that cannot change within a snapshot (a page, openapi.json): hashed
 * on first use and kept for the snapshot's life, instead of on every response.
 */
export function documentTag(snapshot: object, key: string, body: string): string {
  let tags = tagsBySnapshot.get(snapshot);
  if (tags === undefined) {
    tags = new Map();
    tagsBySnapshot.set(snapshot, tags);
  }
  let tag = tags.get(key);
  if (tag === undefined) {
    tag = etag(body);
    tags.set(key, tag);
  }
  return tag;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** A successful answer gets Cache-Control, an ETag and conditional 304s. */
    cacheable?: boolean;
  }
}

/**
 * HTTP caching (contract §7): errors are `no-store`; successful answers of cacheable routes
 * get `public, max-age=60` and an ETag, and `If-None-Match` is compared weakly (lists, `*` and
 * `W/` tags all count) to answer 304.
 */
export function registerCaching(app: FastifyInstance): void {
  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 400) {
      reply.header("cache-control", CACHE_CONTROL_ERROR);
      return payload;
    }
    if (reply.statusCode !== 200 || request.routeOptions.config.cacheable !== true) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;

    // A route that answers a fixed document has set its tag already (documentTag).
    const preset = reply.getHeader("etag");
    const tag = typeof preset === "string" ? preset : etag(payload);
    reply.header("cache-control", CACHE_CONTROL_SUCCESS);
    reply.header("etag", tag);
    // Only If-None-Match decides: a request's own Cache-Control speaks to caches, not to us.
    const ifNoneMatch = request.headers["if-none-match"];
    if (ifNoneMatch === undefined || !fresh({ "if-none-match": ifNoneMatch }, { etag: tag })) return payload;

    reply.code(304);
    // HEAD keeps the payload so fastify reports the 200's Content-Length, as RFC 9110 allows.
    return request.method === "HEAD" ? payload : null;
  });
}
