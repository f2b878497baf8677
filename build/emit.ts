import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { FAVICON_PATH, FAVICON_SVG_PATH } from "../src/contract.ts";
import { directorySummary, type ListsPaging } from "../src/render/directory-lists.ts";
import { faviconIco, faviconSvg } from "../src/render/favicon.ts";
import { sitemapPages } from "../src/render/sitemap.ts";
import type { PublicBusiness } from "../src/schemas/business.ts";
import {
  buildDirectoryIndex,
  type DirectoryIndex,
  decodeDirectoryIndex,
  encodeDirectoryIndex,
  type LocationSuffixes,
} from "../src/snapshot/directory-index.ts";
import {
  type ListPaging,
  type Manifest,
  pageFile,
  SNAPSHOT_FILES,
  SNAPSHOT_FORMAT_VERSION,
  VERIFIED_FILES,
} from "../src/snapshot/files.ts";
import { INDEX_FORMAT_VERSION } from "../src/snapshot/search-index.ts";
import { type PageInputs, sha256 } from "./cache.ts";
import type { Model } from "./derive.ts";
import { FileWriter } from "./file-writer.ts";
import { type PreviousHistory, previousHistory } from "./history.ts";
import type { ListingMemo } from "./listing-memo.ts";
import { mcpAppHtml } from "./mcp-app.ts";
import { openapiDocument } from "./openapi.ts";
import { nextInputs, PageReuse } from "./page-reuse.ts";
import { catalogPages, listingPages } from "./pages.ts";
import { type WrittenHistory, writeHistory } from "./releases.ts";

const execFileAsync = promisify(execFile);

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export interface WriteOptions {
  /** When the snapshot was built, as the manifest records it. */
  readonly builtAt: Date;
  /** Told when each stage ends (for --verbose). */
  readonly stage?: (name: string) => void;
  /** What the pages of the snapshot now in `distDir` were made from (build/cache.ts): those whose inputs are the same are kept. */
  readonly previousPages?: PageInputs | null;
  /** The MCP App's document (default: bundled now, by build/mcp-app.ts; the cache keeps it while the code is the same). */
  readonly mcpApp?: () => Promise<string>;
  /** The JSON lines of listings made before (build/listing-memo.ts). */
  readonly memo?: ListingMemo;
  /** The folder of a snapshot to continue the release history from when `distDir` holds none (PREVIOUS_SNAPSHOT). */
  readonly previousSnapshot?: string | undefined;
  /** Whether each listing's profile is written as page files, for a static host (STATIC_PAGES; default true). */
  readonly staticPages?: boolean;
}

/** What a build did to the release history, and why it started a new one if it did (see PreviousHistory). */
interface HistoryOutcome extends Pick<WrittenHistory, "made" | "current"> {
  readonly note?: string;
  readonly warning?: { readonly path: string; readonly message: string };
}

/** What a build wrote. */
export interface WrittenSnapshot {
  /** Changes whenever the published data (site, catalog, guides, listings, base URL) does. */
  readonly version: string;
  /** How many files dist/ holds. */
  readonly files: number;
  /** What its pages were made from, for the next build. */
  readonly pages: PageInputs;
  /** How many of its files were kept from the previous snapshot rather than written. */
  readonly kept: number;
  /** The SHA-256 of each listing's public line, by rank. */
  readonly lineHashes: readonly string[];
  readonly history: HistoryOutcome;
}

/** The lists' paging in the index's order of countries and services, as the manifest records it. */
function listsPaging({ lists }: Model, index: DirectoryIndex): ListsPaging {
  const inOrder = (keys: readonly string[], paging: ReadonlyMap<string, ListPaging>) =>
    keys.map((key) => {
      const found = paging.get(key);
      // Both come from the same listings: a list the model did not page is a bug of the build.
      if (found === undefined) throw new Error(`the list ${key} was not paged`);
      return found;
    });
  return { country: inOrder(index.countries, lists.country), service: inOrder(index.services, lists.service) };
}

/** What writeFiles wrote. */
interface Written {
  readonly manifest: Manifest;
  readonly files: number;
  readonly inputs: ReturnType<typeof nextInputs>;
  /** The SHA-256 of each listing's public line, by rank. */
  readonly lineHashes: readonly string[];
  /** The previous snapshot's pages kept, when there are. */
  readonly reuse: PageReuse | null;
  readonly history: WrittenHistory;
}

