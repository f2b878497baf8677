import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { RELEASES_KEPT } from "../../src/contract.ts";
import { applyChanges, approvedFiles, buildAt, recordsOf, releasesOf, sorted } from "../helpers/releases.ts";
import { startServer } from "../helpers/server.ts";
import { tempDir } from "../helpers/snapshot.ts";
import { edit } from "../helpers/snapshot-files.ts";

/**
 * What a release's time marks (interface §8): each profile's sitemap lastmod is the builtAt of the
 * release in which its listing last changed; and how long the history is (at most 100 releases,
 * an undone edit listed once). Builds run in this process, at times the test chooses.
 */
describe("release times and the history's length", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let approved: string[];
  const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute));

  before(async () => {
    work = await tempDir();
    content = join(work.path, "content");
    await generateContent(content, 12, 9);
    approved = await approvedFiles(content);
  });
  after(async () => {
    await work.remove();
  });

  /** Each profile's lastmod in the snapshot's sitemap.xml, by slug. */
  async function lastmods(dist: string): Promise<Map<string, string>> {
    const sitemap = await readFile(join(dist, "sitemap.xml"), "utf8");
    const profiles = sitemap.matchAll(/<loc>[^<]*\/businesses\/([^</]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g);
    return new Map([...profiles].map(([, slug, time]) => [slug as string, time as string]));
  }
  const slugOf = (file: string) => (file.split("/").pop() as string).replace(/\.md$/, "");

  test("a profile's lastmod changes only when its listing changes, and the server's sitemap is the build's", async () => {
    const dist = join(work.path, "dates");
    const [x, y] = approved as [string, string];
    await buildAt(content, dist, at(0));
    const first = await lastmods(dist);
    assert.equal(first.size, (await recordsOf(dist)).size);
    assert.deepEqual(new Set(first.values()), new Set([at(0).toISOString()]));

    await edit(x, /\n---\n(.)/, "\n---\nNewly written: $1");
    await buildAt(content, dist, at(1));
    await edit(y, /\n---\n(.)/, "\n---\nNewly written: $1");
    await buildAt(content, dist, at(2));
    const expected = new Map([...first].map(([slug]) => [slug, at(0).toISOString()]));
    expected.set(slugOf(x), at(1).toISOString()).set(slugOf(y), at(2).toISOString());
    assert.deepEqual(await lastmods(dist), expected);

    // Nothing changed: no release, and every date stays.
    const written = await buildAt(content, dist, at(3));
    assert.equal(written.history.made, null);
    assert.deepEqual(await lastmods(dist), expected);

    const server = await startServer(dist);
    try {
      const response = await fetch(`${server.url}/sitemap.xml`);
      assert.equal(await response.text(), await readFile(join(dist, "sitemap.xml"), "utf8"));
    } finally {
      await server.close();
    }
  });

  test("an undone edit is a release named as the snapshot before the edit, listed once, with the undoing as its change", async () => {
    const dist = join(work.path, "undone");
    const file = approved[2] as string;
    const original = await readFile(file, "utf8");
    await buildAt(content, dist, at(0));
    const { current: a } = await releasesOf(dist);
    await edit(file, /\n---\n(.)/, "\n---\nFor a moment: $1");
    await buildAt(content, dist, at(1));
    const { current: b } = await releasesOf(dist);
    await writeFile(file, original);
    await buildAt(content, dist, at(2));
    const { current, releases } = await releasesOf(dist);
    assert.equal(current, a);
    assert.deepEqual(
      releases.map((release) => [release.version, release.previous, release.upserts, release.builtAt]),
      [
        [a, b, 1, at(2).toISOString()],
        [b, a, 1, at(1).toISOString()],
      ],
    );
    assert.deepEqual((await readdir(join(dist, "data", "changes"))).sort(), [`${a}.ndjson`, `${b}.ndjson`].sort());
    const [line] = (await readFile(join(dist, "data", "changes", `${a}.ndjson`), "utf8")).trimEnd().split("\n");
    assert.ok(line?.startsWith('{"op":"upsert","business":{'));
    assert.ok(!line?.includes("For a moment"));
  });

  test("a version that comes back after two releases cuts the history there, and its changes file gets another tag", async () => {
    const dist = join(work.path, "back");
    const [x, y] = [approved[4], approved[5]] as [string, string];
    const yText = await readFile(y, "utf8");
    await buildAt(content, dist, at(0));
    const { current: a } = await releasesOf(dist);
    await edit(x, /\n---\n(.)/, "\n---\nFor good: $1");
    await buildAt(content, dist, at(1));
    const { current: b } = await releasesOf(dist);
    const recordsB = await recordsOf(dist);
    const tagOf = async (path: string) => {
      const server = await startServer(dist);
      try {
        return (await fetch(`${server.url}${path}`)).headers.get("etag");
      } finally {
        await server.close();
      }
    };
    const firstTag = await tagOf(`/data/changes/${b}.ndjson`);
    await edit(y, /\n---\n(.)/, "\n---\nFor a moment: $1");
    await buildAt(content, dist, at(2));
    const { current: c } = await releasesOf(dist);
    const recordsC = await recordsOf(dist);
    await writeFile(y, yText);
    await buildAt(content, dist, at(3));
    const { current, releases } = await releasesOf(dist);
    assert.equal(current, b);
    assert.deepEqual(
      releases.map((release) => [release.version, release.previous]),
      [
        [b, c],
        [c, b],
      ],
    );
    const changes = await readFile(join(dist, "data", "changes", `${b}.ndjson`), "utf8");
    assert.deepEqual(sorted(applyChanges(recordsC, changes)), sorted(recordsB));
    assert.notEqual(await tagOf(`/data/changes/${b}.ndjson`), firstTag);
    const server = await startServer(dist);
    try {
      assert.equal((await fetch(`${server.url}/api/changes?since=${a}`)).status, 410);
      const feed = await (await fetch(`${server.url}/api/changes?since=${c}`)).text();
      assert.deepEqual(sorted(applyChanges(recordsC, feed.slice(feed.indexOf("\n") + 1))), sorted(recordsB));
    } finally {
      await server.close();
    }
  });

  test(`the history keeps the last ${RELEASES_KEPT} releases; the oldest are dropped with their changes files`, async () => {
    const dist = join(work.path, "long");
    const file = approved[3] as string;
    await buildAt(content, dist, at(0));
    const versions = [(await releasesOf(dist)).current];
    for (let i = 1; i <= RELEASES_KEPT + 1; i += 1) {
      await edit(file, /\n---\n(?:Edit \d+\. )?/, `\n---\nEdit ${i}. `);
      versions.unshift((await buildAt(content, dist, at(i))).version);
    }
    const { releases } = await releasesOf(dist);
    const kept = versions.slice(0, RELEASES_KEPT);
    assert.deepEqual(
      releases.map((release) => release.version),
      kept,
    );
    assert.equal(releases.at(-1)?.previous, versions[RELEASES_KEPT]);
    assert.deepEqual((await readdir(join(dist, "data", "changes"))).sort(), kept.map((version) => `${version}.ndjson`).sort());
    const manifest = JSON.parse(await readFile(join(dist, "data", "manifest.json"), "utf8")) as { changes: Record<string, unknown> };
    assert.deepEqual(Object.keys(manifest.changes), kept);
    // The server takes such a history.
    const server = await startServer(dist);
    try {
      assert.equal((await fetch(`${server.url}/api/changes?since=${kept.at(-1)}`)).status, 200);
      assert.equal((await fetch(`${server.url}/api/changes?since=${versions[RELEASES_KEPT]}`)).status, 410);
    } finally {
      await server.close();
    }
  });
});
