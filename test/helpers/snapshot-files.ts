import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";

/**
 * Every file of a snapshot by path, as a digest of its bytes; the manifest without `builtAt`,
 * the one value that differs between two builds of the same content (when each was built).
 */
export async function snapshotFiles(dist: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dist, join(entry.parentPath, entry.name));
    let bytes = await readFile(join(dist, path));
    if (path === "data/manifest.json") {
      const { builtAt, ...rest } = JSON.parse(bytes.toString("utf8")) as { builtAt: string };
      assert.match(builtAt, /^\d{4}-\d\d-\d\dT/);
      bytes = Buffer.from(JSON.stringify(rest));
    }
    files.set(path, createHash("sha256").update(bytes).digest("hex"));
  }
  return files;
}

/** The files in which two snapshots differ: missing from one, or with other bytes. */
export function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((path) => a.get(path) !== b.get(path)).sort();
}

/** The listing files of a content folder, sorted: a test edits them by their position. */
export async function listingFilesOf(content: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(content, "businesses"), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.push(join(entry.parentPath, entry.name));
  }
  return files.sort();
}

/** A file's text with `from` replaced by `to`, written as a new file (never in place: the editor's way). */
export async function edit(path: string, from: RegExp, to: string): Promise<void> {
  const text = await readFile(path, "utf8");
  assert.match(text, from);
  await rm(path);
  await writeFile(path, text.replace(from, to));
}
