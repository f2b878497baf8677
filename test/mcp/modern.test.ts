import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { INSTRUCTIONS } from "../../src/mcp/server.ts";
import { type McpTestServer, MODERN_VERSION, post, postHeaders, type RawResponse, raw, startMcpServer } from "./helpers.ts";

/**
 * MCP 2026-07-28 on the dual-era endpoint, in raw requests: what the revision asks of every
 * request (Streamable HTTP: Server Validation; Base Protocol: `_meta`), the results' own fields,
 * and interface §6's transport rules, which hold in this era as in the 2025 one.
 */

let server: McpTestServer;

before(async () => {
  server = await startMcpServer({ env: { MCP_ALLOWED_ORIGINS: "https://app.example" } });
});
after(async () => {
  await server.close();
});

const JSON_TYPE = "application/json; charset=utf-8";
const ALL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];
const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
  "io.modelcontextprotocol/clientInfo": { name: "raw-tests", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 request: `_meta` in the params, and the headers that mirror the body. */
function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
): { body: unknown; headers: Record<string, string | undefined> } {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  return {
    body: { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } },
    headers: { "mcp-protocol-version": MODERN_VERSION, "mcp-method": method, "mcp-name": name, ...headers },
  };
}

async function send(request: { body: unknown; headers: Record<string, string | undefined> }): Promise<RawResponse> {
  return post(server, request.body, request.headers);
}

function parse(response: RawResponse): Record<string, unknown> {
  assert.equal(response.headers["content-type"], JSON_TYPE);
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** A result answered with 200; returns `result`. */
function resultOf(response: RawResponse): Record<string, unknown> {
  assert.equal(response.status, 200, response.body);
  const body = parse(response);
  assert.equal(body.error, undefined, response.body);
  return body.result as Record<string, unknown>;
}

function assertError(response: RawResponse, status: number, error: Record<string, unknown>, id: number | null = 1): void {
  assert.equal(response.status, status, response.body);
  assert.deepEqual(parse(response), { jsonrpc: "2.0", id, error });
}

const mismatch = (detail: string) => ({ code: -32020, message: `Header mismatch: ${detail}` });
const MISSING_META = {
  code: -32602,
  message:
    'Invalid params: a 2026-07-28 request carries params._meta with "io.modelcontextprotocol/protocolVersion" (a string) and "io.modelcontextprotocol/clientCapabilities" (an object), and "io.modelcontextprotocol/clientInfo", when present, as {name, version}.',
};

/** Every 2026-07-28 result's `_meta`: the server's identity. */
const serverMeta = () => ({
  "io.modelcontextprotocol/serverInfo": {
    name: "public-catalog-directory",
    title: "Public catalog and business directory",
    version: "1.1.0",
    websiteUrl: server.baseUrl,
    icons: [
      { src: `${server.baseUrl}/favicon.svg`, mimeType: "image/svg+xml", sizes: ["any"] },
      { src: `${server.baseUrl}/favicon.ico`, mimeType: "image/x-icon", sizes: ["32x32"] },
    ],
  },
});

/** The same call in the 2025 era, after no handshake (the endpoint is stateless), with its version header. */
async function legacyResult(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await post(server, { jsonrpc: "2.0", id: 1, method, params }, { "mcp-protocol-version": "2025-11-25" });
  return resultOf(response);
}

describe("results", () => {
  test("server/discover lists all four versions, the capabilities, the instructions, caching hints and the server", async () => {
    const result = resultOf(await send(modern("server/discover")));
    assert.deepEqual(result, {
      resultType: "complete",
      supportedVersions: ALL_VERSIONS,
      capabilities: {
        tools: { listChanged: false },
        resources: { listChanged: false, subscribe: false },
        extensions: { "io.modelcontextprotocol/ui": {} },
      },
      instructions: INSTRUCTIONS,
      ttlMs: 60_000,
      cacheScope: "public",
      _meta: serverMeta(),
    });
  });

  test("tools/list, resources/list and resources/templates/list carry the 2025 lists with resultType and caching hints", async () => {
    for (const method of ["tools/list", "resources/list", "resources/templates/list"]) {
      const result = resultOf(await send(modern(method)));
      assert.deepEqual(result, {
        resultType: "complete",
        ...(await legacyResult(method, {})),
        ttlMs: 60_000,
        cacheScope: "public",
        _meta: serverMeta(),
      });
    }
  });

  test("resources/read answers every resource as in 2025, with resultType and caching hints", async () => {
    const { resources } = await legacyResult("resources/list", {});
    assert.ok(Array.isArray(resources) && resources.length > 0);
    for (const { uri } of resources as { uri: string }[]) {
      const result = resultOf(await send(modern("resources/read", { uri })));
      assert.deepEqual(result, {
        resultType: "complete",
        ...(await legacyResult("resources/read", { uri })),
        ttlMs: 60_000,
        cacheScope: "public",
        _meta: serverMeta(),
      });
    }
  });

  test("every tool answers exactly what it answers in 2025, with resultType and the server, without caching hints", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["search_businesses", {}],
      ["search_businesses", { q: "plumb", limit: 2 }],
      ["search_businesses", { country: "GB", offset: 1 }],
      ["search_businesses", { limit: 0 }],
      ["get_business", { identifier: "joes-handyman" }],
      ["get_business", { identifier: "no-such-business" }],
      ["search_offerings", {}],
      ["search_offerings", { query: "quotes" }],
      ["search_offerings", { q: "quotes" }],
      ["get_offering", { slug: "no-such-offering" }],
    ];
    for (const [name, args] of calls) {
      const modernResult = resultOf(await send(modern("tools/call", { name, arguments: args })));
      const legacy = await legacyResult("tools/call", { name, arguments: args });
      assert.deepEqual(modernResult, { resultType: "complete", _meta: serverMeta(), ...legacy }, `${name} ${JSON.stringify(args)}`);
    }
  });

  test("a resource that does not exist is -32602 (Invalid Params) with its URI as data, answered with 200", async () => {
    const uri = `${server.baseUrl}/no-such.md`;
    const response = await send(modern("resources/read", { uri }));
    assertError(response, 200, {
      code: -32602,
      message: "Resource not found; call resources/list for the URIs this server offers.",
      data: { uri },
    });
  });

  test("an unknown tool is -32602, answered with 200", async () => {
    const response = await send(modern("tools/call", { name: "book_job", arguments: {} }));
    assertError(response, 200, {
      code: -32602,
      message: "Tool 'book_job' does not exist; call tools/list for the tools this server offers.",
    });
  });
});

