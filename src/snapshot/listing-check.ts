/**
 * The loader's check of every listing against the PublicBusiness schema, so nothing but approved
 * public fields can be served, whatever dist/ holds. It runs in worker threads
 * (validate-worker.mjs), one per run of blocks of businesses.ndjson and at most one per core,
 * while the loader reads the file and builds its lookups. Each worker reads its blocks itself and
 * verifies them against the manifest's block digests, as the loader verifies its own copy
 * against the whole file's digest: both checked the same bytes.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AJV_FORMATS, AJV_OPTIONS } from "../schemas/ajv.ts";
import { PublicBusinessSchema } from "../schemas/business.ts";
import { type FileDigest, LISTING_BLOCK_BYTES } from "./files.ts";
import { lowerBound } from "./lower-bound.ts";
import type { ValidationRequest, ValidationResult } from "./validate-worker.mjs";

const WORKER = new URL("./validate-worker.mjs", import.meta.url);

/** What the check found wrong with businesses.ndjson. */
export class ListingCheckError extends Error {}

export interface ListingCheck {
  /** Waits for every worker; throws ListingCheckError when a listing or a block is bad. `lineStarts` (the loader's) numbers the lines. */
  finish(lineStarts: Uint32Array): Promise<void>;
  /** Stops the workers (when loading failed elsewhere). */
  stop(): void;
}

/**
 * How much of the file a worker reads (and decodes) at a time: below glibc malloc's 128 KB
 * threshold for giving memory straight back to the system. With 1 MB reads, Node.js 24 kept
 * about 190 MB more resident once the workers had finished at 1,000,000 listings (malloc raises
 * that threshold as large blocks are freed, then keeps them for reuse); with 64 KB, about 55 MB,
 * and the check takes as long.
 */
const CHUNK_BYTES = 64 * 1024;

/** Splits `blocks` blocks into at most `parts` runs of whole blocks, as [first, end) block numbers. */
export function blockRuns(blocks: number, parts: number): [first: number, end: number][] {
  const count = Math.max(1, Math.min(parts, blocks));
  return Array.from({ length: count }, (_, k) => [Math.floor((k * blocks) / count), Math.floor(((k + 1) * blocks) / count)]);
}

function run(request: ValidationRequest): { worker: Worker; result: Promise<ValidationResult> } {
  // Without the process's flags: the worker is plain JavaScript and needs no TypeScript loader.
  const worker = new Worker(WORKER, { workerData: request, execArgv: [] });
  const result = new Promise<ValidationResult>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the listing check stopped with code ${code}`)));
  });
  result.catch(() => {});
  return { worker, result };
}

/**
 * Starts checking the listings of the file at `path`, as its manifest entry describes it (its
 * blocks `blockBytes` long), in at most `parts` worker threads, each reading `chunkBytes` at a time.
 */
export function startListingCheck(
  path: string,
  digest: FileDigest,
  { parts = availableParallelism(), blockBytes = LISTING_BLOCK_BYTES, chunkBytes = CHUNK_BYTES } = {},
): ListingCheck {
  const blocks = digest.blocks ?? [];
  const common = { path, blockBytes, chunkBytes, schema: PublicBusinessSchema, ajvOptions: AJV_OPTIONS, formats: [...AJV_FORMATS] };
  const runs = blockRuns(blocks.length, parts).map(([first, end]) =>
    run({ ...common, start: first * blockBytes, end: Math.min(end * blockBytes, digest.bytes), blocks: blocks.slice(first, end) }),
  );
  return {
    async finish(lineStarts) {
      const results = await Promise.all(runs.map(({ result }) => result));
      const failures = results.flatMap((result) => (result.ok ? [] : [result]));
      const first = failures.sort((a, b) => a.firstLine - b.firstLine)[0];
      if (first === undefined) return;
      if (first.index < 0) throw new ListingCheckError(first.problem);
      // The number of lines before the range's first: those that start before it.
      const before = lowerBound(lineStarts.length - 1, (i) => (lineStarts[i] ?? 0) < first.firstLine);
      throw new ListingCheckError(`listing ${before + 1 + first.index} of businesses.ndjson ${first.problem}`);
    },
    stop() {
      for (const { worker } of runs) void worker.terminate();
    },
  };
}
