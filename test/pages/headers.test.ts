import assert from "node:assert/strict";
import { test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

/** The pages plugin's headers go on page responses, and only there. */

const served = serveContent(`${FIXTURES}basic`);

const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
interface PageHeaders {
  csp: string | null;
  nosniff: string | null;
  referrer: string | null;
}
const HTML_HEADERS: PageHeaders = { csp: CSP, nosniff: "nosniff", referrer: "strict-origin-when-cross-origin" };
const TEXT_HEADERS: PageHeaders = { csp: null, nosniff: "nosniff", referrer: null };
const NONE: PageHeaders = { csp: null, nosniff: null, referrer: null };

async function pageHeaders(path: string, init: RequestInit = {}): Promise<{ status: number; headers: PageHeaders }> {
  const response = await fetch(`${served.current.url}${path}`, init);
  await response.arrayBuffer();
  return {
    status: response.status,
    headers: {
      csp: response.headers.get("content-security-policy"),
      nosniff: response.headers.get("x-content-type-options"),
      referrer: response.headers.get("referrer-policy"),
    },
  };
}

const CASES: [what: string, path: string, init: RequestInit, status: number, expected: PageHeaders][] = [
  ["an HTML page", "/", {}, 200, HTML_HEADERS],
  ["the directory page with a search", "/businesses?q=plumb", {}, 200, HTML_HEADERS],
  ["the directory page refusing its input", "/businesses?country=GBR", {}, 400, HTML_HEADERS],
  ["the HTML 404 page", "/no-such-page", {}, 404, HTML_HEADERS],
  ["a Markdown page", "/index.md", {}, 200, TEXT_HEADERS],
  ["the Markdown 404 page", "/no-such-page", { headers: { accept: "text/markdown" } }, 404, TEXT_HEADERS],
  ["llms.txt", "/llms.txt", {}, 200, TEXT_HEADERS],
  ["the stylesheet", "/assets/site.css", {}, 200, TEXT_HEADERS],
  ["a REST answer", "/api/offerings", {}, 200, NONE],
  ["a REST error", "/api/directory?limit=0", {}, 400, NONE],
  ["the JSON 404 of an unknown API path", "/api/nothing", {}, 404, NONE],
  ["openapi.json", "/openapi.json", {}, 200, NONE],
  ["a refused method on a page", "/", { method: "POST" }, 405, NONE],
];

for (const [what, path, init, status, expected] of CASES) {
  test(`${what} (${path}) carries ${expected === HTML_HEADERS ? "the HTML page headers" : expected === TEXT_HEADERS ? "nosniff only" : "no page headers"}`, async () => {
    assert.deepEqual(await pageHeaders(path, init), { status, headers: expected });
  });
}

test("an HTML page answered 304 carries the HTML page headers too", async () => {
  const first = await fetch(`${served.current.url}/contact`);
  await first.arrayBuffer();
  const tag = first.headers.get("etag") ?? "";
  assert.notEqual(tag, "");
  assert.deepEqual(await pageHeaders("/contact", { headers: { "if-none-match": tag } }), { status: 304, headers: HTML_HEADERS });
});
