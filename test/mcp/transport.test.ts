import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { type McpTestServer, PROTOCOL_VERSIONS, post, postHeaders, type RawResponse, raw, rpcError, startMcpServer } from "./helpers.ts";

let server: McpTestServer;

before(async () => {
  server = await startMcpServer({ env: { MCP_ALLOWED_ORIGINS: "https://app.example", MCP_ALLOWED_HOSTS: "mcp.example" } });
});
after(async () => {
  await server.close();
});

const KIB = 1024;
const LIMIT = 32 * KIB;
const PING = { jsonrpc: "2.0", id: 1, method: "ping" };
const PONG = { jsonrpc: "2.0", id: 1, result: {} };
const JSON_TYPE = "application/json; charset=utf-8";

const TOO_LARGE = rpcError(-32600, "Payload Too Large: a message may be at most 32 KiB (32768 bytes).");
const FORBIDDEN_HOST = rpcError(-32000, "Forbidden: the Host header does not name this server.");
const FORBIDDEN_ORIGIN = rpcError(-32000, "Forbidden: requests from this Origin are not allowed.");
const NOT_ALLOWED = rpcError(
  -32000,
  "Method Not Allowed: POST each JSON-RPC message to /mcp; this server offers no GET event stream and no sessions to delete.",
);
const NOT_ACCEPTABLE = rpcError(-32000, "Not Acceptable: the Accept header must list both application/json and text/event-stream.");
const UNSUPPORTED_TYPE = rpcError(-32000, "Unsupported Media Type: Content-Type must be application/json.");
/** 2026-07-28's UnsupportedProtocolVersionError, answered in both eras: it lists every version served. */
const unsupportedVersion = (id: number | null, requested: string) => ({
  jsonrpc: "2.0",
  id,
  error: {
    code: -32022,
    message: "Unsupported protocol version",
    data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested },
  },
});
const PARSE_ERROR = rpcError(-32700, "Parse error: the body is not valid JSON.");
const BATCH = rpcError(-32600, "Invalid Request: batches are not supported; send one JSON-RPC message per POST.");
const NOT_JSON_RPC = rpcError(-32600, "Invalid Request: the body is not a JSON-RPC 2.0 message.");

function assertJson(response: RawResponse, status: number, body: unknown): void {
  assert.equal(response.status, status, response.body);
  assert.equal(response.headers["content-type"], JSON_TYPE);
  assert.deepEqual(JSON.parse(response.body), body);
}

/** A ping padded with spaces to exactly `bytes` bytes. */
function pingOfSize(bytes: number): string {
  const text = JSON.stringify(PING);
  return text + " ".repeat(bytes - Buffer.byteLength(text));
}

interface SocketExchange {
  /** Everything the server sent before it closed the connection. */
  response: string;
  /** Body bytes written before the server answered. */
  sent: number;
}

/**
 * Sends a request head, then body chunks one after another only while no answer has arrived,
 * and reads until the server closes the connection. A server that answers from the headers
 * (or stops at the limit) closes with most of the body never sent.
 */
function sendUntilAnswered(head: string, chunks: () => Iterator<Buffer>): Promise<SocketExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let response = "";
    let sent = 0;
    const body = chunks();
    const writeNext = () => {
      if (response !== "" || socket.destroyed) return;
      const next = body.next();
      if (next.done === true) return;
      sent += next.value.length;
      socket.write(next.value, () => setImmediate(writeNext));
    };
    socket.on("data", (data: Buffer) => {
      response += data.toString("utf8");
    });
    // Writing into a connection the server has closed fails; that is the expected end.
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    socket.on("close", () => resolve({ response, sent }));
    socket.write(head, writeNext);
  });
}

function* repeat(chunk: Buffer, times: number): Iterator<Buffer> {
  for (let i = 0; i < times; i += 1) yield chunk;
}

function head(lines: string[]): string {
  return `${lines.join("\r\n")}\r\n\r\n`;
}

function statusAndBody(response: string): { status: number; headers: string; body: unknown } {
  const [headers = "", body = ""] = response.split("\r\n\r\n");
  return { status: Number(headers.split(" ")[1]), headers: headers.toLowerCase(), body: JSON.parse(body) };
}

