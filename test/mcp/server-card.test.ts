import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { serverCard } from "../../src/mcp/server-card.ts";
import { type McpTestServer, MODERN_VERSION, post, startMcpServer } from "./helpers.ts";

/** The experimental MCP server card (SEP-2127 draft, modelcontextprotocol/experimental-ext-server-card). */

let server: McpTestServer;

before(async () => {
  server = await startMcpServer();
});
after(async () => {
  await server.close();
});

const ALL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];

test("GET /mcp/server-card answers the card as application/mcp-server-card+json, with CORS and an ETag", async () => {
  const response = await fetch(`${server.url}/mcp/server-card`, { headers: { accept: "application/mcp-server-card+json" } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/mcp-server-card+json");
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.equal(response.headers.get("cache-control"), "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400");
  const tag = response.headers.get("etag");
  assert.ok(tag);
  assert.deepEqual(await response.json(), {
    $schema: "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
    name: "localhost/public-catalog-directory",
    version: "1.1.0",
    description: "Free, read-only catalog of offerings and directory of approved public business listings.",
    title: "Public catalog and business directory",
    websiteUrl: server.baseUrl,
    icons: [
      { src: `${server.baseUrl}/favicon.svg`, mimeType: "image/svg+xml", sizes: ["any"] },
      { src: `${server.baseUrl}/favicon.ico`, mimeType: "image/x-icon", sizes: ["32x32"] },
    ],
    remotes: [{ type: "streamable-http", url: `${server.baseUrl}/mcp`, supportedProtocolVersions: ALL_VERSIONS }],
    _meta: { "io.modelcontextprotocol/ui": { resourceUri: "ui://directory/results.html", tools: ["search_businesses", "get_business"] } },
  });
  const again = await fetch(`${server.url}/mcp/server-card`, { headers: { "if-none-match": `W/"other", ${tag}` } });
  assert.equal(again.status, 304);
  const post = await fetch(`${server.url}/mcp/server-card`, { method: "POST" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
});

test("the card agrees with server/discover: the same versions and the same server name and version", async () => {
  const card = (await (await fetch(`${server.url}/mcp/server-card`)).json()) as {
    version: string;
    title: string;
    remotes: { supportedProtocolVersions: string[] }[];
  };
  const discover = await post(
    server,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN_VERSION, "io.modelcontextprotocol/clientCapabilities": {} } },
    },
    { "mcp-protocol-version": MODERN_VERSION, "mcp-method": "server/discover" },
  );
  const { result } = JSON.parse(discover.body) as {
    result: { supportedVersions: string[]; _meta: Record<string, { version: string; title: string }> };
  };
  assert.deepEqual(card.remotes[0]?.supportedProtocolVersions, result.supportedVersions);
  const info = result._meta["io.modelcontextprotocol/serverInfo"];
  assert.equal(card.version, info?.version);
  assert.equal(card.title, info?.title);
});

test("the card keeps to the draft's rules for any BASE_URL: a reverse-DNS name, a description of at most 100 characters", () => {
  const info = { name: "public-catalog-directory", version: "1.1.0", title: "Public catalog and business directory" };
  const cases: [string, string][] = [
    ["https://catalog.example.org", "org.example.catalog/public-catalog-directory"],
    ["https://www.example.co.uk:8443", "uk.co.example.www/public-catalog-directory"],
    ["http://127.0.0.1:3000", "127.0.0.1/public-catalog-directory"],
    ["http://[::1]:3000", "--1/public-catalog-directory"],
  ];
  for (const [baseUrl, name] of cases) {
    const card = serverCard(baseUrl, info);
    assert.equal(card.name, name, baseUrl);
    assert.match(card.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    assert.ok(card.description.length >= 1 && card.description.length <= 100);
    assert.match(card.remotes[0]?.url ?? "", /^https?:\/\/[^\s]+$/);
  }
});

test("GET /.well-known/ai-catalog.json names the card for domain-level discovery", async () => {
  const response = await fetch(`${server.url}/.well-known/ai-catalog.json`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/ai-catalog+json");
  assert.equal(response.headers.get("access-control-allow-origin"), "*");
  assert.deepEqual(await response.json(), {
    specVersion: "1.0",
    entries: [
      {
        identifier: "urn:air:localhost:mcp:public-catalog-directory",
        type: "application/mcp-server-card+json",
        url: `${server.baseUrl}/mcp/server-card`,
      },
    ],
  });
});
