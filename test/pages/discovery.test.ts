import assert from "node:assert/strict";
import { test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES, TEST_BASE_URL } from "../helpers/snapshot.ts";
import { serveStatic } from "../helpers/static-host.ts";

/**
 * The API catalog at /.well-known/api-catalog (RFC 9727): a JSON linkset (RFC 9264) naming the
 * REST API's OpenAPI document and docs and the MCP endpoint's server card and docs, the same
 * bytes from the server and, as the build wrote them, from a plain static host.
 */

const served = serveContent(`${FIXTURES}basic`);

const DOCS = [
  { href: `${TEST_BASE_URL}/docs/api`, type: "text/html" },
  { href: `${TEST_BASE_URL}/docs/api/index.md`, type: "text/markdown" },
];
const CATALOG = {
  linkset: [
    {
      anchor: `${TEST_BASE_URL}/api`,
      "service-desc": [{ href: `${TEST_BASE_URL}/openapi.json`, type: "application/vnd.oai.openapi+json" }],
      "service-doc": DOCS,
    },
    {
      anchor: `${TEST_BASE_URL}/mcp`,
      "service-meta": [{ href: `${TEST_BASE_URL}/mcp/server-card`, type: "application/mcp-server-card+json" }],
      "service-doc": DOCS,
    },
  ],
};
const CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
const CATALOG_LINK = '</.well-known/api-catalog>; rel="api-catalog"';

test("GET /.well-known/api-catalog answers the linkset as application/linkset+json with RFC 9727's profile, naming itself in Link", async () => {
  const response = await fetch(`${served.current.url}/.well-known/api-catalog`, { headers: { accept: "application/linkset+json" } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), CATALOG_TYPE);
  assert.equal(response.headers.get("link"), CATALOG_LINK);
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.deepEqual(JSON.parse(await response.text()), CATALOG);
});

test("HEAD /.well-known/api-catalog answers 200 with the api-catalog Link and no body", async () => {
  const response = await fetch(`${served.current.url}/.well-known/api-catalog`, { method: "HEAD" });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("link"), CATALOG_LINK);
  assert.equal(response.headers.get("content-type"), CATALOG_TYPE);
  assert.equal(await response.text(), "");
});

test("every link of the catalog leads to a document the server answers with 200 and the type the link names", async () => {
  const links = CATALOG.linkset.flatMap((entry) => [
    ...(entry["service-desc"] ?? []),
    ...(entry["service-meta"] ?? []),
    ...entry["service-doc"],
  ]);
  assert.equal(links.length, 6);
  for (const { href, type } of links) {
    const response = await fetch(`${served.current.url}${href.slice(TEST_BASE_URL.length)}`, { headers: { accept: type } });
    await response.arrayBuffer();
    assert.equal(response.status, 200, href);
    // The OpenAPI document is sent as JSON, which its own type is a kind of.
    const sent = type === "application/vnd.oai.openapi+json" ? "application/json; charset=utf-8" : type;
    assert.ok(response.headers.get("content-type")?.startsWith(sent), `${href}: ${response.headers.get("content-type")}`);
  }
});

test("every page names the API catalog in its Link header", async () => {
  for (const [path, accept] of [
    ["/", "text/html"],
    ["/index.md", "text/markdown"],
    ["/businesses?q=plumb", "text/html"],
    ["/no-such-page", "text/markdown"],
  ] as const) {
    const response = await fetch(`${served.current.url}${path}`, { headers: { accept } });
    await response.arrayBuffer();
    assert.ok(response.headers.get("link")?.endsWith(`, ${CATALOG_LINK}`), `${path}: ${response.headers.get("link")}`);
  }
});

test("a static host serves dist/.well-known/api-catalog with the bytes the server sends", async (t) => {
  // A plain static file server on the same dist/: no fastify, no negotiation, just the files.
  // Started here, not in a hook of its own: node 20 runs a file's top-level before hooks at once,
  // so one could start before serveContent has built dist/.
  const staticHost = await serveStatic(served.dist);
  t.after(() => staticHost.close());
  const fromServer = Buffer.from(await (await fetch(`${served.current.url}/.well-known/api-catalog`)).arrayBuffer());
  const response = await fetch(`${staticHost.url}/.well-known/api-catalog`);
  assert.equal(response.status, 200);
  const fromStatic = Buffer.from(await response.arrayBuffer());
  assert.equal(fromStatic.toString(), fromServer.toString());
  assert.deepEqual(JSON.parse(fromStatic.toString()), CATALOG);
});