describe("methods", () => {
  test("answers GET, DELETE and PUT with 405, Allow: POST and a JSON-RPC error", async () => {
    for (const method of ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"]) {
      const response = await raw(server, method, postHeaders(server));
      assertJson(response, 405, NOT_ALLOWED);
      assert.equal(response.headers.allow, "POST");
    }
  });

  test("answers HEAD with 405 and Allow: POST, without a body", async () => {
    const response = await raw(server, "HEAD", postHeaders(server));
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, "POST");
    assert.equal(response.body, "");
  });

  test("does not open an event stream for GET with Accept: text/event-stream", async () => {
    const response = await raw(server, "GET", postHeaders(server, { accept: "text/event-stream", "content-type": undefined }));
    assertJson(response, 405, NOT_ALLOWED);
  });
});

describe("DNS-rebinding protection", () => {
  test("answers 403 when Host is not BASE_URL's host", async () => {
    for (const host of [
      "evil.example",
      `evil.example:${server.port}`,
      `localhost:${server.port + 1}`,
      `user@localhost:${server.port}`,
      "localhost",
    ]) {
      assertJson(await post(server, PING, { host }), 403, FORBIDDEN_HOST);
    }
  });

  test("accepts localhost, 127.0.0.1 and [::1] on BASE_URL's port, and hosts allowed by configuration", async () => {
    for (const host of [
      `localhost:${server.port}`,
      `LOCALHOST:${server.port}`,
      `127.0.0.1:${server.port}`,
      `[::1]:${server.port}`,
      "mcp.example",
    ]) {
      assertJson(await post(server, PING, { host }), 200, PONG);
    }
  });

  test("answers 403 when Origin is present and not BASE_URL's origin or an allowed one", async () => {
    for (const origin of [
      "https://evil.example",
      "null",
      `http://localhost:${server.port}.evil.example`,
      `https://localhost:${server.port}`,
      "https://app.example/path",
    ]) {
      assertJson(await post(server, PING, { origin }), 403, FORBIDDEN_ORIGIN);
    }
  });

  test("accepts BASE_URL's origin, its loopback equivalents and origins allowed by configuration", async () => {
    for (const origin of [
      `http://localhost:${server.port}`,
      `http://127.0.0.1:${server.port}`,
      `http://[::1]:${server.port}`,
      "https://app.example",
    ]) {
      assertJson(await post(server, PING, { origin }), 200, PONG);
    }
  });

  test("checks Host and Origin for GET too: 403 before 405", async () => {
    assertJson(await raw(server, "GET", postHeaders(server, { host: "evil.example" })), 403, FORBIDDEN_HOST);
    assertJson(await raw(server, "DELETE", postHeaders(server, { origin: "https://evil.example" })), 403, FORBIDDEN_ORIGIN);
  });

  test("answers a foreign Host with 403 without reading the body", async () => {
    const declared = 10 * 1024 * KIB;
    const { response, sent } = await sendUntilAnswered(
      head([
        "POST /mcp HTTP/1.1",
        "Host: evil.example",
        "Accept: application/json, text/event-stream",
        "Content-Type: application/json",
        `Content-Length: ${declared}`,
      ]),
      () => repeat(Buffer.alloc(16 * KIB, 0x20), declared / (16 * KIB)),
    );
    const answer = statusAndBody(response);
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, FORBIDDEN_HOST);
    assert.match(answer.headers, /\r\nconnection: close/);
    assert.ok(sent < declared, `sent ${sent} of ${declared} bytes`);
  });
});