/**
 * Writes every file of the snapshot under `root` (an empty folder); returns the manifest. With
 * `fresh`, pages below LISTINGS_FOLDER whose inputs are those of the previous snapshot's are not
 * written, and the others are written into `fresh` (build/page-reuse.ts).
 */
async function writeFiles(
  root: string,
  model: Model,
  { builtAt, stage = () => {}, previousPages, mcpApp, memo, staticPages = true }: WriteOptions,
  fresh: string,
  previousDist: string,
  previous: PreviousHistory,
): Promise<Written> {
  const out = new FileWriter(root);

  // Each listing's line is hashed as it is written (a profile page is kept while its line's hash is the same), unless the cache has its hash.
  const lineHashes: string[] = [];
  const lineAt = (rank: number) => {
    const business = model.businesses[rank] as PublicBusiness;
    return memo === undefined ? JSON.stringify(business) : memo.line(business);
  };
  out.listings(model.businesses.length, (rank) => {
    const line = lineAt(rank);
    lineHashes.push(model.listingSources[rank]?.cached?.lineSha256 ?? sha256(line));
    return line;
  });
  const listingsSha256 = out.digests.get("businessesNdjson")?.sha256 ?? "";
  const version = createHash("sha256")
    .update(JSON.stringify([model.baseUrl, model.site, model.intro, model.services, model.offerings, [...model.guides]]))
    .update(listingsSha256)
    .digest("hex")
    .slice(0, 16);
  stage("listing data");

  const history = writeHistory(
    out,
    previous.history,
    { version, builtAt: builtAt.toISOString() },
    {
      count: model.businesses.length,
      idAt: (rank) => model.businesses[rank]?.id ?? "",
      lineSha256At: (rank) => lineHashes[rank] ?? "",
      lineAt,
    },
  );
  const { made } = history;
  stage(
    made === null
      ? "releases (no new release)"
      : made.previous === null
        ? "releases (a new history)"
        : `releases (${made.upserts + made.removals} changes)`,
  );

  const aliases = new Map(model.services.map((service) => [service.name, service.aliases ?? []]));
  const previousIndex = previousPages === null || previousPages === undefined ? null : previousSuffixes(previousDist);
  const index = buildDirectoryIndex(model.businesses, listingsSha256, aliases, previousIndex);
  const { header, arrays } = encodeDirectoryIndex(index);
  out.data("directoryIndex", header);
  out.data("directoryArrays", arrays);
  stage("directory index");

  const paging = listsPaging(model, index);
  const summary = directorySummary(index, paging);
  const inputs = nextInputs([model.baseUrl, model.site], model.businesses, lineHashes, index, summary, staticPages);
  const reuse =
    previousPages !== undefined && previousPages !== null && previousPages.pages === inputs.pages
      ? new PageReuse(previousPages, inputs)
      : null;
  if (reuse !== null) out.listingsInto(fresh);
  stage(reuse === null ? "page inputs (no pages kept)" : `page inputs (${reuse.keptFiles} pages kept)`);

  out.data("site", json(model.site));
  out.data("offerings", json(model.offerings));
  out.data("offeringsIndex", JSON.stringify(model.offeringsIndex));
  const openapi = openapiDocument({
    baseUrl: model.baseUrl,
    title: model.site.name,
    summary: model.site.summary,
    licence: model.site.licence,
  });
  out.data("openapi", json(openapi));
  out.data("mcpApp", await (mcpApp ?? mcpAppHtml)());
  const documents = catalogPages(model, summary);
  for (const [urlPath, content] of documents) out.write(pageFile(urlPath), content);
  out.write(pageFile(FAVICON_PATH), faviconIco());
  out.write(pageFile(FAVICON_SVG_PATH), faviconSvg());
  stage("catalog and pages");

  const pages = listingPages(
    model,
    summary,
    index,
    sitemapPages(documents.keys(), {
      count: model.businesses.length,
      slugAt: (rank) => model.businesses[rank]?.slug ?? "",
      lastmodAt: (rank) => history.lastmods[rank],
    }),
    reuse,
    staticPages,
  );
  out.writeAll(map(pages, ([urlPath, content]) => [pageFile(urlPath), content]));
  stage("listing pages, lists and sitemap");

  const files = Object.fromEntries(VERIFIED_FILES.map((file) => [file, out.digests.get(file)])) as Manifest["files"];
  const manifest: Manifest = {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    indexFormatVersion: INDEX_FORMAT_VERSION,
    version,
    builtAt: builtAt.toISOString(),
    baseUrl: model.baseUrl,
    counts: { offerings: model.offerings.length, businesses: model.businesses.length },
    files,
    pages: [...documents.keys()],
    lists: { country: [...paging.country], service: [...paging.service] },
    changes: history.changes,
  };
  out.write(SNAPSHOT_FILES.manifest, json(manifest));
  return { manifest, files: out.files + (reuse?.keptFiles ?? 0), inputs, lineHashes, reuse, history };
}

