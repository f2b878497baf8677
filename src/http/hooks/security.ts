import type { IncomingMessage, ServerResponse } from "node:http";
import cors, { type FastifyCorsOptions } from "@fastify/cors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import helmet from "helmet";
import { MCP_PATH } from "../../contract.ts";

/**
 * The Content-Security-Policy of every answer: no script at all; styles, images and fetches
 * (a browser's own reads of /robots.txt or the favicon) from this site only; forms to this site
 * only; never framed.
 */
const CONTENT_SECURITY_POLICY = {
  "default-src": ["'none'"],
  "style-src": ["'self'"],
  "img-src": ["'self'"],
  "connect-src": ["'self'"],
  "form-action": ["'self'"],
  "base-uri": ["'none'"],
  "frame-ancestors": ["'none'"],
};

/** Headers a web app on another origin may read from our answers. */
const EXPOSED_HEADERS = ["ETag", "Link", "Retry-After", "RateLimit", "RateLimit-Policy", "Content-Signal", "x-markdown-tokens"];

/** The MCP endpoint itself; its server card (`/mcp/server-card`) is public metadata and gets CORS as pages do. */
function isMcp(request: FastifyRequest): boolean {
  // On every request: compared in place, without splitting the URL.
  const url = request.url;
  return url.startsWith(MCP_PATH) && (url.length === MCP_PATH.length || url.charCodeAt(MCP_PATH.length) === 0x3f);
}

/** A CORS preflight: an OPTIONS request that names the method the browser wants to send. */
function isPreflight(request: FastifyRequest): boolean {
  return (
    request.method === "OPTIONS" && request.headers.origin !== undefined && request.headers["access-control-request-method"] !== undefined
  );
}

/**
 * The security headers, worked out once by helmet from our options: they are the same for every
 * answer, and helmet (or @fastify/helmet, which calls it per request) would rebuild and re-parse
 * them on each one, which measured 8% of a directory search's CPU. Helmet's legacy headers for
 * Internet Explorer, Flash and old XSS filters are left out (X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection, X-DNS-Prefetch-Control), and so is
 * Origin-Agent-Cluster: bytes on every answer that no current browser needs from this site.
 */
function securityHeaders(): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
      return response;
    },
    removeHeader() {},
  };
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // Public data: other sites may embed or fetch it.
    crossOriginResourcePolicy: { policy: "cross-origin" },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  middleware({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Security headers on every answer (made by helmet, above: nosniff, CSP, framing, referrer, HSTS,
 * cross-origin policies), and CORS: everything but MCP is public and read-only, so any origin may
 * GET and HEAD it, without credentials. MCP keeps its own Origin check (interface §6) and its own
 * CORS for the origins it allows (src/mcp/plugin.ts).
 *
 * The CORS headers of a simple request are as constant as the others and are set with them.
 * Preflights are answered by @fastify/cors in a scope of its own whose only route is its
 * `OPTIONS *`: registered for the whole app, its hook runs on every request and measured 13 µs
 * each (a third of a directory search). A non-preflight OPTIONS request is refused with 405 by
 * the not-found handler (src/http/errors.ts), like any other method but GET and HEAD.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  const forMcp = securityHeaders();
  const forAll = {
    ...forMcp,
    "access-control-allow-origin": "*",
    "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
  };
  // As name, value pairs set one by one: reply.headers(object) lists the object's keys and reads
  // them by name on every request.
  const mcpPairs = Object.entries(forMcp);
  const allPairs = Object.entries(forAll);
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const pairs = isMcp(request) ? mcpPairs : allPairs;
    for (let i = 0; i < pairs.length; i += 1) {
      const [name, value] = pairs[i] as [string, string];
      reply.header(name, value);
    }
  });
  const preflight: FastifyCorsOptions = { origin: "*", methods: ["GET", "HEAD"], maxAge: 86_400 };
  await app.register(async (scope) => {
    await scope.register(cors, {
      delegator: (request, callback) => callback(null, isPreflight(request) ? preflight : { origin: false }),
    });
  });
}
