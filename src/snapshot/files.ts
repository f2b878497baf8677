import { createHash } from "node:crypto";
import { join } from "node:path";
import { BULK_JSON_PATH, BULK_NDJSON_PATH, changesFilePath, RELEASES_PATH } from "../contract.ts";

/** Where each part of a snapshot lives inside `dist/`, for the build that writes it and the server that reads it. */
export const SNAPSHOT_FILES = {
  manifest: "data/manifest.json",
  site: "data/site.json",
  offerings: "data/offerings.json",
  offeringsIndex: "data/offerings-index.json",
  /** Every approved listing as a JSON array, one listing per line (interface §3), for bulk use. */
  businesses: BULK_JSON_PATH.slice(1),
  /** The same listings, one JSON object per line in rank order: the bulk export, and what the server reads. */
  businessesNdjson: BULK_NDJSON_PATH.slice(1),
  directoryIndex: "data/directory-index.json",
  directoryArrays: "data/directory-index.bin",
  openapi: "openapi.json",
  /** The MCP App: one self-contained HTML document (MCP_APP in src/api/resources.ts), read by its ui:// URI. */
  mcpApp: "data/mcp-app.html",
  /** The release history (interface §8, src/snapshot/releases.ts). */
  releases: RELEASES_PATH.slice(1),
  /** Each listing's line digest and when it last changed: what the next build compares with, and the sitemaps' lastmod. */
  listingReleases: "data/listing-releases.json",
} as const;

export type SnapshotFile = keyof typeof SNAPSHOT_FILES;

/** The files the server reads besides the manifest, each checked against its size and digest. */
export const VERIFIED_FILES = [
  "site",
  "offerings",
  "offeringsIndex",
  "businessesNdjson",
  "directoryIndex",
  "directoryArrays",
  "openapi",
  "mcpApp",
  "releases",
  "listingReleases",
] as const satisfies readonly SnapshotFile[];

export function snapshotPath(distDir: string, file: SnapshotFile): string {
  return join(distDir, SNAPSHOT_FILES[file]);
}

/** Bump when the layout or meaning of snapshot files changes, so an old `dist/` is refused. */
export const SNAPSHOT_FORMAT_VERSION = 6;

export interface FileDigest {
  readonly bytes: number;
  /** SHA-256 of the file, hex. */
  readonly sha256: string;
  /**
   * For businesses.ndjson: SHA-256 of each LISTING_BLOCK_BYTES block, in order, so the loader's
   * worker threads can verify the parts they read without the whole file's digest.
   */
  readonly blocks?: readonly string[];
}

/** The size and SHA-256 of `bytes`. */
export function digestOf(bytes: Buffer): FileDigest {
  // createHash, not Web Crypto's digest: on Node.js 20 here the latter took 1.3 s for the 72 MB of
  // 100,000 listings, against 86 ms (SHA-NI), and its copy of the bytes stayed resident.
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** Whether `bytes` are the file that `expected` describes. */
export function matchesDigest(bytes: Buffer, expected: FileDigest): boolean {
  return bytes.length === expected.bytes && digestOf(bytes).sha256 === expected.sha256;
}

/** Whether `value` has a FileDigest's size and digest. */
export function isFileDigest(value: unknown): value is FileDigest {
  const digest = value as Partial<FileDigest> | null;
  return typeof digest === "object" && digest !== null && Number.isSafeInteger(digest.bytes) && typeof digest.sha256 === "string";
}

/** The block size of FileDigest.blocks. */
export const LISTING_BLOCK_BYTES = 8 * 2 ** 20;

/** SHA-256 (hex) of each `blockBytes` block of `bytes`, for a caller that has the whole file. */
export function blockDigests(bytes: Buffer, blockBytes = LISTING_BLOCK_BYTES): string[] {
  const blocks: string[] = [];
  for (let at = 0; at < bytes.length; at += blockBytes) {
    blocks.push(
      createHash("sha256")
        .update(bytes.subarray(at, at + blockBytes))
        .digest("hex"),
    );
  }
  return blocks;
}

export interface Manifest {
  formatVersion: number;
  indexFormatVersion: number;
  /** A hash of the published data: changes whenever the site, catalog, guides, listings or base URL do. */
  version: string;
  builtAt: string;
  baseUrl: string;
  counts: { offerings: number; businesses: number };
  /** Size and digest of every file the server reads, by SNAPSHOT_FILES name: a damaged or mixed snapshot is refused. */
  files: Record<(typeof VERIFIED_FILES)[number], FileDigest>;
  /**
   * URL paths of the documents the server keeps in memory (llms.txt, guides, the homepage, ...),
   * each stored in `dist/` at its own path. Listing pages and lists are not among them: the
   * server renders those from the listings, and a static host serves the build's copies.
   */
  pages: string[];
  /**
   * How the build paged each list (src/core/lists.ts pageStarts): countries in the directory
   * index's order of `countries`, services in its order of `services`.
   */
  lists: { country: ListPaging[]; service: ListPaging[] };
  /** Size and digest of each release's changes file (changesFile), by version: every release of the history but its first. */
  changes: Record<string, FileDigest>;
}

/** Where the changes file of release `version` lives inside `dist/`. */
export function changesFile(version: string): string {
  return changesFilePath(version).slice(1);
}

/** Where a list's pages (HTML and Markdown) and its llms.txt index's parts start, as entry numbers from 0. */
export interface ListPaging {
  readonly pages: readonly number[];
  readonly parts: readonly number[];
}

/** Whether `value` is a list's paging as the build writes it: starts from 0, ascending. */
export function isListPaging(value: unknown): value is ListPaging {
  const starts = (list: unknown) =>
    Array.isArray(list) &&
    list[0] === 0 &&
    list.every((start, i) => Number.isSafeInteger(start) && (i === 0 || start > (list[i - 1] as number)));
  return typeof value === "object" && value !== null && starts((value as ListPaging).pages) && starts((value as ListPaging).parts);
}

/** Where a page with URL path `urlPath` (e.g. `/offerings/x/index.md`) lives inside `dist/`. */
export function pageFile(urlPath: string): string {
  return urlPath.replace(/^\/+/, "");
}
