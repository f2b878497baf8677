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

  constructor(body: Buffer, tag: string, value?: T, json?: string) {
    this.body = body;
    this.etag = tag;
    this.#value = value;
    this.#json = json;
  }

  /** This answer with its body in memory of its own (see slab.ts), for keeping. */
  compacted(): Answer<T> {
    const body = compact(this.body);
    return body === this.body ? this : new Answer(body, this.etag, this.#value, this.#json);
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
