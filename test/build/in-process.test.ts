import assert from "node:assert/strict";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { type BuildOptions, build, type InProcess } from "../../build/build.ts";
import type { BuildCache } from "../../build/cache.ts";
import { unchangedBut } from "../../build/content.ts";
import { ListingMemo } from "../../build/listing-memo.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { tempDir } from "../helpers/snapshot.ts";
import { copySnapshot, differences, edit, listingFilesOf, snapshotFiles } from "../helpers/snapshot-files.ts";

const BUILD: BuildOptions = { checkOnly: false, clean: false, verbose: false, allWarnings: false, format: "text" };

/**
 * Builds in one process, as `npm run dev` runs them: each after the first starts from the cache the
 * one before left in memory, with what the builds before remember of listings (build/listing-memo.ts),
 * and must give what a clean build of the same content gives: the same files, the same warnings.
 */
describe("builds in one process, each from the cache the last one left", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let dist: string;
  let clean: string;
  let listingFiles: string[];
  let cache: BuildCache | null = null;
  const memo = new ListingMemo();
  /** What the next build starts from, as npm run dev gives it. */
  const inProcess = (): InProcess => (cache === null ? { memo } : { previous: cache.next(), memo });

  before(async () => {
    work = await tempDir();
    content = join(work.path, "content");
    dist = join(work.path, "dist");
    clean = join(work.path, "dist-clean");
    await generateContent(content, 200, 11);
    listingFiles = await listingFilesOf(content);
    // build() reads the folders and base URL from the environment, as the CLI does.
    Object.assign(process.env, { CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: "https://directory.example" });
  });
  after(async () => {
    await work.remove();
  });

  /**
   * Builds in this process from the last cache, then cleanly in a process of its own from a copy
   * of the same previous snapshot, and compares; the warnings printed.
   */
  async function buildBothAndCompare(): Promise<string> {
    await copySnapshot(dist, clean);
    const { result: built, stderr } = await printed(() => build(BUILD, inProcess()));
    assert.equal(built.code, 0);
    assert.notEqual(built.cache, null);
    cache = built.cache;
    const rebuilt = await buildCli(["--clean"], content, clean);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(stderr, rebuilt.stderr);
    assert.deepEqual(differences(await snapshotFiles(dist), await snapshotFiles(clean)), []);
    return stderr;
  }

  test("the first build, with no cache in memory, gives the clean build's snapshot", async () => {
    await buildBothAndCompare();
  });

  test("after a description, a name and a status are edited", async () => {
    await edit(listingFiles[1] as string, /\n---\n(.)/, "\n---\nNewly written: $1");
    await edit(listingFiles[2] as string, /^name: .*$/m, 'name: "Aaron Aardvark Plumbing"');
    await edit(listingFiles[3] as string, /^status: .*$/m, "status: suspended");
    // A new name that the directory's order takes as another listing's (case aside): its place is found among names kept in order.
    const other = (/^name: (.*)$/m.exec(await readFile(listingFiles[20] as string, "utf8"))?.[1] ?? "").toUpperCase();
    await edit(listingFiles[0] as string, /^name: .*$/m, `name: ${other}`);
    await buildBothAndCompare();
  });

  test("after a file is renamed and another deleted", async () => {
    const renamed = listingFiles[4] as string;
    await rename(renamed, renamed.replace(/\.md$/, "-moved.md"));
    await rm(listingFiles[5] as string);
    await buildBothAndCompare();
  });

  test("after nothing changed", async () => {
    await buildBothAndCompare();
  });

  test("after edits that warn, and again after nothing changed, the same warnings as a clean build", async () => {
    const [html, http, first, second] = listingFiles.slice(7, 11) as [string, string, string, string];
    await edit(html, /\n---\n(.)/, "\n---\n<b>Open late.</b> $1");
    await edit(http, /^quoteUrl: https:/m, "quoteUrl: http:");
    // The second listing takes the first's name and town: same-name warnings compare each listing with the others.
    const firstText = await readFile(first, "utf8");
    for (const field of ["name", "city", "country"]) {
      const line = new RegExp(`^ *${field}: .*$`, "m");
      await edit(second, line, firstText.match(line)?.[0] ?? "");
    }
    const warned = await buildBothAndCompare();
    for (const kind of ["holds HTML", "uses http:", "is also the name of"]) assert.match(warned, new RegExp(kind));
    assert.equal(await buildBothAndCompare(), warned);
  });

  test("told which files and folders changed, a build reads those again and takes any other file from the cache", async () => {
    // Three approved listings in three folders: one named, one in a folder named, one not named at all.
    const byFolder = new Map<string, string>();
    for (const file of listingFiles.slice(12)) {
      if (!byFolder.has(dirname(file)) && /^status: approved$/m.test(await readFile(file, "utf8"))) byFolder.set(dirname(file), file);
    }
    const [named, inFolder, unnamed] = [...byFolder.values()] as [string, string, string];
    for (const file of [named, inFolder, unnamed]) await edit(file, /\n+$/, " Edited beside the watcher.\n");
    const path = (file: string) => relative(content, file).split(sep).join("/");
    const unchanged = unchangedBut(new Set([path(named), path(dirname(inFolder))]));
    const told = await build(BUILD, { previous: (cache as BuildCache).next(), memo, unchanged });
    assert.equal(told.code, 0);
    cache = told.cache;
    const edited = (await readFile(join(dist, "data", "businesses.ndjson"), "utf8"))
      .split("\n")
      .filter((line) => line.includes("Edited beside the watcher."))
      .map((line) => (JSON.parse(line) as { slug: string }).slug);
    assert.deepEqual(edited.sort(), [basename(named, ".md"), basename(inFolder, ".md")].sort());
    // The next build compares every file's stat, as npm run dev's does when its watcher cannot be trusted.
    await buildBothAndCompare();
  });

  test("a build with a content error writes nothing and leaves no cache; the next, fixed, starts from the disk's", async () => {
    const broken = listingFiles[6] as string;
    const text = await readFile(broken, "utf8");
    await edit(broken, /^quoteUrl: .*$/m, "quoteUrl: not a URL");
    const failed = await build(BUILD, inProcess());
    assert.deepEqual(failed, { code: 1, cache: null });
    await writeFile(broken, `${text.trimEnd()} Fixed.\n`);
    cache = null;
    await buildBothAndCompare();
  });
});

/** What `run` returns, and what it printed on stderr meanwhile. */
async function printed<T>(run: () => Promise<T>): Promise<{ result: T; stderr: string }> {
  const write = process.stderr.write;
  let stderr = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    return { result: await run(), stderr };
  } finally {
    process.stderr.write = write;
  }
}
