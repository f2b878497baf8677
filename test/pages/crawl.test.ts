import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, SAMPLE_CONTENT, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { markdownLinks, sitemapLinks } from "./links.ts";

let server: RunningServer;
let dist: string;
let cleanup: () => Promise<void>;

before(async () => {
  const dir = await tempDir();
  cleanup = dir.remove;
  dist = `${dir.path}/dist`;
  await buildSnapshot(SAMPLE_CONTENT, dist);
  server = await startServer(dist);
});
after(async () => {
  await server.close();
  await cleanup();
});

/** The MCP endpoint takes POST only (GET is 405 by contract §6); the crawl reads with GET. */
const POST_ONLY = new Set([`${TEST_BASE_URL}/mcp`]);

test("every link on this site in llms.txt, llms-full.txt, the Markdown pages and sitemap.xml answers 200", async () => {
  const manifest = JSON.parse(await readFile(`${dist}/data/manifest.json`, "utf8")) as { pages: string[] };
  const markdownPages = manifest.pages.filter((path) => path.endsWith(".md") || path.endsWith(".txt"));
  assert.ok(
    markdownPages.includes("/llms.txt") && markdownPages.includes("/llms-full.txt") && markdownPages.includes("/businesses/index.md"),
  );

  const links = new Set<string>();
  for (const path of markdownPages) {
    const response = await fetch(`${server.url}${path}`);
    assert.equal(response.status, 200, path);
    for (const link of markdownLinks(await response.text())) links.add(new URL(link, `${TEST_BASE_URL}${path}`).href);
  }
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const sitemapUrls = sitemapLinks(sitemap);
  for (const link of sitemapUrls) links.add(link);

  const local = [...links].filter((link) => link.startsWith(`${TEST_BASE_URL}/`) && !POST_ONLY.has(link));
  assert.ok(local.length >= sitemapUrls.length * 2, `only ${local.length} local links`);
  const failures: string[] = [];
  for (const link of local) {
    const response = await fetch(`${server.url}${link.slice(TEST_BASE_URL.length)}`, { redirect: "manual" });
    await response.arrayBuffer();
    if (response.status !== 200) failures.push(`${response.status} ${link}`);
  }
  assert.deepEqual(failures, []);
});

test("every sitemap URL is an HTML page and every Markdown profile is reachable from the directory overview", async () => {
  const overview = await (await fetch(`${server.url}/businesses/index.md`)).text();
  const manifest = JSON.parse(await readFile(`${dist}/data/manifest.json`, "utf8")) as {
    pages: string[];
    counts: { businesses: number; offerings: number };
  };
  const profiles = markdownLinks(overview).filter((link) => /\/businesses\/[^/]+\/index\.md$/.test(link));
  assert.equal(profiles.length, manifest.counts.businesses);
  const sitemap = sitemapLinks(await (await fetch(`${server.url}/sitemap.xml`)).text());
  assert.equal(sitemap.length, manifest.counts.businesses + manifest.counts.offerings + 4);
  const sample = sitemap.filter((_, i) => i % 25 === 0);
  for (const link of sample) {
    const response = await fetch(`${server.url}${link.slice(TEST_BASE_URL.length)}`, { headers: { accept: "text/html" } });
    assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8", link);
    await response.arrayBuffer();
  }
});
