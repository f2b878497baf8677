import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { type Manifest, pageFile, SNAPSHOT_FILES, SNAPSHOT_FORMAT_VERSION } from "../src/snapshot/files.ts";
import { INDEX_FORMAT_VERSION } from "../src/snapshot/search-index.ts";
import type { Model } from "./derive.ts";
import { openapiDocument } from "./openapi.ts";
import { pages } from "./pages.ts";

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every file of the snapshot, by path inside `dist/`. */
export function snapshotFiles(model: Model, builtAt: Date): Map<string, string> {
  const documents = pages(model);
  const manifest: Manifest = {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    indexFormatVersion: INDEX_FORMAT_VERSION,
    version: model.version,
    builtAt: builtAt.toISOString(),
    baseUrl: model.baseUrl,
    counts: { offerings: model.offerings.length, businesses: model.businesses.length },
    pages: [...documents.keys()],
  };
  return new Map([
    ...[...documents].map(([urlPath, content]): [string, string] => [pageFile(urlPath), content]),
    [SNAPSHOT_FILES.manifest, json(manifest)],
    [SNAPSHOT_FILES.site, json(model.site)],
    [SNAPSHOT_FILES.offerings, json(model.offerings)],
    [SNAPSHOT_FILES.offeringsIndex, JSON.stringify(model.offeringsIndex)],
    [SNAPSHOT_FILES.businesses, json(model.businesses)],
    [SNAPSHOT_FILES.businessesIndex, JSON.stringify(model.businessesIndex)],
    [
      SNAPSHOT_FILES.openapi,
      json(openapiDocument({ baseUrl: model.baseUrl, title: model.site.name, summary: model.site.summary, licence: model.site.licence })),
    ],
  ]);
}

/**
 * Writes the snapshot beside `distDir` and swaps it in whole, so a reader sees the old snapshot
 * or the new one, never a mix; on failure the old one stays.
 */
export async function writeSnapshot(distDir: string, files: Map<string, string>): Promise<void> {
  const target = resolve(distDir);
  const stamp = `${process.pid}-${Date.now()}`;
  const staging = join(dirname(target), `.${basename(target)}-new-${stamp}`);
  const retired = join(dirname(target), `.${basename(target)}-old-${stamp}`);
  try {
    for (const [path, content] of files) {
      const file = join(staging, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
    let hadOld = true;
    try {
      await rename(target, retired);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      hadOld = false;
    }
    await rename(staging, target);
    if (hadOld) await rm(retired, { recursive: true, force: true });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
