import assert from "node:assert/strict";
import { test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

/** Security headers and CORS: on every answer, pages, files, API, errors and 304s alike (MCP aside). */

const served = serveContent(`${FIXTURES}basic`);

const SECURITY = {
  csp: "default-src 'none';style-src 'self';img-src 'self';connect-src 'self';form-action 'self';base-uri 'none';frame-ancestors 'none'",
  nosniff: "nosniff",
  referrer: "strict-origin-when-cross-origin",
  frame: "SAMEORIGIN",
  corp: "cross-origin",
  cookie: null,
};

async function securityHeaders(path: string, init: RequestInit = {}) {
  const response = await fetch(`${served.current.url}${path}`, init);
  await response.arrayBuffer();
  return {
    status: response.status,
    headers: {
      csp: response.headers.get("content-security-policy"),
      nosniff: response.headers.get("x-content-type-options"),
      referrer: response.headers.get("referrer-policy"),
      frame: response.headers.get("x-frame-options"),
      corp: response.headers.get("cross-origin-resource-policy"),
      cookie: response.headers.get("set-cookie"),
    },
  };
}

const CASES: [what: string, path: string, init: RequestInit, status: number][] = [
  ["an HTML page", "/", {}, 200],
  ["the directory page with a search", "/businesses?q=plumb", {}, 200],
  ["the directory page refusing its input", "/businesses?country=GBR", {}, 400],
  ["the HTML 404 page", "/no-such-page", {}, 404],
  ["a Markdown page", "/index.md", {}, 200],
  ["the Markdown 404 page", "/no-such-page", { headers: { accept: "text/markdown" } }, 404],
  ["llms.txt", "/llms.txt", {}, 200],
  ["the stylesheet", "/assets/site.css", {}, 200],
  ["the favicon", "/favicon.ico", {}, 200],
  ["a REST answer", "/api/offerings", {}, 200],
  ["a REST error", "/api/directory?limit=0", {}, 400],
  ["the JSON 404 of an unknown API path", "/api/nothing", {}, 404],
  ["openapi.json", "/openapi.json", {}, 200],
  ["a refused method on a page", "/", { method: "POST" }, 405],
];

for (const [what, path, init, status] of CASES) {
  test(`${what} (${path}) carries the security headers and sets no cookie`, async () => {
    assert.deepEqual(await securityHeaders(path, init), { status, headers: SECURITY });
  });
}

test("an HTML page answered 304 carries the security headers too", async () => {
  const first = await fetch(`${served.current.url}/contact`);
  await first.arrayBuffer();
  const tag = first.headers.get("etag") ?? "";
  assert.notEqual(tag, "");
  assert.deepEqual(await securityHeaders("/contact", { headers: { "if-none-match": tag } }), { status: 304, headers: SECURITY });
});

test("a web app on any origin may read the REST API, with the headers it needs exposed", async () => {
  const response = await fetch(`${served.current.url}/api/directory?q=plumb`, { headers: { origin: "https://app.example" } });
  await response.arrayBuffer();
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.equal(
    response.headers.get("access-control-expose-headers"),
    "ETag, Link, Retry-After, RateLimit, RateLimit-Policy, Content-Signal, x-markdown-tokens",
  );
  assert.equal(response.headers.get("access-control-allow-credentials"), null);
});

test("a CORS preflight for GET on the API or a static file is answered 204 with the allowed methods", async () => {
  for (const path of ["/api/directory", "/llms.txt", "/data/businesses.json"]) {
    const response = await fetch(`${served.current.url}${path}`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET", "access-control-request-headers": "if-none-match" },
    });
    await response.arrayBuffer();
    assert.deepEqual(
      {
        status: response.status,
        origin: response.headers.get("access-control-allow-origin"),
        methods: response.headers.get("access-control-allow-methods"),
        headers: response.headers.get("access-control-allow-headers"),
        maxAge: response.headers.get("access-control-max-age"),
      },
      { status: 204, origin: "*", methods: "GET, HEAD", headers: "if-none-match", maxAge: "86400" },
      path,
    );
  }
});

test("an OPTIONS request that is not a preflight is refused with 405 and Allow", async () => {
  const response = await fetch(`${served.current.url}/api/directory`, { method: "OPTIONS" });
  const body = (await response.json()) as { error: { code: string } };
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), "GET, HEAD");
  assert.equal(body.error.code, "method_not_allowed");
});

test("MCP gets no CORS headers: browsers on other origins are refused by its Origin check", async () => {
  const response = await fetch(`${served.current.url}/mcp`, {
    method: "POST",
    headers: { origin: "https://app.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await response.arrayBuffer();
  assert.equal(response.status, 403);
  assert.equal(response.headers.get("access-control-allow-origin"), null);
  const preflight = await fetch(`${served.current.url}/mcp`, {
    method: "OPTIONS",
    headers: { origin: "https://app.example", "access-control-request-method": "POST" },
  });
  await preflight.arrayBuffer();
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);
});
