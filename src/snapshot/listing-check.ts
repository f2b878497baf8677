/**
 * The loader's check of every listing against the PublicBusiness schema, so nothing but approved
 * public fields can be served, whatever dist/ holds. It runs in worker threads
 * (validate-worker.mjs), one per run of blocks of businesses.ndjson and at most one per core.
 * Each worker reads its blocks itself and verifies them against the manifest's block digests.
 * A file held whole is read into one buffer by the first worker, which verifies every block of
 * it and hands it over (readCheckedListings); a larger one is read by the loader for its lookups
 * meanwhile, verified against the whole file's digest (startListingCheck). Either way every
 * copy checked is the manifest's bytes.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AJV_FORMATS, AJV_OPTIONS } from "../schemas/ajv.ts";
import { PublicBusinessSchema } from "../schemas/business.ts";
import { type FileDigest, LISTING_BLOCK_BYTES } from "./files.ts";
import { NEWLINE } from "./listing-lookup.ts";
import { lowerBound } from "./lower-bound.ts";
import type { ValidationRequest, ValidationResult } from "./validate-worker.mjs";

const WORKER = new URL("./validate-worker.mjs", import.meta.url);

/** What the check found wrong with businesses.ndjson. */
export class ListingCheckError extends Error {
  /** Whether the file's bytes (a block, or the size of a file held) are not the manifest's. */
  readonly notTheFile: boolean;
  constructor(message: string, notTheFile = false) {
    super(message);
    this.notTheFile = notTheFile;
  }
}

export interface ListingCheck {
  /** Waits for every worker; throws ListingCheckError when a listing or a block is bad. `lineStarts` (the loader's) numbers the lines. */
  finish(lineStarts: Uint32Array): Promise<void>;
  /** Stops the workers (when loading failed elsewhere). */
  stop(): void;
}

/** The check of a file held whole: one worker reads it, checks it and hands its bytes over. */
export interface HeldListingCheck {
  /** The file's bytes once every listing and block is checked; rejects with ListingCheckError as `finish` throws. */
  readonly bytes: Promise<Buffer>;
  /** Stops the worker (when loading failed elsewhere). */
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

/** The error for a failed range; `linesBefore` counts the lines before the one starting at a byte. */
function failure(result: Extract<ValidationResult, { ok: false }>, linesBefore: (byte: number) => number): ListingCheckError {
  if (result.index < 0) return new ListingCheckError(result.problem, true);
  return new ListingCheckError(`listing ${linesBefore(result.firstLine) + 1 + result.index} of businesses.ndjson ${result.problem}`);
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
  const runs = blockRuns(digest.blocks?.length ?? 0, parts).map((blocks) =>
    run(rangeRequest(path, digest, blocks, blockBytes, chunkBytes)),
  );
  return {
    async finish(lineStarts) {
      const results = await Promise.all(runs.map(({ result }) => result));
      const failures = results.flatMap((result) => (result.ok ? [] : [result]));
      const first = failures.sort((a, b) => a.firstLine - b.firstLine)[0];
      if (first === undefined) return;
      // The number of lines before the range's first: those that start before it.
      throw failure(first, (byte) => lowerBound(lineStarts.length - 1, (i) => (lineStarts[i] ?? 0) < byte));
    },
    stop() {
      for (const { worker } of runs) void worker.terminate();
    },
  };
}

/** The bytes of blocks [first, end) of a file of `bytes` bytes. */
function byteRange([first, end]: [first: number, end: number], blockBytes: number, bytes: number): { start: number; end: number } {
  return { start: first * blockBytes, end: Math.min(end * blockBytes, bytes) };
}

/** The request to check the listings of blocks [first, end) of the file, in a worker's own reads. */
function rangeRequest(
  path: string,
  digest: FileDigest,
  [first, end]: [first: number, end: number],
  blockBytes: number,
  chunkBytes: number,
): ValidationRequest {
  const range = byteRange([first, end], blockBytes, digest.bytes);
  return {
    path,
    blockBytes,
    chunkBytes,
    schema: PublicBusinessSchema,
    ajvOptions: AJV_OPTIONS,
    formats: [...AJV_FORMATS],
    ...range,
    checkEnd: range.end,
    blocks: digest.blocks?.slice(first, end) ?? [],
    hold: false,
  };
}

/** How many lines of `bytes` start before byte `at`: the newlines before it. */
function linesBefore(bytes: Buffer, at: number): number {
  let lines = 0;
  for (let newline = bytes.indexOf(NEWLINE); newline >= 0 && newline < at; newline = bytes.indexOf(NEWLINE, newline + 1)) lines += 1;
  return lines;
}

/**
 * Checks the listings of the file at `path` as startListingCheck does, and reads it whole into
 * one buffer, handed over (transferred, not copied) once every listing and block is checked: the
 * loader's copy, so the main thread never reads or hashes the listings itself (the 72 MB of
 * 100,000 listings). The first worker reads and verifies the whole file into that buffer and
 * checks the first run of blocks; the others check theirs from their own reads, of the same bytes
 * since every block verified is the manifest's. `checked`, a copy of a file held and checked
 * before (the snapshot served now), spares the check of every line that is one of its lines.
 */
export function readCheckedListings(
  path: string,
  digest: FileDigest,
  {
    // A core is left to the main thread, busy meanwhile with the modules and the index: on 2 cores
    // a second worker cost 0.6-0.9 s more CPU and 5,500 more page faults at 100,000 listings.
    parts = Math.max(1, availableParallelism() - 1),
    blockBytes = LISTING_BLOCK_BYTES,
    chunkBytes = CHUNK_BYTES,
    checked,
  }: { parts?: number; blockBytes?: number; chunkBytes?: number; checked?: SharedArrayBuffer } = {},
): HeldListingCheck {
  const [first = [0, 0], ...others] = blockRuns(digest.blocks?.length ?? 0, parts);
  const request = (blocks: [first: number, end: number]): ValidationRequest => ({
    ...rangeRequest(path, digest, blocks, blockBytes, chunkBytes),
    ...(checked === undefined ? {} : { checked }),
  });
  const holder = run({
    ...request([0, digest.blocks?.length ?? 0]),
    checkEnd: byteRange(first, blockBytes, digest.bytes).end,
    hold: true,
  });
  const otherRuns = others.map((blocks) => run(request(blocks)));
  const runs = [holder, ...otherRuns];
  const bytes = Promise.all([holder.result, ...otherRuns.map(({ result }) => result)]).then(([held, ...rest]) => {
    // The first range starts at byte 0: no line comes before it.
    if (!held.ok) throw failure(held, () => 0);
    const file = Buffer.from(held.bytes ?? new ArrayBuffer(0));
    const bad = rest.flatMap((result) => (result.ok ? [] : [result])).sort((a, b) => a.firstLine - b.firstLine)[0];
    if (bad !== undefined) throw failure(bad, (at) => linesBefore(file, at));
    return file;
  });
  bytes.catch(() => {});
  return {
    bytes,
    stop() {
      for (const { worker } of runs) void worker.terminate();
    },
  };
}
