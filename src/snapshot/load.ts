import { readFile } from "node:fs/promises";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { MAX_OFFERINGS } from "../contract.ts";
import { createAjv } from "../schemas/ajv.ts";
import { type PublicBusiness, PublicBusinessSchema } from "../schemas/business.ts";
import { type SiteInfo, SiteInfoSchema } from "../schemas/content.ts";
import { type Offering, OfferingSchema } from "../schemas/offering.ts";
import { type Manifest, pageFile, SNAPSHOT_FORMAT_VERSION, type SnapshotFile, snapshotPath } from "./files.ts";
import {
  BUSINESS_INDEX_OPTIONS,
  type BusinessIndexDocument,
  INDEX_FORMAT_VERSION,
  OFFERING_INDEX_OPTIONS,
  type OfferingIndexDocument,
} from "./search-index.ts";
import { fold } from "./text.ts";
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
const validateBusinesses = ajv.compile({ type: "array", items: PublicBusinessSchema });
const validateSite = ajv.compile<SiteInfo>(SiteInfoSchema);

async function readJson(distDir: string, file: SnapshotFile): Promise<unknown> {
  const path = snapshotPath(distDir, file);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new SnapshotError(`${path} is missing or unreadable; run \`npm run build\`.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SnapshotError(`${path} is not valid JSON.`);
  }
}

function loadIndex<T>(
  json: unknown,
  options: typeof BUSINESS_INDEX_OPTIONS | typeof OFFERING_INDEX_OPTIONS,
  count: number,
  what: string,
): MiniSearch<T> {
  let index: MiniSearch<T>;
  try {
    index = MiniSearch.loadJS(json as Parameters<typeof MiniSearch.loadJS>[0], options as never) as MiniSearch<T>;
  } catch {
    throw new SnapshotError(`the ${what} search index cannot be loaded.`);
  }
  if (index.documentCount !== count) {
    throw new SnapshotError(`the ${what} search index holds ${index.documentCount} documents, the data ${count}.`);
  }
  return index;
}

function checkManifest(json: unknown): Manifest {
  const manifest = json as Partial<Manifest> | null;
  if (
    manifest === null ||
    typeof manifest !== "object" ||
    manifest.formatVersion !== SNAPSHOT_FORMAT_VERSION ||
    manifest.indexFormatVersion !== INDEX_FORMAT_VERSION ||
    typeof manifest.version !== "string" ||
    !Array.isArray(manifest.pages) ||
    !manifest.pages.every((page) => typeof page === "string" && page.startsWith("/") && !page.includes(".."))
  ) {
    throw new SnapshotError("the manifest is from another version of the build; run `npm run build`.");
  }
  return manifest as Manifest;
}

async function loadCatalog(distDir: string): Promise<Catalog> {
  const offerings = await readJson(distDir, "offerings");
  if (!validateOfferings(offerings)) {
    throw new SnapshotError(`offerings.json does not match the Offering schema (${ajv.errorsText(validateOfferings.errors)}).`);
  }
  const list = offerings as Offering[];
  const index = loadIndex<OfferingIndexDocument>(
    await readJson(distDir, "offeringsIndex"),
    OFFERING_INDEX_OPTIONS,
    list.length,
    "offerings",
  );
  return { offerings: list, index };
}

async function loadDirectory(distDir: string): Promise<Directory> {
  const businesses = await readJson(distDir, "businesses");
  if (!validateBusinesses(businesses)) {
    throw new SnapshotError(`businesses.json does not match the PublicBusiness schema (${ajv.errorsText(validateBusinesses.errors)}).`);
  }
  const list = businesses as PublicBusiness[];
  const index = loadIndex<BusinessIndexDocument>(
    await readJson(distDir, "businessesIndex"),
    BUSINESS_INDEX_OPTIONS,
    list.length,
    "businesses",
  );
  const byIdentifier = new Map<string, PublicBusiness>();
  for (const business of list) {
    byIdentifier.set(business.slug, business);
    byIdentifier.set(business.id.toLowerCase(), business);
  }
  const locationKeys = list.map(({ location }) => fold([location.city, location.region, location.postalCode].join("\n")));
  return { businesses: list, byIdentifier, locationKeys, index };
}

/**
 * Loads and checks a built snapshot. The catalog and the OpenAPI document are required; a
 * missing or invalid directory leaves `directory` null so only its endpoints answer 503.
 */
export async function loadSnapshot(distDir: string): Promise<Snapshot> {
  const manifest = checkManifest(await readJson(distDir, "manifest"));
  const site = await readJson(distDir, "site");
  if (!validateSite(site)) throw new SnapshotError(`site.json does not match the site schema (${ajv.errorsText(validateSite.errors)}).`);
  const catalog = await loadCatalog(distDir);
  let openapi: string;
  try {
    openapi = await readFile(snapshotPath(distDir, "openapi"), "utf8");
  } catch {
    throw new SnapshotError("openapi.json is missing; run `npm run build`.");
  }
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
    directory = await loadDirectory(distDir);
  } catch (error) {
    directoryProblem = error instanceof Error ? error.message : String(error);
  }
  return { manifest, site, catalog, directory, directoryProblem, openapi, pages };
}
