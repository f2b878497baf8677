import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { generateContent } from "../../bench/generate.ts";
import { keepingCurrentExample } from "../../src/render/api-docs.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { applyChanges, approvedFiles, feedParts, type Records, recordsOf, releasesOf, sorted } from "../helpers/releases.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { edit } from "../helpers/snapshot-files.ts";
import { type StaticHost, serveStatic } from "../helpers/static-host.ts";

/**
 * The release history and its feed (interface §8), exact: snapshot A is built, then B after three
 * descriptions are changed, two listings added, a file deleted, a listing no longer approved and
 * a file renamed, then C after more edits (one of them removes a listing B added). B's changes
 * file turns A's records into B's, and `GET /api/changes?since=A` turns them into C's, on a real
 * server; a static host serves the same files.
 */
describe("the release history and the change feed", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let dist: string;
  let server: RunningServer;
  let openapi: OpenApiValidator;
  const versions: Record<"A" | "B" | "C", string> = { A: "", B: "", C: "" };
  const records: Record<"A" | "B" | "C", Records> = { A: new Map(), B: new Map(), C: new Map() };
  /** The ids of the listings each edit touched, by what was done. */
  const touched: Record<string, string[]> = {};
  /** Every private value of the content: none may be in a changes file. */
  const secrets: string[] = [];

  const idOf = async (file: string) => /^id: "(.*)"$/m.exec(await readFile(file, "utf8"))?.[1] ?? "";
  async function build(name: "A" | "B" | "C") {
    const built = await buildCli([], content, dist, { BASE_URL: TEST_BASE_URL });
    assert.equal(built.code, 0, built.stderr);
    versions[name] = (await releasesOf(dist)).current;
    records[name] = await recordsOf(dist);
  }

  before(async () => {
    work = await tempDir();
    content = join(work.path, "content");
    dist = join(work.path, "dist");
    await generateContent(content, 40, 17);
    await build("A");
    const approved = await approvedFiles(content);
    for (const file of approved)
      secrets.push(...[...(await readFile(file, "utf8")).matchAll(/^ {2}(?:phone|email): "(.*)"$/gm)].map((m) => m[1] ?? ""));

    const [d0, d1, d2, source, deleted, unapproved, renamed, d7] = approved.slice(0, 8) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    touched.described = await Promise.all([d0, d1, d2].map(idOf));
    for (const file of [d0, d1, d2]) await edit(file, /\n---\n(.)/, "\n---\nNewly written: $1");
    const text = await readFile(source, "utf8");
    touched.added = ["0b4e28ba-2fa1-41d2-883f-0016d3cca427", "2b4e28ba-2fa1-41d2-883f-0016d3cca427"];
    for (const [i, id] of touched.added.entries()) {
      const copy = text.replace(/^id: .*$/m, `id: "${id}"`).replace(/^name: .*$/m, `name: "Zebra Works ${i}"`);
      await writeFile(join(content, "businesses", `added-${i}.md`), copy);
    }
    touched.deleted = [await idOf(deleted)];
    await rm(deleted);
    touched.unapproved = [await idOf(unapproved)];
    await edit(unapproved, /^status: approved$/m, "status: suspended");
    touched.renamed = [await idOf(renamed)];
    await rename(renamed, renamed.replace(/\.md$/, "-renamed.md"));
    await build("B");

    // C: one more description, the first listing B added removed again, and the one B left out approved again.
    touched.describedInC = [await idOf(d7)];
    await edit(d7, /\n---\n(.)/, "\n---\nRewritten: $1");
    await rm(join(content, "businesses", "added-0.md"));
    await edit(unapproved, /^status: suspended$/m, "status: approved");
    await build("C");

    server = await startServer(dist);
    openapi = await OpenApiValidator.fetch(server.url);
  });
  after(async () => {
    await server?.close();
    await work.remove();
  });

  const changesFile = (version: string) => readFile(join(dist, "data", "changes", `${version}.ndjson`), "utf8");

  test("B's changes file turns A's records into exactly B's, one line per listing changed, in id order", async () => {
    const text = await changesFile(versions.B);
    assert.deepEqual(sorted(applyChanges(records.A, text)), sorted(records.B));
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { op: string; id?: string; business?: { id: string } });
    const ids = lines.map((line) => line.id ?? line.business?.id ?? "");
    assert.deepEqual(ids, [...ids].sort());
    const upserts = [...(touched.described ?? []), ...(touched.added ?? []), ...(touched.renamed ?? [])].sort();
    assert.deepEqual(
      lines.filter((line) => line.op === "upsert").map((line) => line.business?.id),
      upserts,
    );
    assert.deepEqual(
      lines.filter((line) => line.op === "remove").map((line) => line.id),
      [...(touched.deleted ?? []), ...(touched.unapproved ?? [])].sort(),
    );
    for (const line of lines) openapi.assertComponent("ChangeLine", line);
  });

  test("releases.json lists C, B and A, newest first, each with its previous, time and counts", async () => {
    const { current, releases } = await releasesOf(dist);
    assert.equal(current, versions.C);
    assert.deepEqual(
      releases.map(({ builtAt, ...release }) => {
        assert.match(builtAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        return release;
      }),
      [
        { version: versions.C, previous: versions.B, listings: records.C.size, upserts: 2, removals: 1 },
        { version: versions.B, previous: versions.A, listings: records.B.size, upserts: 6, removals: 2 },
        { version: versions.A, previous: null, listings: records.A.size, upserts: 0, removals: 0 },
      ],
    );
    assert.equal(records.B.size, records.A.size + 2 - 2);
  });

  test("a changes file holds only what one of its two snapshots published", async () => {
    for (const [version, before, now] of [[versions.B, records.A, records.B] as const, [versions.C, records.B, records.C] as const]) {
      const text = await changesFile(version);
      for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} is in the changes file of ${version}`);
      for (const line of text.trimEnd().split("\n")) {
        const change = JSON.parse(line) as { op: string; id: string; business: { id: string } };
        if (change.op === "upsert") assert.equal(JSON.stringify(change.business), now.get(change.business.id));
        else assert.ok(before.has(change.id) && !now.has(change.id), `${change.id} was not published before, or still is`);
      }
    }
  });

  async function feed(since: string, headers: Record<string, string> = {}) {
    return fetch(`${server.url}/api/changes?since=${since}`, { headers });
  }

  test("GET /api/changes?since=A turns A's records into exactly C's: one line per id, its latest state, in id order", async () => {
    const response = await feed(versions.A);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
    const { header, changes } = feedParts(await response.text());
    // Changed since A: 3 + 1 descriptions, 2 added (one removed again), 1 deleted, 1 left out and back, 1 renamed.
    assert.deepEqual(header, { from: versions.A, to: versions.C, upserts: 7, removals: 2 });
    assert.deepEqual(sorted(applyChanges(records.A, changes)), sorted(records.C));
    const lines = changes
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { id?: string; business?: { id: string } });
    const ids = lines.map((line) => line.id ?? line.business?.id ?? "");
    assert.deepEqual(ids, [...new Set(ids)].sort());
    for (const line of [header, ...lines]) openapi.assertComponent("ChangeLine", line);
  });

  test("since=B gives C's own changes; since=C, the current release, the first line alone", async () => {
    const fromB = feedParts(await (await feed(versions.B)).text());
    assert.deepEqual(fromB.header, { from: versions.B, to: versions.C, upserts: 2, removals: 1 });
    assert.equal(fromB.changes, await changesFile(versions.C));
    const current = await feed(versions.C);
    assert.equal(current.status, 200);
    assert.equal(await current.text(), `${JSON.stringify({ from: versions.C, to: versions.C, upserts: 0, removals: 0 })}\n`);
  });

  test("a version the history does not hold is 410 release_unknown, saying to download the directory again", async () => {
    const response = await feed("0123456789abcdef");
    assert.equal(response.status, 410);
    assert.equal(response.headers.get("cache-control"), "no-store");
    const body = await response.json();
    openapi.assertResponse("/api/changes", 410, body);
    assert.deepEqual(body, {
      error: {
        code: "release_unknown",
        message: "Parameter 'since' names no release this service keeps: it keeps the last 100 releases.",
        resolution:
          "Read current from /data/releases.json, then download the whole directory from /data/businesses.ndjson, and from then on ask for the changes since that current version.",
      },
    });
  });

  test("a since that is missing, repeated or not a version is 400, never echoed", async () => {
    for (const query of [
      "",
      "?since=<script>",
      `?since=${versions.A.toUpperCase()}`,
      `?since=${versions.A}&since=${versions.A}`,
      "?from=x",
    ]) {
      const response = await fetch(`${server.url}/api/changes${query}`);
      assert.equal(response.status, 400, query);
      const body = (await response.json()) as { error: { code: string; message: string } };
      openapi.assertResponse("/api/changes", 400, body);
      assert.ok(!body.error.message.includes("<script>"), query);
    }
  });

  test("an answer is tagged and cached like the others: ETag, Cache-Control, 304, HEAD, and kept in the answer cache", async () => {
    const first = await feed(versions.A);
    const tag = first.headers.get("etag") ?? "";
    assert.match(tag, new RegExp(`^"${server.snapshot.manifest.version}-c[0-9a-z]+"$`));
    assert.equal(first.headers.get("cache-control"), "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400");
    const hits = server.answerStats.hits;
    const again = await feed(versions.A);
    assert.equal(await again.text(), await first.text());
    assert.equal(server.answerStats.hits, hits + 1);
    assert.equal((await feed(versions.A, { "if-none-match": tag })).status, 304);
    const head = await fetch(`${server.url}/api/changes?since=${versions.A}`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("etag"), tag);
    assert.equal(await head.text(), "");
  });

  test("the documentation's keep-current program turns a copy at A into C's records, and a first run downloads C's", async () => {
    const client = await tempDir();
    try {
      await writeFile(join(client.path, "keep-current.mjs"), keepingCurrentExample(server.url));
      const run = () => promisify(execFile)(process.execPath, ["keep-current.mjs"], { cwd: client.path });
      const copy = async () => {
        const { release, records } = JSON.parse(await readFile(join(client.path, "directory.json"), "utf8")) as {
          release: string;
          records: Record<string, unknown>;
        };
        return { release, records: sorted(new Map(Object.entries(records).map(([id, business]) => [id, JSON.stringify(business)]))) };
      };
      const atA = Object.fromEntries([...records.A].map(([id, line]) => [id, JSON.parse(line)]));
      await writeFile(join(client.path, "directory.json"), JSON.stringify({ release: versions.A, records: atA }));
      assert.equal((await run()).stdout, `at release ${versions.C}: 7 upserts, 2 removals\n`);
      assert.deepEqual(await copy(), { release: versions.C, records: sorted(records.C) });

      await rm(join(client.path, "directory.json"));
      assert.equal((await run()).stdout, `at release ${versions.C}: 0 upserts, 0 removals\n`);
      assert.deepEqual(await copy(), { release: versions.C, records: sorted(records.C) });
    } finally {
      await client.remove();
    }
  });

  describe("the history's files", () => {
    let host: StaticHost;
    before(async () => {
      host = await serveStatic(dist);
    });
    after(async () => {
      await host.close();
    });

    test("the server and a plain static host serve releases.json and each changes file as the build wrote them", async () => {
      for (const path of ["/data/releases.json", `/data/changes/${versions.B}.ndjson`, `/data/changes/${versions.C}.ndjson`]) {
        const written = await readFile(join(dist, path), "utf8");
        for (const base of [server.url, host.url]) {
          const response = await fetch(`${base}${path}`);
          assert.equal(response.status, 200, `${base}${path}`);
          assert.equal(await response.text(), written, `${base}${path}`);
        }
      }
    });

    test("the first release of a history, and a version it does not hold, have no changes file", async () => {
      for (const version of [versions.A, "0123456789abcdef", "not-a-version"]) {
        assert.equal((await fetch(`${server.url}/data/changes/${version}.ndjson`)).status, 404, version);
      }
    });
  });
});
