import etag from "etag";

/**
 * A successful answer, serialised once: REST sends `json` with `etag` as it is, MCP puts `value`
 * in structuredContent and `json` in its text copy. Answers are kept (per snapshot, or in the
 * result cache) so a repeated request serialises and hashes nothing.
 */
export interface Answer<T> {
  readonly value: T;
  /** `value` as JSON, exactly the body REST sends. */
  readonly json: string;
  /** The entity tag of `json` (a strong tag: the body is byte-for-byte the same). */
  readonly etag: string;
}

/**
 * `value` serialised with JSON.stringify. Every object in it comes from a snapshot the loader
 * validated against the response schemas (additionalProperties: false), in schema order, so
 * this is the body fastify's schema serialiser would write.
 */
export function answer<T>(value: T): Answer<T> {
  const json = JSON.stringify(value);
  return { value, json, etag: etag(json) };
}