describe("methods", () => {
  test("a method 2026-07-28 does not have, ping and initialize included, is 404 with -32601", async () => {
    for (const method of ["prompts/list", "ping", "initialize", "logging/setLevel", "resources/subscribe", "tasks/list"]) {
      assertError(await send(modern(method)), 404, { code: -32601, message: "Method not found" });
    }
  });

  test("a notification is accepted with 202 and no body", async () => {
    const response = await post(
      server,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: META } },
      { "mcp-protocol-version": MODERN_VERSION, "mcp-method": "notifications/cancelled" },
    );
    assert.equal(response.status, 202);
    assert.equal(response.body, "");
  });
});

describe("protocol version", () => {
  test("a version no era serves is 400 with -32022, the request's id, and every version served", async () => {
    for (const version of ["2027-01-01", "2024-11-05", "draft", "2026-07-28, 2026-07-28"]) {
      const request = modern("tools/list", {}, { "mcp-protocol-version": version });
      const body = request.body as { params: { _meta: Record<string, unknown> } };
      body.params._meta = { ...META, "io.modelcontextprotocol/protocolVersion": version };
      assertError(await send(request), 400, {
        code: -32022,
        message: "Unsupported protocol version",
        data: { supported: ALL_VERSIONS, requested: version },
      });
    }
  });

  test("a header that disagrees with _meta's version is 400 with -32020, in either direction", async () => {
    const older = modern("tools/list", {}, { "mcp-protocol-version": "2025-11-25" });
    assertError(
      await send(older),
      400,
      mismatch('the MCP-Protocol-Version header does not match params._meta["io.modelcontextprotocol/protocolVersion"].'),
    );
    const request = modern("tools/list");
    (request.body as { params: { _meta: Record<string, unknown> } }).params._meta = {
      ...META,
      "io.modelcontextprotocol/protocolVersion": "2025-11-25",
    };
    assertError(
      await send(request),
      400,
      mismatch('the MCP-Protocol-Version header does not match params._meta["io.modelcontextprotocol/protocolVersion"].'),
    );
  });

  test("a modern request without the MCP-Protocol-Version header is 400 with -32020", async () => {
    const request = modern("tools/list", {}, { "mcp-protocol-version": undefined });
    assertError(
      await send(request),
      400,
      mismatch('the MCP-Protocol-Version header is missing; it must repeat params._meta["io.modelcontextprotocol/protocolVersion"].'),
    );
  });

  test("a 2026-07-28 header without the required _meta fields is 400 with -32602", async () => {
    const metas: unknown[] = [
      undefined,
      {},
      { "io.modelcontextprotocol/protocolVersion": MODERN_VERSION },
      { "io.modelcontextprotocol/clientCapabilities": {} },
      { ...META, "io.modelcontextprotocol/clientCapabilities": "all" },
      { ...META, "io.modelcontextprotocol/protocolVersion": 20260728 },
      { ...META, "io.modelcontextprotocol/clientInfo": "raw-tests" },
      { ...META, "io.modelcontextprotocol/clientInfo": { name: "raw-tests" } },
    ];
    for (const meta of metas) {
      const request = modern("tools/list");
      (request.body as { params: Record<string, unknown> }).params = meta === undefined ? {} : { _meta: meta };
      assertError(await send(request), 400, MISSING_META);
    }
    const noParams = modern("server/discover");
    delete (noParams.body as { params?: unknown }).params;
    assertError(await send(noParams), 400, MISSING_META);
  });

  test("without clientInfo a request is served: it is optional", async () => {
    const request = modern("tools/list");
    const { "io.modelcontextprotocol/clientInfo": _, ...meta } = META;
    (request.body as { params: Record<string, unknown> }).params = { _meta: meta };
    assert.equal(resultOf(await send(request)).resultType, "complete");
  });
});

