import etag from "etag";

/**
 * A successful answer, serialised once: REST sends `body` with `etag` as they are, MCP puts
 * `value` in structuredContent and `json` in its text copy. Answers are kept (per snapshot, or in
 * the result cache) so a repeated request serialises, encodes and hashes nothing.
 */
export interface Answer<T> {
  readonly value: T;
  /** `value` as JSON, exactly the body REST sends. */
  readonly json: string;
  /** `json` in UTF-8: what goes on the wire, without encoding or measuring it per response. */
  readonly body: Buffer;
  /** The entity tag of the body (a strong tag: the body is byte-for-byte the same). */
  readonly etag: string;
}

/**
 * `value` serialised with JSON.stringify. Every object in it comes from a snapshot the loader
 * validated against the response schemas (additionalProperties: false), in schema order, so
 * this is the body fastify's schema serialiser would write.
 */
export function answer<T>(value: T): Answer<T> {
  const json = JSON.stringify(value);
  const body = Buffer.from(json);
  return { value, json, body, etag: etag(body) };
}

/** What an entry costs besides its text and bytes: the value's objects, the tag, the cache's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * Roughly the memory a cached answer holds: its text (at most two bytes a character), its bytes,
 * its key, and a fixed overhead; the value's objects are mostly shared with the snapshot.
 */
export function answerSize(answer: Answer<unknown>, key: string): number {
  return answer.json.length * 2 + answer.body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}
