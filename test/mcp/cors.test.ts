import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext } from "playwright-core";
import { browserForTests } from "../helpers/browser.ts";
import { type McpTestServer, post, postHeaders, raw, startMcpServer } from "./helpers.ts";

/**
 * CORS on /mcp (interface §6): a page on an origin MCP_ALLOWED_ORIGINS names may call the endpoint
 * from a browser; any other origin is refused with 403 before CORS is even considered.
 */

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
const PREFLIGHT_HEADERS = "content-type, accept, mcp-protocol-version, mcp-method, mcp-name";

/** A page server on 127.0.0.1: each stands for a web app on an origin of its own. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><title>An agent's page</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let allowedPage: { server: Server; origin: string };
let otherPage: { server: Server; origin: string };
let mcp: McpTestServer;

before(async () => {
  allowedPage = await pageServer();
  otherPage = await pageServer();
  mcp = await startMcpServer({ env: { MCP_ALLOWED_ORIGINS: allowedPage.origin } });
});
after(async () => {
  await mcp.close();
  allowedPage.server.close();
  otherPage.server.close();
});

function preflight(origin: string): Record<string, string> {
  return {
    host: `localhost:${mcp.port}`,
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "content-type,mcp-protocol-version",
  };
}

describe("over HTTP", () => {
  test("an allowed origin's preflight is answered 204, allowing POST with the MCP headers, for a day", async () => {
    const response = await raw(mcp, "OPTIONS", preflight(allowedPage.origin));
    assert.equal(response.status, 204);
    assert.equal(response.body, "");
    assert.equal(response.headers["access-control-allow-origin"], allowedPage.origin);
    assert.equal(response.headers["access-control-allow-methods"], "POST");
    assert.equal(response.headers["access-control-allow-headers"], PREFLIGHT_HEADERS);
    assert.equal(response.headers["access-control-max-age"], "86400");
    assert.equal(response.headers.vary, "Origin");
  });

  test("another origin's preflight is refused with 403 and no CORS headers", async () => {
    const response = await raw(mcp, "OPTIONS", preflight(otherPage.origin));
    assert.equal(response.status, 403);
    assert.equal(response.headers["access-control-allow-origin"], undefined);
  });

  test("a POST from an allowed origin names it in Access-Control-Allow-Origin, with Vary: Origin, errors too", async () => {
    const ok = await post(mcp, PING, { origin: allowedPage.origin });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers["access-control-allow-origin"], allowedPage.origin);
    assert.equal(ok.headers["access-control-expose-headers"], "mcp-protocol-version, retry-after, ratelimit, ratelimit-policy");
    assert.equal(ok.headers.vary, "Origin");
    const refused = await post(mcp, PING, { origin: allowedPage.origin, accept: "application/json" });
    assert.equal(refused.status, 406);
    assert.equal(refused.headers["access-control-allow-origin"], allowedPage.origin);
  });

  test("a POST without Origin (not from a browser) carries no CORS headers", async () => {
    const response = await raw(mcp, "POST", postHeaders(mcp), JSON.stringify(PING));
    assert.equal(response.status, 200);
    assert.equal(response.headers["access-control-allow-origin"], undefined);
  });
});

describe("from a browser", () => {
  let browser: Browser | undefined;
  let context: BrowserContext;
  let skipReason: string | undefined;

  before(async () => {
    const launched = await browserForTests();
    if (typeof launched === "string") {
      skipReason = launched;
      return;
    }
    browser = launched;
    context = await browser.newContext();
  });
  after(async () => {
    if (browser !== undefined) await context.close();
    await browser?.close();
  });

  /** What a page on `origin` gets when it calls tools/list on /mcp with fetch: the JSON, or the error fetch throws. */
  async function callFrom(origin: string): Promise<{ status?: number; tools?: string[]; error?: string }> {
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(async (endpoint) => {
        try {
          const response = await fetch(endpoint, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2025-06-18",
            },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
          });
          const body = (await response.json()) as { result: { tools: { name: string }[] } };
          return { status: response.status, tools: body.result.tools.map((tool) => tool.name) };
        } catch (error) {
          return { error: String(error) };
        }
      }, `${mcp.baseUrl}/mcp`);
    } finally {
      await page.close();
    }
  }

  test("a page on an allowed origin calls /mcp and reads the answer", async (t) => {
    if (browser === undefined) return t.skip(skipReason);
    const answer = await callFrom(allowedPage.origin);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.tools?.slice().sort(), [
      "directory_facets",
      "get_business",
      "get_offering",
      "search_businesses",
      "search_offerings",
    ]);
  });

  test("a page on another origin is refused by its own browser", async (t) => {
    if (browser === undefined) return t.skip(skipReason);
    assert.deepEqual(await callFrom(otherPage.origin), { error: "TypeError: Failed to fetch" });
  });
});
