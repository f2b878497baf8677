import type { ApiError } from "../core/errors.ts";

/** The headers of an error's answer, REST's or MCP's: Retry-After on a 503 or 429, Allow on a 405 (interface §5). */
export function errorHeaders(error: ApiError): Record<string, string> {
  const { retryAfterSeconds, allow } = error.facts;
  const headers: Record<string, string> = {};
  if (retryAfterSeconds !== undefined) headers["retry-after"] = String(retryAfterSeconds);
  if (allow !== undefined) headers.allow = allow;
  return headers;
}
