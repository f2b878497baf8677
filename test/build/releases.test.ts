import assert from "node:assert/strict";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { applyChanges, approvedFiles, recordsOf, releasesOf, sorted } from "../helpers/releases.ts";
import { tempDir } from "../helpers/snapshot.ts";
import { edit } from "../helpers/snapshot-files.ts";

/**
 * Where a build's release history comes from (interface §8): the previous snapshot in dist/, else
 * PREVIOUS_SNAPSHOT's, else none; what a build without a change, a clean build and a damaged
 * history do with it.
 */
describe("the release history a build continues", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let approved: string[];
  let n = 0;
  /** A new listing edit each time: its description gains a numbered sentence. */
  const editOne = () => {
    n += 1;
    return edit(approved[0] as string, /\n---\n(.)/, `\n---\nEdit ${n}. $1`);
  };
  const changesOf = async (dist: string, version: string) => readFile(join(dist, "data", "changes", `${version}.ndjson`), "utf8");

  before(async () => {
    work = await tempDir();
    content = join(work.path, "content");
    await generateContent(content, 12, 5);
    approved = await approvedFiles(content);
  });
  after(async () => {
    await work.remove();
  });

  async function built(dist: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
    const result = await buildCli(args, content, dist, env);
    assert.equal(result.code, 0, result.stderr);
    return result;
  }

  test("with no previous snapshot, the build says in one line that a new history starts: one release, no changes file", async () => {
    const dist = join(work.path, "fresh");
    const { stdout, stderr } = await built(dist, [], { PREVIOUS_SNAPSHOT: "" });
    assert.equal(stderr, "");
    const [first, second] = stdout.trimEnd().split("\n");
    assert.equal(first, `${dist}/ holds no snapshot and PREVIOUS_SNAPSHOT is not set: the release history starts anew with this build.`);
    assert.match(second ?? "", /; version [0-9a-f]{16}, the first release of its history; \d+ ms\.$/);
    const { current, releases } = await releasesOf(dist);
    assert.deepEqual(
      releases.map(({ builtAt: _, ...release }) => release),
      [{ version: current, previous: null, listings: (await recordsOf(dist)).size, upserts: 0, removals: 0 }],
    );
    assert.deepEqual(await readdir(join(dist, "data")).then((names) => names.includes("changes")), false);
  });

  test("a build with no change to the listings makes no new release and rewrites the history as it was", async () => {
    const dist = join(work.path, "unchanged");
    await built(dist);
    const before = await Promise.all(["releases.json", "listing-releases.json"].map((name) => readFile(join(dist, "data", name), "utf8")));
    const { stdout } = await built(dist);
    const { current } = await releasesOf(dist);
    assert.match(stdout, new RegExp(`; version ${current}, no new release \\(the listings are release ${current}'s\\); `));
    const after = await Promise.all(["releases.json", "listing-releases.json"].map((name) => readFile(join(dist, "data", name), "utf8")));
    assert.deepEqual(after, before);
  });

  test("--clean keeps the history: one edited listing is a release whose changes file holds its one line", async () => {
    const dist = join(work.path, "clean");
    await built(dist);
    const before = await recordsOf(dist);
    const { current: first } = await releasesOf(dist);
    await editOne();
    const { stdout } = await built(dist, ["--clean"]);
    assert.match(stdout, /, a release of 1 upsert and 0 removals; /);
    const { current, releases } = await releasesOf(dist);
    assert.deepEqual(
      releases.map((release) => [release.version, release.previous]),
      [
        [current, first],
        [first, null],
      ],
    );
    const changes = await changesOf(dist, current);
    assert.equal(changes.split("\n").length, 2);
    assert.deepEqual(sorted(applyChanges(before, changes)), sorted(await recordsOf(dist)));
  });

  test("PREVIOUS_SNAPSHOT continues the history on a fresh clone, from the live snapshot's data/ alone or its whole folder", async () => {
    const live = join(work.path, "live");
    await built(live);
    const { current: first } = await releasesOf(live);
    const downloaded = join(work.path, "downloaded", "data");
    await mkdir(downloaded, { recursive: true });
    await cp(join(live, "data"), downloaded, { recursive: true });
    const before = await recordsOf(live);
    await editOne();
    for (const [name, previous] of [
      ["from-data", downloaded],
      ["from-snapshot", live],
    ] as const) {
      const dist = join(work.path, name);
      const { stdout, stderr } = await built(dist, [], { PREVIOUS_SNAPSHOT: previous });
      assert.equal(stderr, "");
      assert.match(stdout, /^Built .*, a release of 1 upsert and 0 removals; \d+ ms\.\n$/);
      const { current, releases } = await releasesOf(dist);
      assert.deepEqual(
        releases.map((release) => release.previous),
        [first, null],
      );
      assert.deepEqual(sorted(applyChanges(before, await changesOf(dist, current))), sorted(await recordsOf(dist)));
    }
    // dist/ holds a snapshot: it is the previous one, whatever PREVIOUS_SNAPSHOT says.
    await editOne();
    await built(join(work.path, "from-data"), [], { PREVIOUS_SNAPSHOT: join(work.path, "fresh") });
    assert.equal((await releasesOf(join(work.path, "from-data"))).releases.length, 3);
  });

  test("a damaged, older or unreadable previous history starts a new one with one warning line, and the build succeeds", async () => {
    const damages: [string, (dist: string) => Promise<NodeJS.ProcessEnv>, RegExp][] = [
      [
        "releases.json damaged",
        async (dist) => {
          await writeFile(join(dist, "data", "releases.json"), "{}");
          return {};
        },
        /data\/releases\.json: warning: release history: the previous snapshot cannot continue the release history: data\/releases\.json is not the file the manifest describes; it starts anew with this build$/,
      ],
      [
        "a changes file damaged",
        async (dist) => {
          const { current } = await releasesOf(dist);
          await writeFile(join(dist, "data", "changes", `${current}.ndjson`), "{}\n", { flag: "a" });
          return {};
        },
        /: the previous snapshot cannot continue the release history: data\/changes\/[0-9a-f]{16}\.ndjson is not the file the manifest describes; it starts anew with this build$/,
      ],
      [
        "an older snapshot format",
        async (dist) => {
          const manifest = join(dist, "data", "manifest.json");
          await writeFile(manifest, (await readFile(manifest, "utf8")).replace(/"formatVersion": \d+/, '"formatVersion": 5'));
          return {};
        },
        /: the previous snapshot cannot continue the release history: it is of another snapshot format \(5, this build writes \d+\); it starts anew with this build$/,
      ],
      [
        "a PREVIOUS_SNAPSHOT folder with no snapshot in it",
        async () => {
          const empty = join(work.path, "empty");
          await mkdir(empty, { recursive: true });
          return { PREVIOUS_SNAPSHOT: empty };
        },
        /empty\/data\/releases\.json: warning: release history: the snapshot PREVIOUS_SNAPSHOT names cannot continue the release history: its manifest is unreadable or not valid JSON; it starts anew with this build$/,
      ],
    ];
    for (const [i, [what, damage, warning]] of damages.entries()) {
      const dist = join(work.path, `damaged-${i}`);
      if (!what.startsWith("a PREVIOUS_SNAPSHOT")) {
        // A history of two releases, the second with a changes file; then an edit for the next build.
        for (let build = 0; build < 2; build += 1) {
          await built(dist);
          await editOne();
        }
      }
      const { stderr } = await built(dist, [], await damage(dist));
      const lines = stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, `${what}: ${stderr}`);
      assert.match(lines[0] ?? "", warning, what);
      const { releases } = await releasesOf(dist);
      assert.deepEqual(
        releases.map((release) => release.previous),
        [null],
        what,
      );
    }
  });
});