describe("message size", () => {
  test("accepts a message of exactly 32 KiB", async () => {
    assertJson(await post(server, pingOfSize(LIMIT)), 200, PONG);
  });

  test("answers 413 with JSON-RPC -32600 for a 32 KiB + 1 byte message", async () => {
    assertJson(await post(server, pingOfSize(LIMIT + 1)), 413, TOO_LARGE);
  });

  test("answers 413 for a 32 KiB + 1 byte chunked message", async () => {
    const body = pingOfSize(LIMIT + 1);
    const { response } = await sendUntilAnswered(
      head([
        "POST /mcp HTTP/1.1",
        `Host: localhost:${server.port}`,
        "Accept: application/json, text/event-stream",
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
      ]),
      () => [Buffer.from(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`)][Symbol.iterator](),
    );
    const answer = statusAndBody(response);
    assert.equal(answer.status, 413);
    assert.deepEqual(answer.body, TOO_LARGE);
  });

  test("answers a 10 MiB message with 413 from its Content-Length, while the client is still sending", async () => {
    const declared = 10 * 1024 * KIB;
    const { response, sent } = await sendUntilAnswered(
      head([
        "POST /mcp HTTP/1.1",
        `Host: localhost:${server.port}`,
        "Accept: application/json, text/event-stream",
        "Content-Type: application/json",
        `Content-Length: ${declared}`,
      ]),
      () => repeat(Buffer.alloc(16 * KIB, 0x20), declared / (16 * KIB)),
    );
    const answer = statusAndBody(response);
    assert.equal(answer.status, 413);
    assert.deepEqual(answer.body, TOO_LARGE);
    assert.match(answer.headers, /\r\nconnection: close/);
    assert.ok(sent < declared, `sent ${sent} of ${declared} bytes`);
  });

  test("cuts a chunked 10 MiB message off with 413 after 32 KiB, while the client is still sending", async () => {
    const chunk = Buffer.from(`${(16 * KIB).toString(16)}\r\n${" ".repeat(16 * KIB)}\r\n`);
    const chunks = 640; // 10 MiB of body
    const { response, sent } = await sendUntilAnswered(
      head([
        "POST /mcp HTTP/1.1",
        `Host: localhost:${server.port}`,
        "Accept: application/json, text/event-stream",
        "Content-Type: application/json",
        "Transfer-Encoding: chunked",
      ]),
      () => repeat(chunk, chunks),
    );
    const answer = statusAndBody(response);
    assert.equal(answer.status, 413);
    assert.deepEqual(answer.body, TOO_LARGE);
    assert.match(answer.headers, /\r\nconnection: close/);
    assert.ok(sent < chunk.length * chunks, `sent ${sent} of ${chunk.length * chunks} bytes`);
  });
});

describe("headers", () => {
  test("answers 406 when Accept does not list both application/json and text/event-stream", async () => {
    for (const accept of [undefined, "application/json", "text/event-stream", "*/*", "application/json-seq, text/event-stream"]) {
      assertJson(await post(server, PING, { accept }), 406, NOT_ACCEPTABLE);
    }
  });

  test("answers 415 when Content-Type is not application/json", async () => {
    for (const contentType of [
      undefined,
      "text/plain",
      "application/json-patch+json",
      "text/plain; a=application/json",
      "application/json, text/plain",
    ]) {
      assertJson(await post(server, PING, { "content-type": contentType }), 415, UNSUPPORTED_TYPE);
    }
  });

  test("accepts Accept and Content-Type with parameters, in any order and case", async () => {
    const headers = { accept: "text/event-stream;q=0.9, Application/JSON", "content-type": "application/json; charset=utf-8" };
    assertJson(await post(server, PING, headers), 200, PONG);
  });

  test("answers 400 and -32022 with every version served for an unsupported MCP-Protocol-Version", async () => {
    for (const version of ["2024-11-05", "2024-10-07", "2026-01-01", "latest", "2025-06-18, 2025-06-18"]) {
      assertJson(await post(server, PING, { "mcp-protocol-version": version }), 400, unsupportedVersion(1, version));
      const notification = await post(server, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-protocol-version": version });
      assertJson(notification, 400, unsupportedVersion(null, version));
    }
  });

  test("accepts each supported MCP-Protocol-Version, and none", async () => {
    for (const version of [...PROTOCOL_VERSIONS, undefined]) {
      assertJson(await post(server, PING, { "mcp-protocol-version": version }), 200, PONG);
    }
  });
});

describe("messages", () => {
  test("answers malformed JSON with 400 and a JSON-RPC parse error", async () => {
    for (const body of ["{", "", "{'jsonrpc':'2.0'}", '{"jsonrpc":"2.0","id":1,"method":"ping"} trailing']) {
      assertJson(await post(server, body), 400, PARSE_ERROR);
    }
  });

  test("answers a batch with 400 and -32600: one message per POST", async () => {
    for (const body of [[], [PING], [PING, { ...PING, id: 2 }], [{ jsonrpc: "2.0", method: "notifications/initialized" }]]) {
      assertJson(await post(server, body), 400, BATCH);
    }
  });

  test("answers JSON that is no JSON-RPC message with 400 and -32600", async () => {
    const bodies = [
      {},
      null,
      42,
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: null, method: "ping" },
      { jsonrpc: "2.0", id: 1 },
      { ...PING, params: 5 },
    ];
    for (const body of [...bodies.map((value) => JSON.stringify(value)), '"ping"']) {
      assertJson(await post(server, body), 400, NOT_JSON_RPC);
    }
  });

  test("answers a notification, or a client's response, with 202 and no body", async () => {
    for (const body of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { jsonrpc: "2.0", method: "notifications/unknown" },
      { jsonrpc: "2.0", id: 7, result: {} },
    ]) {
      const response = await post(server, body);
      assert.equal(response.status, 202);
      assert.equal(response.body, "");
      assert.equal(response.headers["content-type"], undefined);
    }
  });

  test("answers an unknown method with -32601 for its id", async () => {
    const response = await post(server, { jsonrpc: "2.0", id: "a", method: "prompts/list" });
    assertJson(response, 200, { jsonrpc: "2.0", id: "a", error: { code: -32601, message: "Method not found" } });
  });

  test("answers an unknown tool name with -32602, not an isError result", async () => {
    const response = await post(server, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "book_job", arguments: {} } });
    assertJson(response, 200, {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32602, message: "Tool 'book_job' does not exist; call tools/list for the tools this server offers." },
    });
    const odd = await post(server, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "<script>alert(1)</script>" } });
    assertJson(odd, 200, {
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32602, message: "Tool with an unsupported name does not exist; call tools/list for the tools this server offers." },
    });
  });

  test("answers invalid params of every method with -32602, never an internal error", async () => {
    const cases: [string, unknown, string][] = [
      ["initialize", {}, "Invalid params for initialize; see the MCP specification for its parameters."],
      [
        "initialize",
        { protocolVersion: 5, capabilities: {}, clientInfo: { name: "x", version: "1" } },
        "Invalid params for initialize; see the MCP specification for its parameters.",
      ],
      ["tools/list", { cursor: 5 }, "Invalid params for tools/list; see the MCP specification for its parameters."],
      ["resources/list", { cursor: [] }, "Invalid params for resources/list; see the MCP specification for its parameters."],
      ["resources/read", {}, "Invalid params for resources/read; see the MCP specification for its parameters."],
      ["resources/read", { uri: 1 }, "Invalid params for resources/read; see the MCP specification for its parameters."],
    ];
    for (const [method, params, message] of cases) {
      assertJson(await post(server, { jsonrpc: "2.0", id: 9, method, params }), 200, {
        jsonrpc: "2.0",
        id: 9,
        error: { code: -32602, message },
      });
    }
    for (const params of [
      {},
      { name: 5 },
      { name: "search_businesses", arguments: "q=plumb" },
      { name: "search_businesses", arguments: [] },
    ]) {
      const response = await post(server, { jsonrpc: "2.0", id: 10, method: "tools/call", params });
      assert.equal(response.status, 200);
      const body = JSON.parse(response.body) as { id: number; error: { code: number; message: string } };
      assert.equal(body.id, 10);
      assert.equal(body.error.code, -32602);
      assert.match(body.error.message, /Invalid tools\/call request/);
    }
  });

  test("answers deeply nested or huge-number arguments with an isError result, not a crash", async () => {
    const nested = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const message = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_businesses","arguments":{"q":${nested}}}}`;
    const response = await post(server, message);
    assert.equal(response.status, 200);
    const body = JSON.parse(response.body) as { result: { isError: boolean; structuredContent: { error: { code: string } } } };
    assert.equal(body.result.isError, true);
    assert.equal(body.result.structuredContent.error.code, "invalid_parameter");
    const huge = await post(server, {
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { name: "search_businesses", arguments: { offset: 1e300 } },
    });
    assert.equal((JSON.parse(huge.body) as { result: { isError: boolean } }).result.isError, true);
  });

  test("answers initialize with an unsupported protocol version with the latest supported one", async () => {
    const response = await post(server, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    assert.equal(response.status, 200);
    assert.equal((JSON.parse(response.body) as { result: { protocolVersion: string } }).result.protocolVersion, "2025-11-25");
  });

  test("answers a JSON response with Content-Type application/json and no session id", async () => {
    const response = await post(server, PING);
    assertJson(response, 200, PONG);
    assert.equal(response.headers["mcp-session-id"], undefined);
  });
});

describe("scope", () => {
  test("REST routes keep their own Error bodies beside /mcp", async () => {
    const response = await raw(server, "POST", postHeaders(server), JSON.stringify(PING));
    assert.equal(response.status, 200);
    const rest = await fetch(`${server.url}/api/directory`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    assert.equal(rest.status, 405);
    const body = (await rest.json()) as { error: { code: string } };
    assert.equal(body.error.code, "method_not_allowed");
    const invalid = await fetch(`${server.url}/api/directory?limit=0`);
    assert.equal(invalid.status, 400);
    assert.equal(((await invalid.json()) as { error: { code: string } }).error.code, "invalid_parameter");
  });
});
