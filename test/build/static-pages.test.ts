import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, SAMPLE_CONTENT, tempDir } from "../helpers/snapshot.ts";
import { type StaticHost, serveStatic } from "../helpers/static-host.ts";

/**
 * STATIC_PAGES (interface §3): a snapshot for a static host holds each profile's HTML and
 * Markdown as files; one for the server alone holds none of them and is otherwise the same, byte
 * for byte, and the server renders every profile as the files have it.
 */

/** Every file below `dir`, by its path relative to it. */
async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path));
  }
  return files;
}

describe("STATIC_PAGES", () => {
  let work: { path: string; remove: () => Promise<void> };
  let withPages: Map<string, Buffer>;
  let withoutPages: Map<string, Buffer>;
  let slugs: string[];
  let server: RunningServer;
  let host: StaticHost;

  before(async () => {
    work = await tempDir();
    await buildSnapshot(SAMPLE_CONTENT, join(work.path, "with"), undefined, { staticPages: true });
    await buildSnapshot(SAMPLE_CONTENT, join(work.path, "without"), undefined, { staticPages: false });
    withPages = await filesOf(join(work.path, "with"));
    withoutPages = await filesOf(join(work.path, "without"));
    slugs = (withPages.get("data/businesses.ndjson")?.toString("utf8") ?? "")
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { slug: string }).slug);
    server = await startServer(join(work.path, "without"));
    host = await serveStatic(join(work.path, "with"));
  });
  after(async () => {
    await server?.close();
    await host?.close();
    await work.remove();
  });

  test("true writes each approved listing's profile in HTML and Markdown; false writes the same snapshot without them", () => {
    assert.equal(slugs.length, 303);
    const profileFiles = slugs.flatMap((slug) => [`businesses/${slug}/index.html`, `businesses/${slug}/index.md`]);
    for (const file of profileFiles) assert.ok(withPages.has(file), file);
    const rest = [...withPages.keys()].filter((file) => !profileFiles.includes(file)).sort();
    assert.deepEqual([...withoutPages.keys()].sort(), rest);
    for (const file of rest) assert.ok(withoutPages.get(file)?.equals(withPages.get(file) as Buffer), `${file} differs`);
  });

  test("the server without the files answers every profile, HTML and Markdown, with the files' bytes", async () => {
    for (const slug of slugs) {
      for (const [path, file] of [
        [`/businesses/${slug}`, `businesses/${slug}/index.html`],
        [`/businesses/${slug}/index.md`, `businesses/${slug}/index.md`],
      ] as const) {
        const response = await fetch(`${server.url}${path}`);
        assert.equal(response.status, 200, path);
        assert.ok(Buffer.from(await response.arrayBuffer()).equals(withPages.get(file) as Buffer), `${path} differs from ${file}`);
      }
    }
  });

  test("a static host serves a profile's HTML at its directory URL, as the server answers it", async () => {
    for (const slug of slugs.slice(0, 20)) {
      const served = await fetch(`${host.url}/businesses/${slug}/`);
      assert.equal(served.status, 200, slug);
      assert.equal(await served.text(), await (await fetch(`${server.url}/businesses/${slug}`)).text(), slug);
    }
  });
});
