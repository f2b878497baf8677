import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { readContent } from "../build/content.ts";
import { serveContent } from "./helpers/server.ts";
import { FIXTURES, SAMPLE_CONTENT } from "./helpers/snapshot.ts";

/** What must never be published: every private value, and every trace of a non-approved listing. */
interface Secrets {
  values: string[];
  nonApproved: { slug: string; id: string; name: string }[];
}

function leaves(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === "object") return Object.values(value).flatMap(leaves);
  return [String(value)];
}

async function secretsOf(contentDir: string): Promise<Secrets> {
  const { businesses } = await readContent(contentDir);
  const values = new Set<string>();
  const nonApproved: Secrets["nonApproved"] = [];
  for (const { slug, data } of businesses) {
    for (const value of leaves(data.private)) values.add(value);
    if (data.status !== "approved") nonApproved.push({ slug, id: String(data.id), name: String(data.name) });
  }
  return { values: [...values], nonApproved };
}

/** Asserts that none of the secrets occurs in `text` (found at `where`). */
function assertClean(text: string, secrets: Secrets, where: string): void {
  for (const value of secrets.values) assert.ok(!text.includes(value), `private value ${JSON.stringify(value)} appears in ${where}`);
  for (const { slug, id, name } of secrets.nonApproved) {
    assert.ok(!text.includes(id), `id of non-approved ${slug} appears in ${where}`);
    assert.ok(!text.includes(name), `name of non-approved ${slug} appears in ${where}`);
    assert.ok(!new RegExp(`[/="]${slug}["/?#\\s]`).test(text), `slug of non-approved ${slug} appears in ${where}`);
  }
}

for (const [label, contentDir] of [
  ["the sample content", SAMPLE_CONTENT],
  ["the basic fixture", `${FIXTURES}basic`],
] as const) {
  describe(`privacy of ${label}`, () => {
    const served = serveContent(contentDir);
    let secrets: Secrets;

    before(async () => {
      secrets = await secretsOf(contentDir);
    });

    test("the content has private values and non-approved listings to protect", () => {
      assert.ok(secrets.values.length >= 3, `only ${secrets.values.length} private values`);
      assert.ok(secrets.nonApproved.length >= 3, `only ${secrets.nonApproved.length} non-approved listings`);
    });

    test("no private value and no non-approved listing appears in any file of dist/", async () => {
      const files = (await readdir(served.dist, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
      assert.ok(files.length >= 6);
      for (const file of files) {
        const path = join(file.parentPath, file.name);
        assertClean(await readFile(path, "utf8"), secrets, path);
      }
    });

    test("no private value and no non-approved listing appears in any API response or page", async () => {
      // Pages written as `…/index.html` for static hosts are served at their directory URL.
      const pages = [...served.current.snapshot.pages.keys()].map((page) => page.replace(/\/index\.html$/, "") || "/");
      const urls = ["/api/offerings", "/openapi.json", ...pages];
      for (let offset: number | null = 0; offset !== null; ) {
        const response = await fetch(`${served.current.url}/api/directory?limit=25&offset=${offset}`);
        const text = await response.text();
        assertClean(text, secrets, `directory page at ${offset}`);
        const body = JSON.parse(text) as { items: { slug: string }[]; nextOffset: number | null };
        served.openapi.assertResponse("/api/directory", 200, body);
        urls.push(...body.items.map((item) => `/api/directory/${item.slug}`));
        offset = body.nextOffset;
      }
      for (const { name } of secrets.nonApproved) {
        const q = name
          .split(/\s+/)
          .slice(0, 6)
          .join(" ")
          .replace(/[^\p{L}\p{M}0-9'’.&\- ]/gu, "");
        urls.push(`/api/directory?q=${encodeURIComponent(q)}`);
      }
      for (const url of urls) {
        const response = await fetch(`${served.current.url}${url}`, { headers: { accept: "text/markdown" } });
        assert.equal(response.status, 200, url);
        const text = await response.text();
        assertClean(text, secrets, url);
        if (url.startsWith("/api/")) served.openapi.assertResponse(url, 200, JSON.parse(text));
      }
    });

    test("a non-approved listing is 404 by slug and by id", async () => {
      for (const { slug, id } of secrets.nonApproved) {
        for (const identifier of [slug, id]) {
          const response = await fetch(`${served.current.url}/api/directory/${identifier}`);
          assert.equal(response.status, 404, identifier);
          const body = (await response.json()) as { error: { code: string } };
          served.openapi.assertResponse(`/api/directory/${identifier}`, 404, body);
          assert.equal(body.error.code, "not_found");
        }
      }
    });
  });
}
