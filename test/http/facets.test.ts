import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

/**
 * GET /api/facets (interface §4, Facets) on the basic fixture: nine approved listings, and a
 * pending, a rejected and a suspended one that no count may include.
 */
const served = serveContent(`${FIXTURES}basic`);

async function get(path: string): Promise<{ status: number; body: unknown; response: Response }> {
  const response = await fetch(`${served.current.url}${path}`);
  const body: unknown = await response.json();
  if (response.status === 200) served.openapi.assertResponse(path, 200, body);
  return { status: response.status, body, response };
}

describe("counts of a search", () => {
  test("without filters: all nine approved listings, by count descending then value", async () => {
    assert.deepEqual((await get("/api/facets")).body, {
      total: 9,
      service: [
        { value: "Landscaping", count: 2 },
        { value: "Plumbing", count: 2 },
        { value: "Electrical", count: 1 },
        { value: "Handyman", count: 1 },
        { value: "Locksmith", count: 1 },
        { value: "Painting & Decorating", count: 1 },
        { value: "Roofing", count: 1 },
      ],
      category: [
        { value: "Repairs & maintenance", count: 4 },
        { value: "Building & renovation", count: 2 },
        { value: "Outdoor & garden", count: 2 },
        { value: "Security", count: 1 },
      ],
      country: [
        { value: "GB", count: 4 },
        { value: "IE", count: 2 },
        { value: "CA", count: 1 },
        { value: "DE", count: 1 },
        { value: "FR", count: 1 },
      ],
      city: [
        { value: "Leeds", count: 2 },
        { value: "Cork", count: 1 },
        { value: "Dublin", count: 1 },
        { value: "Lyon", count: 1 },
        { value: "Manchester", count: 1 },
        { value: "München", count: 1 },
        { value: "Toronto", count: 1 },
        { value: "York", count: 1 },
      ],
    });
  });

  test("q=plumbing counts the two approved plumbers, not the pending one in Leeds", async () => {
    assert.deepEqual((await get("/api/facets?q=plumbing")).body, {
      total: 2,
      service: [{ value: "Plumbing", count: 2 }],
      category: [{ value: "Repairs & maintenance", count: 2 }],
      country: [
        { value: "GB", count: 1 },
        { value: "IE", count: 1 },
      ],
      city: [
        { value: "Dublin", count: 1 },
        { value: "Leeds", count: 1 },
      ],
    });
  });

  test("location=york matches as the search does: York, and the Leeds listings in West Yorkshire", async () => {
    const { body } = await get("/api/facets?location=york");
    assert.deepEqual(body, {
      total: 3,
      service: [
        { value: "Handyman", count: 1 },
        { value: "Landscaping", count: 1 },
        { value: "Plumbing", count: 1 },
      ],
      category: [
        { value: "Repairs & maintenance", count: 2 },
        { value: "Outdoor & garden", count: 1 },
      ],
      country: [{ value: "GB", count: 3 }],
      city: [
        { value: "Leeds", count: 2 },
        { value: "York", count: 1 },
      ],
    });
    const search = (await get("/api/directory?location=york&limit=25")).body as { items: unknown[] };
    assert.equal(search.items.length, 3);
  });

  test("country is case-insensitive, and a search that matches nothing is a 200 of zero counts", async () => {
    assert.deepEqual((await get("/api/facets?country=ie")).body, (await get("/api/facets?country=IE")).body);
    const none = { total: 0, service: [], category: [], country: [], city: [] };
    for (const path of ["/api/facets?q=zzz", "/api/facets?country=us", "/api/facets?q=%CC%81"]) {
      const { status, body } = await get(path);
      assert.equal(status, 200, path);
      assert.deepEqual(body, none, path);
    }
  });
});

describe("parameters, with the search's rules", () => {
  for (const [query, code, message] of [
    ["limit=5", "unknown_parameter", "Parameter 'limit' is not supported here; accepted parameters: q, location, country."],
    ["offset=0", "unknown_parameter", "Parameter 'offset' is not supported here; accepted parameters: q, location, country."],
    ["q=plumb&q=leeds", "repeated_parameter", "Parameter 'q' appears more than once."],
    ["country=GBR", "invalid_parameter", "Parameter 'country' is invalid: it must be a two-letter country code such as GB."],
    [
      "q=%3Cscript%3E",
      "invalid_parameter",
      "Parameter 'q' is invalid: it must be at most 120 characters and at most 6 terms of letters, digits, spaces, apostrophes, periods, ampersands and hyphens.",
    ],
  ] as const) {
    test(`?${query} is a 400 ${code}, not cached`, async () => {
      const { status, body, response } = await get(`/api/facets?${query}`);
      assert.equal(status, 400);
      assert.equal((body as { error: { code: string } }).error.code, code);
      assert.equal((body as { error: { message: string } }).error.message, message);
      assert.equal(response.headers.get("cache-control"), "no-store");
    });
  }

  test("answers 304 to its own ETag, and HEAD gives GET's headers without a body", async () => {
    const first = await fetch(`${served.current.url}/api/facets?location=leeds`);
    const tag = first.headers.get("etag") ?? "";
    assert.match(tag, /^"[0-9a-f]+-f[0-9a-z]+"$/);
    const again = await fetch(`${served.current.url}/api/facets?location=leeds`, { headers: { "if-none-match": tag } });
    assert.equal(again.status, 304);
    const head = await fetch(`${served.current.url}/api/facets?location=leeds`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), first.headers.get("content-length"));
    assert.equal(await head.text(), "");
  });
});
