import assert from "node:assert/strict";
import { describe, test } from "node:test";
import etag from "etag";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

const served = serveContent(`${FIXTURES}basic`);

async function get(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return fetch(`${served.current.url}${path}`, { method, headers });
}

const CACHEABLE = [
  "/api/directory?q=plumb",
  "/api/facets?q=plumb",
  "/api/directory/leeds-plumbing-heating",
  "/api/offerings",
  "/api/offerings/cost-guides",
];

describe("successful responses", () => {
  for (const path of CACHEABLE) {
    test(`GET ${path} carries Cache-Control: public, max-age=60 with the default stale times, and a strong ETag`, async () => {
      const response = await get(path);
      assert.equal(response.status, 200);
      served.openapi.assertResponse(path, 200, await response.json());
      assert.equal(response.headers.get("cache-control"), "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400");
      // Strong (no W/), quoted, only the characters RFC 9110 allows in an entity tag.
      assert.match(response.headers.get("etag") ?? "", /^"[!#-~]+"$/);
    });
  }

  test("different results have different ETags and the same result the same ETag", async () => {
    const first = (await get("/api/directory?q=plumb")).headers.get("etag");
    const again = (await get("/api/directory?q=PLUMB")).headers.get("etag");
    const other = (await get("/api/directory?q=plumb&limit=1")).headers.get("etag");
    assert.equal(again, first);
    assert.notEqual(other, first);
    // The facets of a search are another answer than any page of it.
    const facets = (await get("/api/facets?q=plumb")).headers.get("etag");
    assert.equal((await get("/api/facets?q=PLUMB")).headers.get("etag"), facets);
    assert.notEqual(facets, (await get("/api/directory?q=plumb&limit=1&offset=0")).headers.get("etag"));
    assert.notEqual(facets, (await get("/api/facets?q=plumbing")).headers.get("etag"));
  });
});

describe("documents fixed for a snapshot's life", () => {
  for (const path of ["/openapi.json", "/llms.txt"]) {
    test(`GET ${path} sends the ETag of the very body it sends, the same each time`, async () => {
      const first = await get(path);
      const body = await first.text();
      assert.equal(first.headers.get("etag"), etag(body));
      assert.equal((await get(path)).headers.get("etag"), etag(body));
    });
  }
});

describe("If-None-Match (RFC 9110 weak comparison)", () => {
  for (const [label, header] of [
    ["the exact tag", (tag: string) => tag],
    ["the tag as a weak W/ tag", (tag: string) => `W/${tag}`],
    ["a list that holds the tag", (tag: string) => `"other", ${tag} , W/"more"`],
    ["*", () => "*"],
  ] as const) {
    test(`answers 304 without a body for ${label}`, async () => {
      const tag = (await get("/api/offerings")).headers.get("etag") ?? "";
      const response = await get("/api/offerings", { "if-none-match": header(tag) });
      assert.equal(response.status, 304);
      assert.equal(response.headers.get("etag"), tag);
      assert.equal(response.headers.get("cache-control"), "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400");
      assert.equal(response.headers.get("content-length"), null);
      assert.equal(await response.text(), "");
    });
  }

  test("answers 200 with the body for tags that do not match", async () => {
    const response = await get("/api/offerings", { "if-none-match": '"nope", W/"also-nope"' });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { total: number };
    served.openapi.assertResponse("/api/offerings", 200, body);
    assert.equal(body.total, 3);
  });

  test("HEAD with a matching tag answers 304 and the Content-Length of the 200", async () => {
    const full = await get("/api/offerings/cost-guides");
    const length = String((await full.arrayBuffer()).byteLength);
    const response = await get("/api/offerings/cost-guides", { "if-none-match": full.headers.get("etag") ?? "" }, "HEAD");
    assert.equal(response.status, 304);
    assert.equal(response.headers.get("content-length"), length);
  });

  test("an error is never answered with 304, even for *", async () => {
    const response = await get("/api/offerings/nope", { "if-none-match": "*" });
    assert.equal(response.status, 404);
    served.openapi.assertResponse("/api/offerings/nope", 404, await response.json());
  });
});

describe("error responses", () => {
  for (const [path, status] of [
    ["/api/directory?limit=0", 400],
    ["/api/directory/nope", 404],
    ["/api/nope", 404],
  ] as const) {
    test(`GET ${path} (${status}) carries Cache-Control: no-store and no ETag`, async () => {
      const response = await get(path);
      assert.equal(response.status, status);
      served.openapi.assertResponse(path, status, await response.json());
      assert.equal(response.headers.get("cache-control"), "no-store");
      assert.equal(response.headers.get("etag"), null);
    });
  }
});

describe("stale times set by the operator", () => {
  const tuned = serveContent(`${FIXTURES}basic`, { STALE_WHILE_REVALIDATE_SECONDS: "0", STALE_IF_ERROR_SECONDS: "300" });

  test("STALE_WHILE_REVALIDATE_SECONDS=0 leaves stale-while-revalidate out, and STALE_IF_ERROR_SECONDS sets stale-if-error", async () => {
    for (const path of ["/api/directory?q=plumb", "/businesses", "/mcp/server-card"]) {
      const response = await fetch(`${tuned.current.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("cache-control"), "public, max-age=60, stale-if-error=300", path);
    }
  });

  test("errors stay no-store whatever the stale times", async () => {
    const response = await fetch(`${tuned.current.url}/api/directory/nope`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get("cache-control"), "no-store");
  });
});
