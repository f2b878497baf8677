import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import MiniSearch from "minisearch";
import SearchableMap from "minisearch/SearchableMap";
import { MAX_OFFERINGS } from "../contract.ts";
import { createAjv } from "../schemas/ajv.ts";
import { type SiteInfo, SiteInfoSchema } from "../schemas/content.ts";
import { type Offering, OfferingSchema } from "../schemas/offering.ts";
import { decodeDirectoryIndex, IndexFormatError } from "./directory-index.ts";
import {
  type FileDigest,
  isFileDigest,
  isListPaging,
  LISTING_BLOCK_BYTES,
  type Manifest,
  matchesDigest,
  pageFile,
  SNAPSHOT_FILES,
  SNAPSHOT_FORMAT_VERSION,
  type SnapshotFile,
  snapshotPath,
  VERIFIED_FILES,
} from "./files.ts";
import { type HeldListingCheck, type ListingCheck, ListingCheckError, readCheckedListings, startListingCheck } from "./listing-check.ts";
import { ListingShapeError } from "./listing-lookup.ts";
import type { ListingStore } from "./listings.ts";
import { listingStore } from "./listings-in-memory.ts";
import { closeListingStore, listingStoreOnDisk } from "./listings-on-disk.ts";
import { checkReleases, type Releases, ReleasesError } from "./releases.ts";
import { INDEX_FORMAT_VERSION, OFFERING_INDEX_OPTIONS, type OfferingIndexDocument } from "./search-index.ts";
import type { Catalog, Directory, Snapshot } from "./types.ts";

/** The snapshot in `distDir` cannot be served. */
export class SnapshotError extends Error {
  constructor(message: string) {
    super(`snapshot: ${message}`);
    this.name = "SnapshotError";
  }
}

const ajv = createAjv();
const validateOfferings = ajv.compile({ type: "array", maxItems: MAX_OFFERINGS, items: OfferingSchema });
const validateSite = ajv.compile<SiteInfo>(SiteInfoSchema);

const missing = (path: string) => new SnapshotError(`${path} is missing or unreadable; run \`npm run build\`.`);

/** A snapshot file whose bytes are not those the manifest describes. */
const notTheFile = (file: SnapshotFile) =>
  new SnapshotError(
    `${SNAPSHOT_FILES[file]} is not the file the manifest describes (damaged, or from another build); run \`npm run build\`.`,
  );

/** A snapshot file's bytes, checked against the size and SHA-256 the manifest gives for it. */
async function readVerified(distDir: string, manifest: Manifest, file: (typeof VERIFIED_FILES)[number]): Promise<Buffer> {
  const path = snapshotPath(distDir, file);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    throw missing(path);
  }
  if (!matchesDigest(bytes, manifest.files[file])) throw notTheFile(file);
  return bytes;
}

function parseJson(bytes: Buffer, file: SnapshotFile): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new SnapshotError(`${SNAPSHOT_FILES[file]} is not valid JSON.`);
  }
}

function checkManifest(json: unknown): Manifest {
  const manifest = json as Partial<Manifest> | null;
  const digestsComplete =
    manifest?.files !== undefined && manifest.files !== null && VERIFIED_FILES.every((file) => isFileDigest(manifest.files?.[file]));
  const listings = manifest?.files?.businessesNdjson;
  const blocksComplete =
    listings !== undefined &&
    Array.isArray(listings.blocks) &&
    listings.blocks.length === Math.ceil(listings.bytes / LISTING_BLOCK_BYTES) &&
    listings.blocks.every((block) => typeof block === "string");
  if (
    manifest === null ||
    typeof manifest !== "object" ||
    manifest.formatVersion !== SNAPSHOT_FORMAT_VERSION ||
    manifest.indexFormatVersion !== INDEX_FORMAT_VERSION ||
    typeof manifest.version !== "string" ||
    !digestsComplete ||
    !blocksComplete ||
    !Array.isArray(manifest.pages) ||
    !manifest.pages.every((page) => typeof page === "string" && page.startsWith("/") && !page.includes("..")) ||
    !Array.isArray(manifest.lists?.country) ||
    !manifest.lists.country.every(isListPaging) ||
    !Array.isArray(manifest.lists.service) ||
    !manifest.lists.service.every(isListPaging) ||
    typeof manifest.changes !== "object" ||
    manifest.changes === null
  ) {
    throw new SnapshotError("the manifest is from another version of the build; run `npm run build`.");
  }
  return manifest as Manifest;
}

