import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { EXTENSION_ID, RESOURCE_MIME_TYPE, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { type McpTestServer, MODERN_VERSION, post, startMcpServer } from "./helpers.ts";

/**
 * The MCP App (MCP Apps, SEP-1865) and the icons, in both eras: the tools that name the app, the
 * app read by its ui:// URI, the extension declared in the capabilities, and the icons of the
 * server and of its tools, each compared with exact values and, where the extension's own SDK
 * defines them, with its constants and server helper.
 */

let server: McpTestServer;

before(async () => {
  server = await startMcpServer();
});
after(async () => {
  await server.close();
});

const APP_URI = "ui://directory/results.html";
const APP_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: false },
};
const icons = () => [
  { src: `${server.baseUrl}/favicon.svg`, mimeType: "image/svg+xml", sizes: ["any"] },
  { src: `${server.baseUrl}/favicon.ico`, mimeType: "image/x-icon", sizes: ["32x32"] },
];

type Era = "2025-11-25" | typeof MODERN_VERSION;
const ERAS: readonly Era[] = ["2025-11-25", MODERN_VERSION];

/** One request in `era` (2026-07-28: its _meta and mirrored headers); returns the result. */
async function call(era: Era, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const modern = era === MODERN_VERSION;
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: modern
      ? {
          ...params,
          _meta: { "io.modelcontextprotocol/protocolVersion": era, "io.modelcontextprotocol/clientCapabilities": {} },
        }
      : params,
  };
  const headers = modern ? { "mcp-protocol-version": era, "mcp-method": method, "mcp-name": name } : { "mcp-protocol-version": era };
  const response = await post(server, body, headers);
  assert.equal(response.status, 200, response.body);
  const parsed = JSON.parse(response.body) as { result?: Record<string, unknown> };
  assert.ok(parsed.result, response.body);
  return parsed.result;
}

/** What the extension's server helper puts in a tool's _meta for `resourceUri`. */
function helperMeta(resourceUri: string): unknown {
  let meta: unknown;
  const fake = {
    registerTool: (_name: string, config: { _meta?: unknown }) => {
      meta = config._meta;
      return undefined as never;
    },
  };
  registerAppTool(fake, "t", { _meta: { ui: { resourceUri } } }, (() => ({ content: [] })) as never);
  return meta;
}

for (const era of ERAS) {
  describe(`MCP App and icons, ${era}`, () => {
    test("search_businesses and get_business name the app in _meta, as the extension's server helper writes it; no other tool does", async () => {
      const { tools } = (await call(era, "tools/list")) as { tools: { name: string; _meta?: unknown }[] };
      const meta = { ui: { resourceUri: APP_URI }, "ui/resourceUri": APP_URI };
      assert.deepEqual(helperMeta(APP_URI), meta);
      assert.deepEqual(
        tools.filter((tool) => tool._meta !== undefined).map((tool) => [tool.name, tool._meta]),
        [
          ["search_businesses", meta],
          ["get_business", meta],
        ],
      );
    });

    test("every tool carries the server's icons", async () => {
      const { tools } = (await call(era, "tools/list")) as { tools: { name: string; icons?: unknown }[] };
      assert.ok(tools.length >= 4);
      for (const tool of tools) assert.deepEqual(tool.icons, icons(), tool.name);
    });

    test("resources/read of the ui:// URI answers the built HTML document, text/html;profile=mcp-app, declaring no origin", async () => {
      const result = await call(era, "resources/read", { uri: APP_URI });
      const html = await readFile(join(server.distDir, "data/mcp-app.html"), "utf8");
      assert.equal(RESOURCE_MIME_TYPE, "text/html;profile=mcp-app");
      assert.deepEqual(result.contents, [{ uri: APP_URI, mimeType: RESOURCE_MIME_TYPE, text: html, _meta: APP_META }]);
      assert.match(html, /^<!doctype html>\n<html lang="en">/);
      // Self-contained: one inline script and no reference to any other document.
      assert.equal(html.match(/<script\b/g)?.length, 1);
      assert.equal(html.match(/<\/script>/g)?.length, 1);
      assert.doesNotMatch(html, /<script\b[^>]*\bsrc=|<link\b|<img\b|<iframe\b/i);
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
      assert.ok(style.length > 0);
      assert.doesNotMatch(style, /@import|url\(/);
    });

    test("resources/list leaves the app out: it is found through the tools", async () => {
      const { resources } = (await call(era, "resources/list")) as { resources: { uri: string }[] };
      assert.ok(resources.length > 0);
      assert.deepEqual(
        resources.filter((resource) => !resource.uri.startsWith(`${server.baseUrl}/`)),
        [],
      );
    });
  });
}

test("2025: initialize names the server with its icons and declares the MCP Apps extension", async () => {
  const result = await call("2025-11-25", "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "app-tests", version: "1.0.0" },
  });
  assert.equal(EXTENSION_ID, "io.modelcontextprotocol/ui");
  assert.deepEqual(result.capabilities, {
    tools: { listChanged: false },
    resources: { listChanged: false, subscribe: false },
    extensions: { [EXTENSION_ID]: {} },
  });
  assert.deepEqual(result.serverInfo, {
    name: "public-catalog-directory",
    title: "Public catalog and business directory",
    version: "1.1.0",
    websiteUrl: server.baseUrl,
    icons: icons(),
  });
});

test("2026-07-28: server/discover declares the extension, and every result's _meta names the server with its icons", async () => {
  const result = await call(MODERN_VERSION, "server/discover");
  assert.deepEqual((result.capabilities as { extensions?: unknown }).extensions, { [EXTENSION_ID]: {} });
  assert.deepEqual((result._meta as Record<string, { icons?: unknown }>)["io.modelcontextprotocol/serverInfo"]?.icons, icons());
  const listed = await call(MODERN_VERSION, "tools/list");
  assert.deepEqual((listed._meta as Record<string, { icons?: unknown }>)["io.modelcontextprotocol/serverInfo"]?.icons, icons());
});

test("every icon's src is served under BASE_URL with its mimeType", async () => {
  for (const icon of icons()) {
    const response = await fetch(`${server.url}${icon.src.slice(server.baseUrl.length)}`);
    assert.equal(response.status, 200, icon.src);
    assert.equal(response.headers.get("content-type"), icon.mimeType, icon.src);
    await response.arrayBuffer();
  }
});