/**
 * Writes the snapshot beside `distDir` and swaps it in whole, so a reader sees the old snapshot
 * or the new one, never a mix; on failure the old one stays. Files are written one at a time
 * (synchronously: one descriptor, whatever the directory's size) and not kept once written.
 * Pages whose inputs did not change are kept from the previous snapshot (build/page-reuse.ts).
 */
export async function writeSnapshot(distDir: string, model: Model, options: WriteOptions): Promise<WrittenSnapshot> {
  const target = resolve(distDir);
  const stamp = `${process.pid}-${Date.now()}`;
  const sibling = (kind: string) => join(dirname(target), `.${basename(target)}-${kind}-${stamp}`);
  const staging = sibling("new");
  const retired = sibling("old");
  const fresh = sibling("pages");
  const trash = sibling("trash");
  let dropped = 0;
  try {
    const previous = previousHistory(distDir, options.previousSnapshot);
    options.stage?.("read the release history");
    const { manifest, files, inputs, lineHashes, reuse, history } = await writeFiles(staging, model, options, fresh, target, previous);
    dropped = reuse?.dropped.length ?? 0;
    const undo = reuse === null ? async () => {} : await reuse.move(target, staging, fresh, trash);
    let hadOld = true;
    try {
      await rename(target, retired);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        await undo();
        throw error;
      }
      hadOld = false;
    }
    await rename(staging, target);
    options.stage?.("swap");
    if (hadOld) {
      if (reuse === null && (await isLarge(retired))) removeInBackground(retired);
      else await remove(retired);
      options.stage?.("remove the old snapshot");
    }
    const pages: PageInputs = {
      snapshot: `${manifest.version} ${manifest.builtAt}`,
      pages: inputs.pages,
      profiles: inputs.profiles,
      listFolders: inputs.listFolders,
    };
    const why = "note" in previous ? { note: previous.note } : "warning" in previous ? { warning: previous.warning } : {};
    const outcome = { made: history.made, current: history.current, ...why };
    return { version: manifest.version, files, pages, kept: reuse?.keptFiles ?? 0, lineHashes, history: outcome };
  } finally {
    await remove(staging);
    await remove(fresh);
    if (dropped > LARGE_SNAPSHOT_LISTINGS) removeInBackground(trash);
    else await remove(trash);
  }
}

/** The suffix arrays of the index in `distDir`, or null when it cannot be read. */
function previousSuffixes(distDir: string): LocationSuffixes | null {
  try {
    const header = JSON.parse(readFileSync(join(distDir, SNAPSHOT_FILES.directoryIndex), "utf8")) as unknown;
    return decodeDirectoryIndex(header, readFileSync(join(distDir, SNAPSHOT_FILES.directoryArrays)));
  } catch {
    return null;
  }
}

/** Snapshots with more listings than this are removed in the background once replaced. */
const LARGE_SNAPSHOT_LISTINGS = 10_000;

/** Whether the snapshot in `distDir` (by its manifest) has many listings; false when it has no readable manifest. */
async function isLarge(distDir: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(distDir, SNAPSHOT_FILES.manifest), "utf8")) as { counts?: { businesses?: unknown } };
    return Number(manifest.counts?.businesses) > LARGE_SNAPSHOT_LISTINGS;
  } catch {
    return false;
  }
}

/**
 * Removes a replaced snapshot in a detached process, so the build ends when the new snapshot is
 * in place: removing 100,000 listing folders took 25-35 s on this kind of disk.
 */
function removeInBackground(path: string): void {
  const child = spawn("rm", ["-rf", "--", path], { detached: true, stdio: "ignore" });
  child.on("error", () => {
    void rm(path, { recursive: true, force: true });
  });
  child.unref();
}

/** `items` transformed one at a time. */
function* map<T, U>(items: Iterable<T>, transform: (item: T) => U): Generator<U> {
  for (const item of items) yield transform(item);
}

/** Removes a folder tree: the system's `rm -rf` where there is one (fs.rm takes more time and memory), else fs.rm. */
async function remove(path: string): Promise<void> {
  try {
    await execFileAsync("rm", ["-rf", "--", path]);
  } catch {
    await rm(path, { recursive: true, force: true });
  }
}
