import { join } from "node:path";

/** Where each part of a snapshot lives inside `dist/`, for the build that writes it and the server that reads it. */
export const SNAPSHOT_FILES = {
  manifest: "data/manifest.json",
  offerings: "data/offerings.json",
  offeringsIndex: "data/offerings-index.json",
  businesses: "data/businesses.json",
  businessesIndex: "data/businesses-index.json",
  site: "data/site.json",
  openapi: "openapi.json",
} as const;

export type SnapshotFile = keyof typeof SNAPSHOT_FILES;

export function snapshotPath(distDir: string, file: SnapshotFile): string {
  return join(distDir, SNAPSHOT_FILES[file]);
}

/** Bump when the layout or meaning of snapshot files changes, so an old `dist/` is refused. */
export const SNAPSHOT_FORMAT_VERSION = 1;

export interface Manifest {
  formatVersion: number;
  indexFormatVersion: number;
  /** A hash of the published data: changes whenever the site, catalog, guides, listings or base URL do. */
  version: string;
  builtAt: string;
  baseUrl: string;
  counts: { offerings: number; businesses: number };
  /**
   * URL paths of the documents written beside the data (Markdown pages, llms.txt, ...), each
   * stored in `dist/` at its own path so a static host serves it as it is.
   */
  pages: string[];
}

/** Where a page with URL path `urlPath` (e.g. `/offerings/x/index.md`) lives inside `dist/`. */
export function pageFile(urlPath: string): string {
  return urlPath.replace(/^\/+/, "");
}
