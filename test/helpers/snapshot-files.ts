import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";

/** The files that write when releases were built: the history's, and the sitemaps (each profile's lastmod). */
const TIMED_FILES = /^(?:data\/releases\.json|data\/listing-releases\.json|sitemap\.xml|sitemaps\/\d+\.xml)$/;

/**
 * Every file of a snapshot by path, as a digest of its bytes, apart from when it was built, the
 * one thing that differs between two builds of the same content from the same previous snapshot:
 * the manifest without `builtAt` (nor the digests of the history's files, which hold times), and
 * in the files that write a release's builtAt (TIMED_FILES), each one as the version of its release.
 */
export async function snapshotFiles(dist: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const releases = JSON.parse(await readFile(join(dist, "data/releases.json"), "utf8")) as {
    releases: { version: string; builtAt: string }[];
  };
  const untimed = (text: string) =>
    releases.releases.reduce((written, { version, builtAt }) => written.replaceAll(builtAt, `(when ${version} was built)`), text);
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(dist, join(entry.parentPath, entry.name));
    let bytes = await readFile(join(dist, path));
    if (path === "data/manifest.json") {
      const {
        builtAt,
        files: verified,
        ...rest
      } = JSON.parse(bytes.toString("utf8")) as { builtAt: string; files: Record<string, unknown> };
      assert.match(builtAt, /^\d{4}-\d\d-\d\dT/);
      const { releases: _releases, listingReleases: _listingReleases, ...others } = verified;
      bytes = Buffer.from(JSON.stringify({ ...rest, files: others }));
    } else if (TIMED_FILES.test(path)) {
      bytes = Buffer.from(untimed(bytes.toString("utf8")));
    }
    files.set(path, createHash("sha256").update(bytes).digest("hex"));
  }
  return files;
}

/** Replaces `to` with a copy of the snapshot in `from` (none when there is none yet). */
export async function copySnapshot(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
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
