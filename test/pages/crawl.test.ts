import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { SAMPLE_CONTENT, TEST_BASE_URL } from "../helpers/snapshot.ts";
import { markdownLinks, sitemapLinks } from "./links.ts";

const served = serveContent(SAMPLE_CONTENT);

/** The MCP endpoint takes POST only (GET is 405 by interface §6); the crawl reads with GET. */
const POST_ONLY = new Set([`${TEST_BASE_URL}/mcp`]);

/** A local Markdown (or text) document: one the crawl reads and follows. */
const isDocument = (link: string) => link.startsWith(`${TEST_BASE_URL}/`) && /(\.md|\.txt)$/.test(new URL(link).pathname);

/** Reads every Markdown document reachable from `start` through local links, breadth first; returns every link seen and the documents. */
async function crawl(start: string[]): Promise<{ links: Set<string>; documents: Map<string, string> }> {
  const links = new Set<string>();
  const documents = new Map<string, string>();
  const queue = [...start];
  while (queue.length > 0) {
    const link = queue.shift() ?? "";
    if (documents.has(link)) continue;
    const response = await fetch(`${served.current.url}${link.slice(TEST_BASE_URL.length)}`);
    assert.equal(response.status, 200, link);
    const text = await response.text();
    documents.set(link, text);
    for (const found of markdownLinks(text)) {
      const absolute = new URL(found, link).href;
      links.add(absolute);
      if (isDocument(absolute) && !documents.has(absolute)) queue.push(absolute);
    }
  }
  return { links, documents };
}

test("every link on this site in llms.txt, llms-full.txt, the Markdown pages and sitemap.xml answers 200", async () => {
  const manifest = JSON.parse(await readFile(`${served.dist}/data/manifest.json`, "utf8")) as { pages: string[] };
  const markdownPages = manifest.pages.filter((path) => path.endsWith(".md") || path.endsWith(".txt"));
  assert.ok(
    markdownPages.includes("/llms.txt") && markdownPages.includes("/llms-full.txt") && markdownPages.includes("/businesses/index.md"),
  );
  const { links, documents } = await crawl(markdownPages.map((path) => `${TEST_BASE_URL}${path}`));
  const sitemap = await (await fetch(`${served.current.url}/sitemap.xml`)).text();
  const sitemapUrls = sitemapLinks(sitemap);
  for (const link of sitemapUrls) links.add(link);

  const local = [...links].filter((link) => link.startsWith(`${TEST_BASE_URL}/`) && !POST_ONLY.has(link) && !documents.has(link));
  assert.ok(
    documents.size > 303 && local.length >= sitemapUrls.length,
    `only ${documents.size} documents and ${local.length} other local links`,
  );
  const failures: string[] = [];
  for (const link of local) {
    const response = await fetch(`${served.current.url}${link.slice(TEST_BASE_URL.length)}`, { redirect: "manual", method: "HEAD" });
    if (response.status !== 200) failures.push(`${response.status} ${link}`);
  }
  assert.deepEqual(failures, []);
});

test("every sitemap URL is an HTML page, and every Markdown profile is reachable from the overview by country and by service", async () => {
  const overview = await (await fetch(`${served.current.url}/businesses/index.md`)).text();
  const manifest = JSON.parse(await readFile(`${served.dist}/data/manifest.json`, "utf8")) as {
    pages: string[];
    counts: { businesses: number; offerings: number };
  };
  for (const kind of ["countries", "services"]) {
    const lists = markdownLinks(overview).filter((link) => link.includes(`/businesses/${kind}/`));
    assert.ok(lists.length > 3, kind);
    const { documents } = await crawl(lists);
    const profiles = new Set(
      [...documents.values()].flatMap((text) => markdownLinks(text).filter((link) => /\/businesses\/[^/]+\/index\.md$/.test(link))),
    );
    assert.equal(profiles.size, manifest.counts.businesses, kind);
  }
  const sitemap = sitemapLinks(await (await fetch(`${served.current.url}/sitemap.xml`)).text());
  assert.equal(sitemap.length, manifest.counts.businesses + manifest.counts.offerings + 4);
  const sample = sitemap.filter((_, i) => i % 25 === 0);
  for (const link of sample) {
    const response = await fetch(`${served.current.url}${link.slice(TEST_BASE_URL.length)}`, { headers: { accept: "text/html" } });
    assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8", link);
    await response.arrayBuffer();
  }
});
