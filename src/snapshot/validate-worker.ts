/**
 * Checks every listing of businesses.ndjson against the PublicBusiness schema, in a worker
 * thread: parsing a million listings makes a million objects, and this way none of them lives in
 * the server's heap, nor blocks its event loop. The worker streams the file itself (a few MB at a
 * time) and reports the SHA-256 of what it read, so the loader knows it checked the very bytes it
 * holds.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { createAjv } from "../schemas/ajv.ts";
import { PublicBusinessSchema } from "../schemas/business.ts";

export interface ValidationRequest {
  readonly path: string;
}

export type ValidationResult = { readonly ok: true; readonly sha256: string } | { readonly ok: false; readonly problem: string };

const NEWLINE = 0x0a;

async function validate({ path }: ValidationRequest): Promise<ValidationResult> {
  const ajv = createAjv();
  const check = ajv.compile(PublicBusinessSchema);
  const hash = createHash("sha256");
  let line = 0;

  /** The problem with one line, or null. */
  const problemOf = (text: string): string | null => {
    let business: unknown;
    try {
      business = JSON.parse(text);
    } catch {
      return `listing ${line} of businesses.ndjson is not valid JSON.`;
    }
    if (!check(business))
      return `listing ${line} of businesses.ndjson does not match the PublicBusiness schema (${ajv.errorsText(check.errors)}).`;
    const { id, slug } = business as { id: string; slug: string };
    if (id !== id.toLowerCase()) return `listing ${line} of businesses.ndjson has an id in capitals.`;
    // The server finds listings by the id and slug each line starts with: they must be its only ones.
    if (!text.startsWith(`{"id":"${id}","slug":"${slug}",`))
      return `listing ${line} of businesses.ndjson does not start with its id and slug.`;
    return null;
  };

  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 2 ** 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    const bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
      line += 1;
      const problem = problemOf(bytes.toString("utf8", start, end));
      if (problem !== null) return { ok: false, problem };
      start = end + 1;
    }
    carry = Buffer.from(bytes.subarray(start));
  }
  if (carry.length > 0) {
    line += 1;
    const problem = problemOf(carry.toString("utf8"));
    if (problem !== null) return { ok: false, problem };
  }
  return { ok: true, sha256: hash.digest("hex") };
}

parentPort?.postMessage(await validate(workerData as ValidationRequest));
