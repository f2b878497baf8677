import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readContent } from "../../build/content.ts";
import { deriveModel } from "../../build/derive.ts";
import { snapshotFiles, writeSnapshot } from "../../build/emit.ts";
import { validateContent } from "../../build/validate.ts";

export const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
export const SAMPLE_CONTENT = new URL("../../content/", import.meta.url).pathname;
export const TEST_BASE_URL = "http://localhost:3000";

/** A fresh temporary folder, removed by the returned cleanup. */
export async function tempDir(prefix = "catalog-test-"): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Builds `contentDir` into `distDir` in-process, exactly as `npm run build` does; throws on content errors. */
export async function buildSnapshot(contentDir: string, distDir: string, baseUrl = TEST_BASE_URL): Promise<void> {
  const validation = validateContent(await readContent(contentDir));
  if (!validation.ok) {
    throw new Error(validation.problems.map((p) => `${p.file}: ${p.field}: ${p.message}`).join("\n"));
  }
  await writeSnapshot(distDir, snapshotFiles(deriveModel(validation.content, baseUrl), new Date("2026-01-01T00:00:00Z")));
}
