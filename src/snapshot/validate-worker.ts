/**
 * Checks every listing of businesses.ndjson against the PublicBusiness schema, in a worker
 * thread: parsing a million listings makes a million objects, and this way none of them lives in
 * the server's heap, nor blocks its event loop. The bytes are shared, not copied.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createAjv } from "../schemas/ajv.ts";
import { PublicBusinessSchema } from "../schemas/business.ts";

export interface ValidationRequest {
  readonly buffer: SharedArrayBuffer;
  readonly byteOffset: number;
  readonly byteLength: number;
}

export type ValidationResult = { readonly ok: true } | { readonly ok: false; readonly problem: string };

const NEWLINE = 0x0a;

function validate({ buffer, byteOffset, byteLength }: ValidationRequest): ValidationResult {
  const ajv = createAjv();
  const check = ajv.compile(PublicBusinessSchema);
  const bytes = Buffer.from(buffer, byteOffset, byteLength);
  let line = 0;
  for (let start = 0; start < bytes.length; line += 1) {
    const end = bytes.indexOf(NEWLINE, start);
    const stop = end < 0 ? bytes.length : end;
    let business: unknown;
    const text = bytes.toString("utf8", start, stop);
    try {
      business = JSON.parse(text);
    } catch {
      return { ok: false, problem: `listing ${line + 1} of businesses.ndjson is not valid JSON.` };
    }
    if (!check(business)) {
      return {
        ok: false,
        problem: `listing ${line + 1} of businesses.ndjson does not match the PublicBusiness schema (${ajv.errorsText(check.errors)}).`,
      };
    }
    const { id, slug } = business as { id: string; slug: string };
    if (id !== id.toLowerCase()) return { ok: false, problem: `listing ${line + 1} of businesses.ndjson has an id in capitals.` };
    // The server finds listings by the id and slug each line starts with: they must be its only ones.
    if (!text.startsWith(`{"id":"${id}","slug":"${slug}",`)) {
      return { ok: false, problem: `listing ${line + 1} of businesses.ndjson does not start with its id and slug.` };
    }
    start = stop + 1;
  }
  return { ok: true };
}

parentPort?.postMessage(validate(workerData as ValidationRequest));
