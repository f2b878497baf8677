import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import MiniSearch from "minisearch";
import SearchableMap from "minisearch/SearchableMap";
import { MAX_OFFERINGS } from "../contract.ts";
import { createAjv } from "../schemas/ajv.ts";
import { type SiteInfo, SiteInfoSchema } from "../schemas/content.ts";
import { type Offering, OfferingSchema } from "../schemas/offering.ts";
import { decodeDirectoryIndex, IndexFormatError } from "./directory-index.ts";
import {
  type Manifest,
  pageFile,
  SNAPSHOT_FILES,
  SNAPSHOT_FORMAT_VERSION,
  type SnapshotFile,
  snapshotPath,
  VERIFIED_FILES,
} from "./files.ts";
import { hasDuplicateIdentifiers, ListingShapeError, type ListingStore, listingStore } from "./listings.ts";
import { INDEX_FORMAT_VERSION, OFFERING_INDEX_OPTIONS, type OfferingIndexDocument } from "./search-index.ts";
import type { Catalog, Directory, Snapshot } from "./types.ts";
import type { ValidationRequest, ValidationResult } from "./validate-worker.ts";

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

/** A snapshot file's bytes, checked against the size and SHA-256 the manifest gives for it. */
async function readVerified(distDir: string, manifest: Manifest, file: (typeof VERIFIED_FILES)[number]): Promise<Buffer> {
  const path = snapshotPath(distDir, file);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    throw new SnapshotError(`${path} is missing or unreadable; run \`npm run build\`.`);
  }
  const expected = manifest.files[file];
  if (bytes.length !== expected.bytes || createHash("sha256").update(bytes).digest("hex") !== expected.sha256) {
    throw new SnapshotError(
      `${SNAPSHOT_FILES[file]} is not the file the manifest describes (damaged, or from another build); run \`npm run build\`.`,
    );
  }
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
    manifest?.files !== undefined &&
    manifest.files !== null &&
    VERIFIED_FILES.every((file) => {
      const digest = manifest.files?.[file];
      return typeof digest?.bytes === "number" && typeof digest.sha256 === "string";
    });
  if (
    manifest === null ||
    typeof manifest !== "object" ||
    manifest.formatVersion !== SNAPSHOT_FORMAT_VERSION ||
    manifest.indexFormatVersion !== INDEX_FORMAT_VERSION ||
    typeof manifest.version !== "string" ||
    !digestsComplete ||
    !Array.isArray(manifest.pages) ||
    !manifest.pages.every((page) => typeof page === "string" && page.startsWith("/") && !page.includes(".."))
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

/**
 * The worker's module. Run from TypeScript sources, a worker does not inherit tsx's loader on
 * Node.js 20 (privatenumber/tsx#354), so it starts from a one-line module that registers tsx and
 * then imports the worker.
 */
function workerScript(): URL {
  const worker = new URL(`./validate-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  if (!worker.pathname.endsWith(".ts")) return worker;
  const bootstrap = [
    `const { register } = await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))});`,
    "register();",
    `await import(${JSON.stringify(worker.href)});`,
  ].join("\n");
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/**
 * Every listing is checked against the PublicBusiness schema, so nothing but approved public
 * fields can be served, whatever dist/ holds: in a worker thread that reads the file itself, so
 * the million objects parsing makes never enter the server's heap, and the loader meanwhile builds
 * its lookups. The worker's digest of what it read must be the manifest's.
 */
function checkListings(path: string, sha256: string): { readonly done: Promise<void>; readonly stop: () => void } {
  const request: ValidationRequest = { path };
  const worker = new Worker(workerScript(), { workerData: request });
  const done = new Promise<ValidationResult>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the listing check stopped with code ${code}`)));
  }).then((result) => {
    if (!result.ok) throw new SnapshotError(result.problem);
    if (result.sha256 !== sha256) throw new SnapshotError("businesses.ndjson changed while it was being loaded; run `npm run build`.");
  });
  done.catch(() => {});
  return { done, stop: () => void worker.terminate() };
}

async function loadDirectory(distDir: string, manifest: Manifest): Promise<Directory> {
  const [bytes, header, arrays] = await Promise.all([
    readVerified(distDir, manifest, "businessesNdjson"),
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
  if (index.listingsSha256 !== manifest.files.businessesNdjson.sha256) {
    throw new SnapshotError("businesses.ndjson is not the file the directory index was built from.");
  }
  // The schema check runs in its worker while this thread builds the lookups.
  const check = checkListings(snapshotPath(distDir, "businessesNdjson"), manifest.files.businessesNdjson.sha256);
  try {
    let listings: ListingStore;
    try {
      listings = listingStore(bytes, index.count);
    } catch (error) {
      if (error instanceof ListingShapeError) throw new SnapshotError(error.message);
      throw error;
    }
    if (hasDuplicateIdentifiers(listings)) throw new SnapshotError("two listings share a slug or an id.");
    const terms = new SearchableMap<number>();
    for (const [term, text] of index.terms.entries()) terms.set(text, term);
    const countryIndex = new Map(index.countries.map((code, i) => [code, i]));
    await check.done;
    return { index, listings, terms, countryIndex };
  } finally {
    check.stop();
  }
}

/**
 * Loads and checks a built snapshot. The catalog and the OpenAPI document are required; a
 * missing or invalid directory leaves `directory` null so only its endpoints answer 503.
 */
export async function loadSnapshot(distDir: string): Promise<Snapshot> {
  let manifestText: string;
  try {
    manifestText = await readFile(snapshotPath(distDir, "manifest"), "utf8");
  } catch {
    throw new SnapshotError(`${snapshotPath(distDir, "manifest")} is missing or unreadable; run \`npm run build\`.`);
  }
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(manifestText);
  } catch {
    throw new SnapshotError(`${SNAPSHOT_FILES.manifest} is not valid JSON.`);
  }
  const manifest = checkManifest(manifestJson);
  const site = parseJson(await readVerified(distDir, manifest, "site"), "site");
  if (!validateSite(site)) throw new SnapshotError(`site.json does not match the site schema (${ajv.errorsText(validateSite.errors)}).`);
  const catalog = await loadCatalog(distDir, manifest);
  const openapi = (await readVerified(distDir, manifest, "openapi")).toString("utf8");
  const pages = new Map<string, string>();
  for (const urlPath of manifest.pages) {
    try {
      pages.set(urlPath, await readFile(join(distDir, pageFile(urlPath)), "utf8"));
    } catch {
      throw new SnapshotError(`the page ${urlPath} listed in the manifest is missing; run \`npm run build\`.`);
    }
  }
  let directory: Directory | null = null;
  let directoryProblem: string | null = null;
  try {
    directory = await loadDirectory(distDir, manifest);
  } catch (error) {
    directoryProblem = error instanceof Error ? error.message : String(error);
  }
  return { manifest, site, catalog, directory, directoryProblem, openapi, pages };
}
