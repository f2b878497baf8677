import etag from "etag";
import { compact } from "./slab.ts";

/**
 * A successful answer, serialised once: REST sends `body` with `etag` as they are; MCP puts
 * `value` in structuredContent and `json` in its text copy, each made on first use. Answers are
 * kept (per snapshot, or in the result cache) so a repeated request serialises, encodes and
 * hashes nothing.
 */
export class Answer<T> {
  /** The JSON body in UTF-8, exactly what REST sends. */
  readonly body: Buffer;
  /** The entity tag of the body (strong: the same tag always means the same bytes). */
  readonly etag: string;
  #json: string | undefined;
  #value: T | undefined;
  #escaped: Buffer | readonly Buffer[] | (() => readonly Buffer[]) | undefined;

  /** `escaped`, when given, makes the parts of `escaped` below faster than escaping the body (see service.ts). */
  constructor(body: Buffer, tag: string, value?: T, json?: string, escaped?: () => readonly Buffer[]) {
    this.body = body;
    this.etag = tag;
    this.#value = value;
    this.#json = json;
    this.#escaped = escaped;
  }

  /** This answer with its body in memory of its own (see slab.ts), for keeping. */
  compacted(): Answer<T> {
    const body = compact(this.body);
    if (body === this.body) return this;
    const escaped = this.#escaped;
    return new Answer(body, this.etag, this.#value, this.#json, typeof escaped === "function" ? escaped : undefined);
  }

  /**
   * The body as the inside of a JSON string (`"` and `\` escaped, no quotes around it), in
   * UTF-8, as consecutive parts: MCP's text copy of a result, which the tool's response copies
   * part by part. Made on first use.
   */
  escapedParts(): readonly Buffer[] {
    const escaped = this.#escaped;
    if (Buffer.isBuffer(escaped)) return [escaped];
    if (Array.isArray(escaped)) return escaped;
    const made = typeof escaped === "function" ? escaped() : [escapeJsonBytes(this.body)];
    this.#escaped = made;
    return made;
  }

  /** The parts above in one buffer. */
  get escaped(): Buffer {
    const parts = this.escapedParts();
    return parts.length === 1 && parts[0] !== undefined ? parts[0] : Buffer.concat(parts);
  }

  /** The body as text. */
  get json(): string {
    this.#json ??= this.body.toString("utf8");
    return this.#json;
  }

  /** The body as a value (parsed on first use when the answer was made from bytes). */
  get value(): T {
    this.#value ??= JSON.parse(this.json) as T;
    return this.#value;
  }
}

/**
 * JSON text as the inside of a JSON string, in UTF-8. JSON text has no control characters (they
 * are escaped as \n and the like), and UTF-8 bytes of other characters never contain `"` or `\`,
 * so JSON.stringify over the bytes read as latin1 escapes exactly the `"` and `\` bytes, and the
 * result read back as latin1 is the same UTF-8.
 */
export function escapeJsonBytes(json: Buffer): Buffer {
  const quoted = JSON.stringify(json.toString("latin1"));
  return Buffer.from(quoted.slice(1, -1), "latin1");
}

/**
 * `value` serialised with JSON.stringify. Every object in it comes from a snapshot the loader
 * validated against the response schemas (additionalProperties: false), in schema order, so
 * this is the body fastify's schema serialiser would write.
 */
export function answer<T>(value: T): Answer<T> {
  const json = JSON.stringify(value);
  const body = Buffer.from(json);
  return new Answer(body, etag(body), value, json);
}

/** What an entry costs besides its body: the value's objects, the tag, the cache's bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * Roughly the memory a cached answer holds: its bytes (and, once made, its text at most two
 * bytes a character), its key, and a fixed overhead.
 */
export function answerSize(answer: Answer<unknown>, key: string): number {
  return answer.body.length * 3 + key.length * 2 + ENTRY_OVERHEAD_BYTES;
}
