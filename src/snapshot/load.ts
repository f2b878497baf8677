import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import MiniSearch from "minisearch";
import SearchableMap from "minisearch/SearchableMap";
import { MAX_OFFERINGS } from "../contract.ts";
import { createAjv } from "../schemas/ajv.ts";
import { PublicBusinessSchema } from "../schemas/business.ts";
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
const validateBusiness = ajv.compile(PublicBusinessSchema);
const validateSite = ajv.compile<SiteInfo>(SiteInfoSchema);

const NEWLINE = 0x0a;

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

/** Where each line of `bytes` starts, and one past the end; exactly `count` lines, each ended by a newline. */
function lineStarts(bytes: Buffer, count: number): Uint32Array {
  const starts = new Uint32Array(count + 1);
  let position = 0;
  for (let line = 0; line < count; line += 1) {
    starts[line] = position;
    const end = bytes.indexOf(NEWLINE, position);
    if (end < 0) throw new SnapshotError(`businesses.ndjson holds ${line} listings, the index ${count}.`);
    position = end + 1;
  }
  if (position !== bytes.length) throw new SnapshotError(`businesses.ndjson holds more listings than the index's ${count}.`);
  starts[count] = position;
  return starts;
}

/**
 * Every listing is checked against the PublicBusiness schema, and its slug and id against the
 * index, so nothing but approved public fields can be served, whatever dist/ holds.
 */
function checkListings(directory: Omit<Directory, "terms" | "countryIndex" | "byIdentifier">): void {
  const { index, listings, lineStarts: starts } = directory;
  for (let rank = 0; rank < index.count; rank += 1) {
    let business: unknown;
    try {
      business = JSON.parse(listings.toString("utf8", starts[rank], (starts[rank + 1] ?? 0) - 1));
    } catch {
      throw new SnapshotError(`listing ${rank + 1} of businesses.ndjson is not valid JSON.`);
    }
    if (!validateBusiness(business)) {
      throw new SnapshotError(
        `listing ${rank + 1} of businesses.ndjson does not match the PublicBusiness schema (${ajv.errorsText(validateBusiness.errors)}).`,
      );
    }
    const { slug, id } = business as { slug: string; id: string };
    if (slug !== index.slugs[rank] || id.toLowerCase() !== index.ids[rank]) {
      throw new SnapshotError(`listing ${rank + 1} of businesses.ndjson is not the listing the index ranks there.`);
    }
  }
}

async function loadDirectory(distDir: string, manifest: Manifest): Promise<Directory> {
  const [listings, header, arrays] = await Promise.all([
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
  const starts = lineStarts(listings, index.count);
  checkListings({ index, listings, lineStarts: starts });
  const byIdentifier = new Map<string, number>();
  for (let rank = 0; rank < index.count; rank += 1) {
    byIdentifier.set(index.slugs[rank] ?? "", rank);
    byIdentifier.set(index.ids[rank] ?? "", rank);
  }
  if (byIdentifier.size !== index.count * 2) throw new SnapshotError("two listings share a slug or an id.");
  const terms = new SearchableMap<number>();
  for (const [term, text] of index.terms.entries()) terms.set(text, term);
  const countryIndex = new Map(index.countries.map((code, i) => [code, i]));
  return { index, listings, lineStarts: starts, byIdentifier, terms, countryIndex };
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