describe("headers that mirror the body", () => {
  test("Mcp-Method must be present and name the body's method", async () => {
    assertError(
      await send(modern("tools/list", {}, { "mcp-method": undefined })),
      400,
      mismatch("the Mcp-Method header is missing; it must repeat the request's method."),
    );
    for (const method of ["tools/call", "TOOLS/LIST", "tools/list/"]) {
      assertError(
        await send(modern("tools/list", {}, { "mcp-method": method })),
        400,
        mismatch("the Mcp-Method header does not match the request's method."),
      );
    }
  });

  test("Mcp-Name must be present on tools/call and resources/read and repeat the name or URI", async () => {
    const call = { name: "search_offerings", arguments: {} };
    assertError(
      await send(modern("tools/call", call, { "mcp-name": undefined })),
      400,
      mismatch("the Mcp-Name header is missing; it must repeat params.name."),
    );
    assertError(
      await send(modern("tools/call", call, { "mcp-name": "get_offering" })),
      400,
      mismatch("the Mcp-Name header does not match params.name."),
    );
    const uri = `${server.baseUrl}/llms.txt`;
    assertError(
      await send(modern("resources/read", { uri }, { "mcp-name": undefined })),
      400,
      mismatch("the Mcp-Name header is missing; it must repeat params.uri."),
    );
    assertError(
      await send(modern("resources/read", { uri }, { "mcp-name": `${server.baseUrl}/llms-full.txt` })),
      400,
      mismatch("the Mcp-Name header does not match params.uri."),
    );
  });

  test("Mcp-Name in the Base64 sentinel form is decoded before it is compared", async () => {
    const encode = (text: string) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`;
    const call = { name: "search_offerings", arguments: {} };
    assert.equal(resultOf(await send(modern("tools/call", call, { "mcp-name": encode("search_offerings") }))).resultType, "complete");
    assertError(
      await send(modern("tools/call", call, { "mcp-name": encode("get_offering") })),
      400,
      mismatch("the Mcp-Name header does not match params.name."),
    );
    // A name outside plain ASCII reaches the tool lookup only when the header carries it encoded.
    const odd = { name: "réserver", arguments: {} };
    assertError(await send(modern("tools/call", odd, { "mcp-name": encode("réserver") })), 200, {
      code: -32602,
      message: "Tool with an unsupported name does not exist; call tools/list for the tools this server offers.",
    });
    for (const malformed of ["=?base64?not base64!?=", `=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=`]) {
      assertError(
        await send(modern("tools/call", call, { "mcp-name": malformed })),
        400,
        mismatch("the Mcp-Name header is malformed: plain ASCII, or =?base64?…?= for other text."),
      );
    }
  });

  test("Mcp-Session-Id and Last-Event-ID are ignored, and no session id is minted", async () => {
    const plain = await send(modern("tools/list"));
    const withSession = await send(modern("tools/list", {}, { "mcp-session-id": "a-session", "last-event-id": "7" }));
    assert.equal(withSession.status, 200);
    assert.equal(withSession.body, plain.body);
    assert.equal(withSession.headers["mcp-session-id"], undefined);
  });
});

describe("interface §6 transport rules in the 2026-07-28 era", () => {
  const headers = (extra: Record<string, string | undefined> = {}) =>
    postHeaders(server, { "mcp-protocol-version": MODERN_VERSION, "mcp-method": "tools/list", ...extra });
  const body = JSON.stringify(modern("tools/list").body);

  test("a foreign Host or Origin is 403; BASE_URL's and configured origins are served", async () => {
    assert.equal((await raw(server, "POST", headers({ host: "evil.example" }), body)).status, 403);
    assert.equal((await raw(server, "POST", headers({ origin: "https://evil.example" }), body)).status, 403);
    assert.equal((await raw(server, "POST", headers({ origin: "https://app.example" }), body)).status, 200);
    assert.equal((await raw(server, "POST", headers({ origin: server.baseUrl }), body)).status, 200);
  });

  test("a message over 32 KiB is 413 with -32600 and id null", async () => {
    const padded = body + " ".repeat(32 * 1024 + 1 - Buffer.byteLength(body));
    const response = await raw(server, "POST", headers(), padded);
    assertError(response, 413, { code: -32600, message: "Payload Too Large: a message may be at most 32 KiB (32768 bytes)." }, null);
  });

  test("GET and DELETE are 405 with Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await raw(server, method, headers({ accept: "text/event-stream" }));
      assert.equal(response.status, 405);
      assert.equal(response.headers.allow, "POST");
    }
  });

  test("a batch of 2026-07-28 requests is 400 with -32600", async () => {
    const response = await raw(server, "POST", headers(), JSON.stringify([modern("tools/list").body, modern("tools/list").body]));
    assertError(
      response,
      400,
      { code: -32600, message: "Invalid Request: batches are not supported; send one JSON-RPC message per POST." },
      null,
    );
  });

  test("an Accept without text/event-stream is 406", async () => {
    assert.equal((await raw(server, "POST", headers({ accept: "application/json" }), body)).status, 406);
  });
});
