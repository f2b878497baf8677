import rateLimit from "@fastify/rate-limit";
import underPressure from "@fastify/under-pressure";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { OVERLOAD_RETRY_AFTER_SECONDS, RATE_LIMIT_POLICY, RATE_LIMIT_WINDOW_SECONDS } from "../../contract.ts";
import { overloaded, type Refusal, rateLimited } from "../../core/errors.ts";

export interface LimitOptions {
  /** Requests per client per minute before 429; 0 turns rate limiting off. */
  rateLimitMax: number;
  /** Told of every request refused here (metrics). */
  onRefused?: (reason: Refusal) => void;
}

/** Event-loop delay (mean over a sample, ms) above which new requests are shed. */
export const MAX_EVENT_LOOP_DELAY_MS = 1000;
/** How often @fastify/under-pressure samples the delay (its default, stated so the grace below can follow it). */
const SAMPLE_INTERVAL_MS = 1000;
/**
 * How long after the server starts listening its delay readings are not acted on: the samples
 * that cover its own start-up (loading the snapshot, compiling routes) would otherwise shed the
 * first requests of a replica that has just said it is ready.
 */
const START_GRACE_MS = 2 * SAMPLE_INTERVAL_MS;

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route answers even when the process is under pressure or the client is over its limit (health checks). */
    unlimited?: boolean;
  }
}

/**
 * The IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers): one policy, `RateLimit-Policy:
 * "minute";q=<limit>;w=60`, and the client's state in it, `RateLimit: "minute";r=<remaining>;t=<seconds>`.
 * @fastify/rate-limit writes the older draft's three headers; they are rewritten here.
 */
function ietfHeaders(policy: string) {
  return (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    const remaining = reply.getHeader("ratelimit-remaining");
    const reset = reply.getHeader("ratelimit-reset");
    if (remaining !== undefined && reset !== undefined) {
      reply.removeHeader("ratelimit-limit");
      reply.removeHeader("ratelimit-remaining");
      reply.removeHeader("ratelimit-reset");
      reply.header("ratelimit-policy", policy);
      reply.header("ratelimit", `"${RATE_LIMIT_POLICY}";r=${remaining};t=${reset}`);
    }
    done(null, payload);
  };
}

/**
 * Limits on what one client, and all of them together, may ask:
 * - per-client rate limiting (@fastify/rate-limit), by IP address (see TRUST_PROXY behind a proxy),
 *   counted per process: 429 `rate_limited` with Retry-After;
 * - load shedding (@fastify/under-pressure): when the event loop lags by over a second, new
 *   requests get 503 with Retry-After instead of queueing without end; not in the first two
 *   samples after the server listens, which measure its own start-up.
 * Routes marked `unlimited` (health checks) are exempt from both.
 */
export async function registerLimits(app: FastifyInstance, { rateLimitMax, onRefused }: LimitOptions): Promise<void> {
  let shedFrom = Number.POSITIVE_INFINITY;
  app.addHook("onListen", async () => {
    shedFrom = performance.now() + START_GRACE_MS;
  });
  await app.register(underPressure, {
    maxEventLoopDelay: MAX_EVENT_LOOP_DELAY_MS,
    sampleInterval: SAMPLE_INTERVAL_MS,
    retryAfter: OVERLOAD_RETRY_AFTER_SECONDS,
    // Thrown, the error reaches the error handler (an Error body, or JSON-RPC on /mcp); returning lets the request through.
    pressureHandler: (request) => {
      if (request.routeOptions.config.unlimited !== true && performance.now() >= shedFrom) {
        onRefused?.("overloaded");
        throw overloaded(OVERLOAD_RETRY_AFTER_SECONDS);
      }
    },
  });
  if (rateLimitMax === 0) return;
  await app.register(rateLimit, {
    global: true,
    max: rateLimitMax,
    timeWindow: RATE_LIMIT_WINDOW_SECONDS * 1000,
    enableDraftSpec: true,
    allowList: (request) => request.routeOptions.config.unlimited === true,
    errorResponseBuilder: (_request, context) => {
      onRefused?.("rate_limited");
      return rateLimited(Math.max(1, Math.ceil(context.ttl / 1000)));
    },
  });
  app.addHook("onSend", ietfHeaders(`"${RATE_LIMIT_POLICY}";q=${rateLimitMax};w=${RATE_LIMIT_WINDOW_SECONDS}`));
}
