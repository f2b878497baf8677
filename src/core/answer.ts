/**
 * A successful answer, serialised once: REST sends `body` as it is; MCP puts `value` in
 * structuredContent and the body, escaped, in its text copy, each made on first use.
 */
export class Answer<T> {
  /** The JSON body in UTF-8, exactly what REST sends. */
  readonly body: Buffer;
  #json: string | undefined;
  #value: T | undefined;
  #escaped: Buffer | readonly Buffer[] | (() => readonly Buffer[]) | undefined;

  /** `escaped`, when given, makes the parts of `escaped` below faster than escaping the body (see answers.ts). */
  constructor(body: Buffer, value?: T, json?: string, escaped?: () => readonly Buffer[]) {
    this.body = body;
    this.#value = value;
    this.#json = json;
    this.#escaped = escaped;
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
