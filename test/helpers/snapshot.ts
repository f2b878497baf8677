import { createHash } from "node:crypto";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readContent } from "../../build/content.ts";
import { deriveModel } from "../../build/derive.ts";
import { writeSnapshot } from "../../build/emit.ts";
import { validateContent } from "../../build/validate.ts";
import { blockDigests, type Manifest, SNAPSHOT_FILES, type VERIFIED_FILES } from "../../src/snapshot/files.ts";

export const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
export const SAMPLE_CONTENT = new URL("../../content/", import.meta.url).pathname;
export const TEST_BASE_URL = "http://localhost:3000";

/** A fresh temporary folder, removed by the returned cleanup. */
export async function tempDir(prefix = "catalog-test-"): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Builds `contentDir` into `distDir` in-process, exactly as `npm run build` does; throws on content errors. */
export async function buildSnapshot(
  contentDir: string,
  distDir: string,
  baseUrl = TEST_BASE_URL,
  { staticPages = true }: { staticPages?: boolean } = {},
): Promise<void> {
  const validation = validateContent(readContent(contentDir));
  if (!validation.ok) {
    throw new Error(validation.problems.map((p) => `${p.file}: ${p.field}: ${p.message}`).join("\n"));
  }
  await writeSnapshot(distDir, deriveModel(validation.content, baseUrl), { builtAt: new Date("2026-01-01T00:00:00Z"), staticPages });
}

/**
 * Replaces data files of a built snapshot and records their new sizes and digests in the
 * manifest, as a build would: a snapshot that is consistent but holds bad data, to test the
 * loader's checks. The manifest is swapped in last and whole (written beside it, then renamed),
 * so a running server sees the old snapshot or the new one, never a manifest half written.
 */
async function replaceSnapshotFiles(distDir: string, files: Partial<Record<(typeof VERIFIED_FILES)[number], string>>): Promise<void> {
  const manifestPath = join(distDir, SNAPSHOT_FILES.manifest);
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Manifest;
  for (const [file, content] of Object.entries(files) as [(typeof VERIFIED_FILES)[number], string][]) {
    const bytes = Buffer.from(content);
    await writeFile(join(distDir, SNAPSHOT_FILES[file]), bytes);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    manifest.files[file] =
      file === "businessesNdjson" ? { bytes: bytes.length, sha256, blocks: blockDigests(bytes) } : { bytes: bytes.length, sha256 };
  }
  await writeFile(`${manifestPath}.next`, JSON.stringify(manifest));
  await rename(`${manifestPath}.next`, manifestPath);
}

/** Replaces one data file of a built snapshot (see replaceSnapshotFiles). */
export function replaceSnapshotFile(distDir: string, file: (typeof VERIFIED_FILES)[number], content: string): Promise<void> {
  return replaceSnapshotFiles(distDir, { [file]: content });
}

/**
 * Replaces businesses.ndjson of a built snapshot and records its digest in the manifest and in the
 * directory index, as a build would: listings that every file agrees on but that are bad.
 */
export async function replaceListings(distDir: string, content: string): Promise<void> {
  const header = JSON.parse(await readFile(join(distDir, SNAPSHOT_FILES.directoryIndex), "utf8")) as { listingsSha256: string };
  header.listingsSha256 = createHash("sha256").update(Buffer.from(content)).digest("hex");
  await replaceSnapshotFiles(distDir, { businessesNdjson: content, directoryIndex: JSON.stringify(header) });
}
