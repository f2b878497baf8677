import { allocateBody } from "../core/slab.ts";
import { LISTING_NOTICE, type ToolOutcome } from "./tools.ts";

/**
 * The constant bytes of a successful tool response between its id, its text copy and its
 * structuredContent, made once per era: the id and the answer are all that differ.
 */
export interface ToolResponseFrame {
  /** After the id, up to the text copy: the era's result fields and the text item's opening. */
  readonly toText: Buffer;
  /** After the text copy, up to structuredContent: with and without the listing notice. */
  readonly toStructured: { readonly withNotice: Buffer; readonly plain: Buffer };
}

const RESPONSE_START = Buffer.from('{"jsonrpc":"2.0","id":');
const RESPONSE_END = Buffer.from("}}");

/** After the text copy, up to structuredContent: a note as a text item of its own, then the listing notice when there is one. */
function toStructuredWith(note: string | null, notice: boolean): Buffer {
  const items = [...(note === null ? [] : [note]), ...(notice ? [LISTING_NOTICE] : [])];
  return Buffer.from(`"}${items.map((text) => `,{"type":"text","text":${JSON.stringify(text)}}`).join("")}],"structuredContent":`);
}

/** The frame of an era whose result fields are `fields`: JSON members ending in a comma (none for the 2025 versions). */
export function toolResponseFrame(fields: string): ToolResponseFrame {
  return {
    toText: Buffer.from(`,"result":{${fields}"content":[{"type":"text","text":"`),
    toStructured: { withNotice: toStructuredWith(null, true), plain: toStructuredWith(null, false) },
  };
}

/** An id as JSON text. */
function idJson(id: string | number): string {
  return typeof id === "number" ? String(id) : JSON.stringify(id);
}

/**
 * A tool's outcome as the JSON-RPC response of request `id` (or, with `id` null, the response's
 * bytes after its id), in the era's `frame`; `fields` is the era's result fields for an error
 * result. A successful answer's JSON (the REST body, made once) is spliced in as bytes, as
 * structuredContent and, escaped, as the text copy: it is neither parsed nor serialised again,
 * nor decoded as UTF-8. The bytes after the id depend on the answer and the era alone, not on
 * the request: they are what the answer cache keeps of a tool's answer (see toolResponse).
 */
export function resultBytes(outcome: ToolOutcome, frame: ToolResponseFrame, fields: string, id: string | number | null): Buffer {
  const start = id === null ? "" : idJson(id);
  if (outcome.kind === "error") {
    const result = JSON.stringify(outcome.result);
    return Buffer.from(`${id === null ? "" : `{"jsonrpc":"2.0","id":${start}`},"result":{${fields}${result.slice(1)}}`);
  }
  const { answer } = outcome;
  const escaped = answer.escapedParts();
  const { body } = answer;
  const toStructured =
    outcome.note === undefined
      ? outcome.listingText
        ? frame.toStructured.withNotice
        : frame.toStructured.plain
      : toStructuredWith(outcome.note, outcome.listingText);
  const prefix = id === null ? 0 : RESPONSE_START.length + Buffer.byteLength(start);
  let length = prefix + frame.toText.length + toStructured.length + RESPONSE_END.length;
  for (const part of escaped) length += part.length;
  length += body.length;
  const response = allocateBody(length);
  let at = 0;
  if (id !== null) {
    response.set(RESPONSE_START, 0);
    at = RESPONSE_START.length + response.write(start, RESPONSE_START.length, "utf8");
  }
  // TypedArray set throughout: Buffer#copy's argument handling costs more than copying a listing.
  response.set(frame.toText, at);
  at += frame.toText.length;
  for (const part of escaped) {
    response.set(part, at);
    at += part.length;
  }
  response.set(toStructured, at);
  at += toStructured.length;
  response.set(body, at);
  at += body.length;
  response.set(RESPONSE_END, at);
  return response;
}

/** The JSON-RPC response of request `id` whose bytes after the id are `afterId` (resultBytes' with no id). */
export function toolResponse(id: string | number, afterId: Buffer): Buffer {
  const start = idJson(id);
  const response = allocateBody(RESPONSE_START.length + Buffer.byteLength(start) + afterId.length);
  response.set(RESPONSE_START, 0);
  const at = RESPONSE_START.length + response.write(start, RESPONSE_START.length, "utf8");
  response.set(afterId, at);
  return response;
}
