import assert from "node:assert/strict";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { cacheDir } from "../../build/cache.ts";
import { segmentFile } from "../../build/cache-files.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { tempDir } from "../helpers/snapshot.ts";
import { copySnapshot, differences, edit, listingFilesOf, snapshotFiles } from "../helpers/snapshot-files.ts";

describe("incremental builds", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let incremental: string;
  let clean: string;
  /** A listing file of the generated content, by its position among them. */
  let listingFiles: string[];

  before(async () => {
    work = await tempDir();
    content = join(work.path, "content");
    incremental = join(work.path, "dist");
    clean = join(work.path, "dist-clean");
    await generateContent(content, 300, 7);
    listingFiles = await listingFilesOf(content);
    const first = await buildCli([], content, incremental);
    assert.equal(first.code, 0, first.stderr);
  });
  after(async () => {
    await work.remove();
  });

  /**
   * Builds the content both ways from the same previous snapshot (the clean build's is a copy:
   * its release history is data, not a cache) and checks that the incremental snapshot and
   * warnings are the clean one's; the warnings.
   */
  async function buildBothAndCompare(): Promise<string> {
    await copySnapshot(incremental, clean);
    const built = await buildCli([], content, incremental);
    assert.equal(built.code, 0, built.stderr);
    const rebuilt = await buildCli(["--clean"], content, clean);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.deepEqual(differences(await snapshotFiles(incremental), await snapshotFiles(clean)), []);
    assert.equal(built.stderr, rebuilt.stderr);
    return built.stderr;
  }

  /** The cache's files by name, each with its inode (a file written again is a new one, renamed over the old). */
  async function cacheFiles(): Promise<Map<string, number>> {
    const names = (await readdir(cacheDir(incremental))).sort();
    return new Map(await Promise.all(names.map(async (name) => [name, (await stat(join(cacheDir(incremental), name))).ino] as const)));
  }

  test("gives the same snapshot as a clean build when nothing changed, keeping every page it had", async () => {
    const profile = join(incremental, "businesses", listingFiles[0]?.split("/").pop()?.replace(/\.md$/, "") ?? "", "index.md");
    const approved = await stat(profile).catch(() => null);
    await buildBothAndCompare();
    if (approved !== null) assert.equal((await stat(profile)).ino, approved.ino, "an unchanged profile is the previous snapshot's file");
  });

  test("gives the same snapshot as a clean build after a description is edited", async () => {
    await edit(listingFiles[1] as string, /\n---\n(.)/, "\n---\nNewly written: $1");
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after a name changes (the listing moves in the order)", async () => {
    await edit(listingFiles[2] as string, /^name: .*$/m, 'name: "Aaron Aardvark Plumbing"');
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after listings are added, one of them in a new country", async () => {
    const text = await readFile(listingFiles[3] as string, "utf8");
    const copy = (id: string) => text.replace(/^id: .*$/m, `id: "${id}"`).replace(/^name: .*$/m, `name: "Zebra Works ${id.slice(0, 4)}"`);
    await writeFile(join(content, "businesses", "added-one.md"), copy("0b4e28ba-2fa1-41d2-883f-0016d3cca427"));
    await mkdir(join(content, "businesses", "mt"), { recursive: true });
    await writeFile(
      join(content, "businesses", "mt", "added-in-malta.md"),
      copy("2b4e28ba-2fa1-41d2-883f-0016d3cca427")
        .replace(/^ {2}country: .*$/m, "  country: MT")
        .replace(/^status: .*$/m, "status: approved"),
    );
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after a file is renamed (its slug changes)", async () => {
    const from = listingFiles[4] as string;
    const to = from.replace(/\.md$/, "-renamed.md");
    await rename(from, to);
    listingFiles[4] = to;
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after listings are deleted, a whole country's among them", async () => {
    await rm(listingFiles[5] as string);
    await rm(join(content, "businesses", "mt"), { recursive: true });
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after a status, a service and a place change", async () => {
    await edit(listingFiles[6] as string, /^status: .*$/m, "status: suspended");
    await edit(listingFiles[7] as string, /^status: .*$/m, "status: approved");
    const other = (await readFile(listingFiles[8] as string, "utf8")).match(/^(service: .*\ncategory: .*)$/m)?.[1] ?? "";
    await edit(listingFiles[9] as string, /^service: .*\ncategory: .*$/m, other);
    await edit(listingFiles[10] as string, /^ {2}city: .*$/m, "  city: Llanfair");
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after the site and an offering change (every page changes)", async () => {
    await edit(join(content, "site.md"), /^name: .*$/m, "name: Renamed Directory");
    const offering = (await readdir(join(content, "offerings"))).find((name) => name.endsWith(".md")) ?? "";
    await edit(join(content, "offerings", offering), /^description: .*$/m, "description: A new description of this offering.");
    await buildBothAndCompare();
  });

  test("gives the same snapshot as a clean build after a file is touched without change", async () => {
    const later = new Date(Date.now() + 60_000);
    await utimes(listingFiles[11] as string, later, later);
    await buildBothAndCompare();
  });

  test("rewrites only the cache's pages file and the segment of the one file edited", async () => {
    // Files edited just before the last build are read again once, and their entries then rewritten.
    await buildBothAndCompare();
    const before = await cacheFiles();
    const edited = listingFiles[13] as string;
    await edit(edited, /\n---\n(.)/, "\n---\nOnce more: $1");
    await buildBothAndCompare();
    const after = await cacheFiles();
    assert.deepEqual([...after.keys()], [...before.keys()]);
    const rewritten = [...after].filter(([name, ino]) => before.get(name) !== ino).map(([name]) => name);
    const segment = (path: string) => segmentFile(relative(content, path));
    // The file touched with a time in the future is read again, and its entry rewritten, until that time is past.
    const touched = segment(listingFiles[11] as string);
    assert.deepEqual(
      rewritten.filter((name) => name !== touched),
      [segment(edited), "pages.json"].sort(),
    );
  });

  test("gives the same snapshot as a clean build when a segment of the cache is damaged", async () => {
    const segment = (await readdir(cacheDir(incremental))).find((name) => name.startsWith("files-")) ?? "";
    await writeFile(join(cacheDir(incremental), segment), '{"format":2,"fingerprint":"x"}\n["site.md", 3]\nnot json');
    await edit(listingFiles[12] as string, /\n---\n(.)/, "\n---\nAgain: $1");
    await buildBothAndCompare();
  });

  test("builds in full, and the same snapshot, when every file of the cache is damaged", async () => {
    for (const name of await readdir(cacheDir(incremental))) await writeFile(join(cacheDir(incremental), name), "not json\n[3]\n");
    await edit(listingFiles[14] as string, /\n---\n(.)/, "\n---\nAnd again: $1");
    await buildBothAndCompare();
  });

  test("builds in full when BASE_URL changes, and never writes the cache inside dist/", async () => {
    const other = await buildCli([], content, incremental, { BASE_URL: "https://elsewhere.example" });
    assert.equal(other.code, 0, other.stderr);
    assert.match(await readFile(join(incremental, "data", "site.json"), "utf8"), /https:\/\/elsewhere\.example/);
    await buildBothAndCompare();
    const inDist = (await readdir(incremental, { recursive: true })).filter((path) => path.includes("cache"));
    assert.deepEqual(inDist, []);
  });

  test("warns as a clean build does while a listing's own warnings are added, kept, moved and removed", async () => {
    const approved: string[] = [];
    for (const file of listingFiles.slice(15)) if (/^status: approved$/m.test(await readFile(file, "utf8"))) approved.push(file);
    const [warned = "", namesake = ""] = approved;
    const originals = [await readFile(warned, "utf8"), await readFile(namesake, "utf8")] as const;
    const NAME = /^name: .*$/m;
    const LOCATION = /^location:\n(?: {2}.*\n)+/m;
    /** The warning line that says `says`, without its message's end. */
    const warning = (stderr: string, says: string) => stderr.split("\n").find((line) => line.includes(says));

    await edit(warned, /\n---\n(.)/, "\n---\n<b>Open late.</b> $1");
    await edit(warned, /^quoteUrl: https:/m, "quoteUrl: http:");
    // The same name in the same place as the warned listing: people cannot tell the two apart.
    await edit(namesake, NAME, originals[0].match(NAME)?.[0] ?? "");
    await edit(namesake, LOCATION, originals[0].match(LOCATION)?.[0] ?? "");
    const first = await buildBothAndCompare();
    for (const says of ["holds HTML (<b>)", "uses http:", "is also the name of"]) assert.ok(warning(first, says), `${says} in:\n${first}`);

    // Unchanged, then touched: each listing's own warnings as the cache kept them, at the same lines and columns.
    assert.equal(await buildBothAndCompare(), first);
    const later = new Date(Date.now() + 60_000);
    await utimes(warned, later, later);
    assert.equal(await buildBothAndCompare(), first);

    await edit(warned, /<b>Open late\.<\/b>/, "Since 1990: <i>Open late.</i>");
    const moved = await buildBothAndCompare();
    assert.equal(warning(moved, "(<b>)"), undefined);
    const where = (line: string | undefined) => line?.split(" ")[0];
    assert.notEqual(where(warning(moved, "holds HTML (<i>)")), undefined);
    assert.notEqual(where(warning(moved, "holds HTML (<i>)")), where(warning(first, "holds HTML (<b>)")));

    await writeFile(warned, `${originals[0].trimEnd()} Fixed.\n`);
    await writeFile(namesake, `${originals[1].trimEnd()} Fixed.\n`);
    assert.equal(await buildBothAndCompare(), "");
  });
});