async function loadCatalog(distDir: string, manifest: Manifest): Promise<Catalog> {
  const offerings = parseJson(await readVerified(distDir, manifest, "offerings"), "offerings");
  if (!validateOfferings(offerings)) {
    throw new SnapshotError(`offerings.json does not match the Offering schema (${ajv.errorsText(validateOfferings.errors)}).`);
  }
  const list = offerings as Offering[];
  let index: MiniSearch<OfferingIndexDocument>;
  try {
    const json = parseJson(await readVerified(distDir, manifest, "offeringsIndex"), "offeringsIndex");
    index = MiniSearch.loadJS(json as Parameters<typeof MiniSearch.loadJS>[0], OFFERING_INDEX_OPTIONS) as MiniSearch<OfferingIndexDocument>;
  } catch (error) {
    throw error instanceof SnapshotError ? error : new SnapshotError("the offerings search index cannot be loaded.");
  }
  if (index.documentCount !== list.length) {
    throw new SnapshotError(`the offerings search index holds ${index.documentCount} documents, the data ${list.length}.`);
  }
  return { offerings: list, index };
}

/** How a snapshot is loaded. */
export interface LoadOptions {
  /**
   * The largest businesses.ndjson held in memory whole, in bytes; a larger one is read from disk
   * per request (see listings-on-disk.ts). The server passes LISTINGS_IN_MEMORY_MB (src/config.ts);
   * without it the file is held whole.
   */
  readonly listingsInMemoryBytes?: number;
  /**
   * The snapshot served now (LiveSnapshot's reload): the lines of its listings held whole, all
   * checked, are not checked again where the new file has them (readCheckedListings).
   */
  readonly served?: Snapshot | null;
}

/**
 * A copy of a snapshot's listings, when it holds them whole, shared with the check's workers. A
 * copy (about 30 ms at 100,000 listings, and their size in memory while the check runs): the
 * bytes held are served as they are, and fastify sends a Buffer as bytes only when it is an
 * ArrayBuffer's (one over a SharedArrayBuffer went to the JSON serialiser: a 500).
 */
function checkedBytes(snapshot: Snapshot | null | undefined): SharedArrayBuffer | undefined {
  const listings = snapshot?.directory?.listings;
  if (listings === undefined || listings.file !== null) return undefined;
  const shared = new SharedArrayBuffer(listings.bytes.length);
  listings.bytes.copy(Buffer.from(shared));
  return shared;
}

/** The SHA-256 of the file at `path`, read a chunk at a time. */
async function fileSha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** businesses.ndjson held whole: the bytes its check read and verified (readCheckedListings). */
async function heldListings(path: string, check: HeldListingCheck, count: number): Promise<ListingStore> {
  let bytes: Buffer;
  try {
    bytes = await check.bytes;
  } catch (error) {
    if (!(error instanceof ListingCheckError)) throw missing(path);
    throw error.notTheFile ? notTheFile("businessesNdjson") : new SnapshotError(error.message);
  }
  try {
    return listingStore(bytes, count);
  } catch (error) {
    if (error instanceof ListingShapeError) throw new SnapshotError(error.message);
    throw error;
  }
}

/** businesses.ndjson read from disk per request, checked by its workers (`check`) meanwhile. */
async function listingsOnDisk(path: string, expected: FileDigest, check: ListingCheck, count: number): Promise<ListingStore> {
  let loaded: Awaited<ReturnType<typeof listingStoreOnDisk>>;
  try {
    loaded = await listingStoreOnDisk(path, count);
  } catch (error) {
    if (!(error instanceof ListingShapeError)) throw missing(path);
    // As for a file held whole, a file that is not the manifest's is reported as such first.
    if ((await fileSha256(path).catch(() => "")) !== expected.sha256) throw notTheFile("businessesNdjson");
    throw new SnapshotError(error.message);
  }
  if (loaded.store.lineStarts[count] !== expected.bytes || loaded.sha256 !== expected.sha256) {
    closeListingStore(loaded.store);
    throw notTheFile("businessesNdjson");
  }
  try {
    await check.finish(loaded.store.lineStarts);
  } catch (error) {
    closeListingStore(loaded.store);
    if (error instanceof ListingCheckError) throw new SnapshotError(error.message);
    throw error;
  }
  return loaded.store;
}

