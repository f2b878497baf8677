import { Readable } from "node:stream";
import etag from "etag";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fresh from "fresh";
import { LRUCache } from "lru-cache";
import { CACHE_CONTROL_NO_STORE } from "../contract.ts";
import { contentSignalOf } from "../schemas/content.ts";
import type { Snapshot } from "../snapshot/types.ts";
import { estimateTokens, type PageFacts } from "./page-headers.ts";

/**
 * A body that cannot change within a snapshot (a page, openapi.json), in UTF-8, with its entity
 * tag and what a page's headers are made from (src/http/page-headers.ts), all worked out once.
 */
export interface Document extends PageFacts {
  readonly body: Buffer;
  readonly etag: string;
}

/**
 * The document `key` of `snapshot`, of `text`. Only a Markdown document (its key a Markdown path,
 * `….md`, as every Markdown document's is) is read for its token estimate: a sitemap part or the
 * stylesheet is never sent as Markdown.
 */
function documentOf(snapshot: Snapshot, key: string, text: string): Document {
  const body = Buffer.from(text);
  const tokens = key.endsWith(".md") ? estimateTokens(text) : 0;
  return { body, etag: etag(body), tokens, contentSignal: contentSignalOf(snapshot.site) };
}

const documentsBySnapshot = new WeakMap<object, Map<string, Document>>();

/**
 * The document `key` of `snapshot`: made by `make` and hashed on first use, then kept for the
 * snapshot's life, so no response renders or hashes it again. Undefined when `make` has none;
 * a miss is not kept, so the keys held are bounded by the documents the snapshot has, whatever
 * paths clients ask for.
 */
export function snapshotDocument(snapshot: Snapshot, key: string, make: () => string | undefined): Document | undefined {
  let documents = documentsBySnapshot.get(snapshot);
  if (documents === undefined) {
    documents = new Map();
    documentsBySnapshot.set(snapshot, documents);
  }
  let document = documents.get(key);
  if (document === undefined) {
    const text = make();
    if (text === undefined) return undefined;
    document = documentOf(snapshot, key, text);
    documents.set(key, document);
  }
  return document;
}

/** The memory the pages rendered on request (profiles, lists, sitemap parts) may hold per snapshot, in bytes. */
const RENDERED_DOCUMENT_BYTES = 32 * 2 ** 20;
const renderedBySnapshot = new WeakMap<object, LRUCache<string, Document>>();

/**
 * A page of `snapshot` rendered on request (a profile, a list, a sitemap part): made and hashed
 * on first use, then kept in a cache bounded by bytes, so a directory of any size renders each
 * popular page once and holds only a bounded number of them.
 */
export function renderedDocument(snapshot: Snapshot, key: string, render: () => string): Document {
  let documents = renderedBySnapshot.get(snapshot);
  if (documents === undefined) {
    documents = new LRUCache<string, Document>({
      maxSize: RENDERED_DOCUMENT_BYTES,
      sizeCalculation: (document, documentKey) => document.body.length + documentKey.length * 2 + 256,
    });
    renderedBySnapshot.set(snapshot, documents);
  }
  let document = documents.get(key);
  if (document === undefined) {
    document = documentOf(snapshot, key, render());
    documents.set(key, document);
  }
  return document;
}

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
 * HTTP caching (contract §7): errors are `no-store`; successful answers of cacheable routes
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
    const tag = typeof preset === "string" ? preset : etag(payload as string | Buffer);
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
