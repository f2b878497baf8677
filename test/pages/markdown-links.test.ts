import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, SAMPLE_CONTENT, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/**
 * Markdown an agent can follow without headers: every URL of this site inside Markdown output is
 * a Markdown URL (or a data file, the API, MCP or its server card), never an HTML page that would need an Accept
 * header to come back as Markdown.
 */

let work: { path: string; remove: () => Promise<void> };
let server: RunningServer;
before(async () => {
  work = await tempDir("markdown-links-");
  await buildSnapshot(SAMPLE_CONTENT, `${work.path}/dist`);
  server = await startServer(`${work.path}/dist`);
});
after(async () => {
  await server.close();
  await work.remove();
});

/** This site's URLs in `text` that lead to an HTML page. */
function htmlLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s()<>[\]"'`]+/g)]
    .map(([url]) => url.replace(/[.,;:]+$/, ""))
    .filter((url) => url.startsWith(`${TEST_BASE_URL}/`))
    .filter((url) => !/\.(md|txt|json|ndjson|xml)(\?|$)/.test(new URL(url).pathname + (url.includes("?") ? "?" : "")))
    .filter((url) => !/^\/(api\/|mcp$|mcp\/server-card$|\.well-known\/)/.test(new URL(url).pathname));
}

test("no Markdown file the build writes links to an HTML page of this site", async () => {
  const dist = `${work.path}/dist`;
  const files = (await readdir(dist, { recursive: true })).filter((file) => /\.(md|txt)$/.test(file));
  assert.ok(files.length > 300, `${files.length} Markdown files`);
  for (const file of files) assert.deepEqual(htmlLinks(await readFile(join(dist, file), "utf8")), [], file);
});

test("no Markdown page the server renders links to an HTML page: searches, empty searches, lists and profiles", async () => {
  for (const path of [
    "/businesses/index.md?q=plumber",
    "/businesses/index.md?q=plumber%20in%20leeds",
    "/businesses/index.md?q=plumer",
    "/businesses/index.md?country=GB&offset=20",
    "/businesses/beacon-roofing/index.md",
    "/businesses/countries/gb/index.md",
  ]) {
    const response = await fetch(`${server.url}${path}`);
    assert.equal(response.status, 200, path);
    assert.deepEqual(htmlLinks(await response.text()), [], path);
  }
});