async function loadDirectory(distDir: string, manifest: Manifest, options: LoadOptions): Promise<Directory> {
  const path = snapshotPath(distDir, "businessesNdjson");
  const expected = manifest.files.businessesNdjson;
  // Where each line starts is held as a 32-bit number.
  if (expected.bytes >= 2 ** 32) {
    throw new SnapshotError(
      `businesses.ndjson is ${expected.bytes} bytes; the server reads less than 4 GiB of listings (about 5.8 million).`,
    );
  }
  // The schema check runs in worker threads from the start, while this thread reads the index.
  // A file held whole is read by its first worker, which hands over the bytes once all are
  // checked; a larger one is checked by a worker a core while this thread reads it for the lookups.
  const checking =
    expected.bytes <= (options.listingsInMemoryBytes ?? Number.POSITIVE_INFINITY)
      ? { held: true as const, check: readCheckedListings(path, expected, { checked: checkedBytes(options.served) }) }
      : { held: false as const, check: startListingCheck(path, expected) };
  try {
    const [header, arrays] = await Promise.all([
      readVerified(distDir, manifest, "directoryIndex"),
      readVerified(distDir, manifest, "directoryArrays"),
    ]);
    let index: Directory["index"];
    try {
      index = decodeDirectoryIndex(parseJson(header, "directoryIndex"), arrays);
    } catch (error) {
      if (error instanceof IndexFormatError) throw new SnapshotError(`the directory index is not valid: ${error.message}.`);
      throw error;
    }
    if (index.listingsSha256 !== expected.sha256) {
      throw new SnapshotError("businesses.ndjson is not the file the directory index was built from.");
    }
    if (manifest.lists.country.length !== index.countries.length || manifest.lists.service.length !== index.services.length) {
      throw new SnapshotError("the manifest's lists are not the directory index's countries and services.");
    }
    // Made while the listings are still being read and checked.
    const terms = new SearchableMap<number>();
    for (const [term, text] of index.terms.entries()) terms.set(text, term);
    const countryIndex = new Map(index.countries.map((code, i) => [code, i]));
    const listings = checking.held
      ? await heldListings(path, checking.check, index.count)
      : await listingsOnDisk(path, expected, checking.check, index.count);
    return { index, listings, terms, countryIndex };
  } finally {
    checking.check.stop();
  }
}

/**
 * Loads and checks a built snapshot. The catalog and the OpenAPI document are required; a
 * missing or invalid directory leaves `directory` null so only its endpoints answer 503.
 */
export async function loadSnapshot(distDir: string, options: LoadOptions = {}): Promise<Snapshot> {
  let manifestText: string;
  try {
    manifestText = await readFile(snapshotPath(distDir, "manifest"), "utf8");
  } catch {
    throw missing(snapshotPath(distDir, "manifest"));
  }
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(manifestText);
  } catch {
    throw new SnapshotError(`${SNAPSHOT_FILES.manifest} is not valid JSON.`);
  }
  const manifest = checkManifest(manifestJson);
  // The directory first: its listing check's workers and its reads then run while this thread
  // loads the rest (and, at the server's start, its modules), instead of after them.
  const directoryLoading = loadDirectory(distDir, manifest, options).then(
    (directory) => ({ directory, directoryProblem: null }),
    (error: unknown) => ({ directory: null, directoryProblem: error instanceof Error ? error.message : String(error) }),
  );
  let rest: SnapshotRest;
  try {
    rest = await loadTheRest(distDir, manifest);
  } catch (error) {
    const { directory } = await directoryLoading;
    if (directory !== null) closeListingStore(directory.listings);
    throw error;
  }
  return { manifest, ...rest, ...(await directoryLoading) };
}

/** Everything in a snapshot but its manifest and directory. */
type SnapshotRest = Pick<Snapshot, "site" | "catalog" | "openapi" | "mcpApp" | "pages" | "releases">;

/** releases.json, checked against the manifest's changes files: a snapshot without a valid history is not served. */
async function loadReleases(distDir: string, manifest: Manifest): Promise<Releases> {
  const bytes = await readVerified(distDir, manifest, "releases");
  try {
    const file = checkReleases(bytes.toString("utf8"), manifest.changes);
    return { file, bytes, dir: resolve(distDir), changes: manifest.changes, listingReleases: manifest.files.listingReleases };
  } catch (error) {
    if (error instanceof ReleasesError) throw new SnapshotError(`${error.message}; run \`npm run build\`.`);
    throw error;
  }
}

async function loadTheRest(distDir: string, manifest: Manifest): Promise<SnapshotRest> {
  const site = parseJson(await readVerified(distDir, manifest, "site"), "site");
  if (!validateSite(site)) throw new SnapshotError(`site.json does not match the site schema (${ajv.errorsText(validateSite.errors)}).`);
  const catalog = await loadCatalog(distDir, manifest);
  const openapi = (await readVerified(distDir, manifest, "openapi")).toString("utf8");
  const mcpApp = (await readVerified(distDir, manifest, "mcpApp")).toString("utf8");
  const releases = await loadReleases(distDir, manifest);
  const pages = new Map<string, string>();
  for (const urlPath of manifest.pages) {
    try {
      pages.set(urlPath, await readFile(join(distDir, pageFile(urlPath)), "utf8"));
    } catch {
      throw new SnapshotError(`the page ${urlPath} listed in the manifest is missing; run \`npm run build\`.`);
    }
  }
  return { site, catalog, openapi, mcpApp, pages, releases };
}
