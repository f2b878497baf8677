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

/**
 * A tool's outcome as the JSON-RPC response, in the era's `frame`; `fields` is the era's result
 * fields for an error result. A successful answer's JSON (the REST body, made once) is spliced
 * in as bytes, as structuredContent and, escaped, as the text copy: it is neither parsed nor
 * serialised again, nor decoded as UTF-8.
 */
export function toolResponse(id: string | number, outcome: ToolOutcome, frame: ToolResponseFrame, fields: string): string | Buffer {
  if (outcome.kind === "error") {
    const result = JSON.stringify(outcome.result);
    return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{${fields}${result.slice(1)}}`;
  }
  const { answer } = outcome;
  const escaped = answer.escapedParts();
  const { body } = answer;
  const idJson = typeof id === "number" ? String(id) : JSON.stringify(id);
  const toStructured =
    outcome.note === undefined
      ? outcome.listingText
        ? frame.toStructured.withNotice
        : frame.toStructured.plain
      : toStructuredWith(outcome.note, outcome.listingText);
  let length = RESPONSE_START.length + Buffer.byteLength(idJson) + frame.toText.length + toStructured.length + RESPONSE_END.length;
  for (const part of escaped) length += part.length;
  length += body.length;
  const response = allocateBody(length);
  // TypedArray set throughout: Buffer#copy's argument handling costs more than copying a listing.
  response.set(RESPONSE_START, 0);
  let at = RESPONSE_START.length;
  at += response.write(idJson, at, "utf8");
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
