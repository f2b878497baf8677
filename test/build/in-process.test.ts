import assert from "node:assert/strict";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { type BuildOptions, build } from "../../build/build.ts";
import type { BuildCache } from "../../build/cache.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { tempDir } from "../helpers/snapshot.ts";
import { differences, edit, listingFilesOf, snapshotFiles } from "../helpers/snapshot-files.ts";

const BUILD: BuildOptions = { checkOnly: false, clean: false, verbose: false, allWarnings: false, format: "text" };

/**
 * Builds in one process, as `npm run dev` runs them: each after the first starts from the cache the
 * one before left in memory, and must give what a clean build of the same content gives.
 */
describe("builds in one process, each from the cache the last one left", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let dist: string;
  let clean: string;
  let listingFiles: string[];
  let cache: BuildCache | null = null;

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

  /** Builds in this process from the last cache, then cleanly in a process of its own, and compares. */
  async function buildBothAndCompare(): Promise<void> {
    const built = await build(BUILD, cache?.next());
    assert.equal(built.code, 0);
    assert.notEqual(built.cache, null);
    cache = built.cache;
    const rebuilt = await buildCli(["--clean"], content, clean);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.deepEqual(differences(await snapshotFiles(dist), await snapshotFiles(clean)), []);
  }

  test("the first build, with no cache in memory, gives the clean build's snapshot", async () => {
    await buildBothAndCompare();
  });

  test("after a description, a name and a status are edited", async () => {
    await edit(listingFiles[1] as string, /\n---\n(.)/, "\n---\nNewly written: $1");
    await edit(listingFiles[2] as string, /^name: .*$/m, 'name: "Aaron Aardvark Plumbing"');
    await edit(listingFiles[3] as string, /^status: .*$/m, "status: suspended");
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

  test("a build with a content error writes nothing and leaves no cache; the next, fixed, starts from the disk's", async () => {
    const broken = listingFiles[6] as string;
    const text = await readFile(broken, "utf8");
    await edit(broken, /^quoteUrl: .*$/m, "quoteUrl: not a URL");
    const failed = await build(BUILD, cache?.next());
    assert.deepEqual(failed, { code: 1, cache: null });
    await writeFile(broken, `${text.trimEnd()} Fixed.\n`);
    cache = null;
    await buildBothAndCompare();
  });
});
