import type { FastifyReply } from "fastify";
import { errorHeaders } from "../api/error-headers.ts";
import { API_PREFIX, CACHE_CONTROL_NO_STORE, MCP_PATH } from "../contract.ts";
import type { ApiError } from "../core/errors.ts";

/** Sends `error` as its Error body, with its headers (Retry-After, Allow) and `no-store`. */
export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  // Set here too, not only in the caching hook: router-level failures skip the onSend hooks.
  return reply
    .code(error.status)
    .headers({ ...errorHeaders(error), "cache-control": CACHE_CONTROL_NO_STORE })
    .send(error.toBody());
}

/** Whether a URL path is under the REST API or the MCP endpoint (where every answer is JSON, and nothing redirects). */
export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) || path === MCP_PATH || path.startsWith(`${MCP_PATH}/`);
}
