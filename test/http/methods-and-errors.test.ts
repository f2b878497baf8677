import assert from "node:assert/strict";
import { request } from "node:http";
import { describe, test } from "node:test";
import { serveContent, stableHeaders } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

const served = serveContent(`${FIXTURES}basic`);

const API_RESOURCES = [
  "/api/directory",
  "/api/directory/obrien-sons-plumbing",
  "/api/offerings",
  "/api/offerings/request-quotes",
  "/openapi.json",
];

const METHOD_NOT_ALLOWED = {
  error: {
    code: "method_not_allowed",
    message: "This method is not supported here: the interface is read-only. Use GET or HEAD.",
    resolution: "Send a GET or HEAD request; nothing can be created, changed or deleted through this interface.",
  },
};

describe("unsupported methods", () => {
  for (const path of API_RESOURCES) {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      test(`${method} ${path} answers 405 with Allow: GET, HEAD and an Error body`, async () => {
        const response = await fetch(`${served.current.url}${path}`, { method });
        assert.equal(response.status, 405);
        assert.equal(response.headers.get("allow"), "GET, HEAD");
        assert.equal(response.headers.get("cache-control"), "no-store");
        assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
        const body: unknown = await response.json();
        served.openapi.assertResponse(path, 405, body);
        assert.deepEqual(body, METHOD_NOT_ALLOWED);
      });
    }
  }

  test("a POST with a malformed JSON body still answers 405, not a parse error", async () => {
    const response = await fetch(`${served.current.url}/api/offerings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(response.status, 405);
    assert.deepEqual(await response.json(), METHOD_NOT_ALLOWED);
  });

  test("a POST with a body over the size limit still answers 405", async () => {
    const response = await fetch(`${served.current.url}/api/directory`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(100_000),
    });
    assert.equal(response.status, 405);
  });
});

const ENDPOINTS =
  "See /openapi.json for the endpoints: /api/directory, /api/directory/{identifier}, /api/facets, /api/changes, /api/offerings, /api/offerings/{slug} and POST /mcp.";

describe("unknown API paths", () => {
  for (const path of ["/api", "/api/nope", "/api/directory/a/b", "/api/offerings/a/b", "/api/v1/directory", "/mcp/nope"]) {
    test(`GET ${path} answers 404 not_found as JSON`, async () => {
      const response = await fetch(`${served.current.url}${path}`, { headers: { accept: "text/markdown" } });
      assert.equal(response.status, 404);
      assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(response.headers.get("cache-control"), "no-store");
      const body: unknown = await response.json();
      if (path.startsWith("/api")) served.openapi.assertResponse(path, 404, body);
      assert.deepEqual(body, { error: { code: "not_found", message: "There is no API endpoint at this path.", resolution: ENDPOINTS } });
    });
  }
});

describe("API paths never redirect: a trailing slash gets the JSON error of an unknown API path", () => {
  for (const [method, path] of [
    ["GET", "/api/"],
    ["GET", "/api/directory/"],
    ["HEAD", "/api/directory/"],
    ["GET", "/api/offerings/"],
    ["GET", "/api/facets/?q=plumb"],
    ["GET", "/api/directory/leeds-plumbing-heating/"],
    ["GET", "/mcp/"],
    ["POST", "/mcp/"],
    ["GET", "/mcp/server-card/"],
  ] as const) {
    test(`${method} ${path} answers 404 not_found as JSON, not 308`, async () => {
      const response = await fetch(`${served.current.url}${path}`, {
        method,
        redirect: "manual",
        headers: { accept: "text/html", "content-type": "application/json" },
        ...(method === "POST" ? { body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' } : {}),
      });
      assert.equal(response.status, 404);
      assert.equal(response.headers.get("location"), null);
      assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(response.headers.get("cache-control"), "no-store");
      if (method === "HEAD") return;
      assert.deepEqual(await response.json(), {
        error: {
          code: "not_found",
          message: "There is no API endpoint at this path: API paths never end in a slash.",
          resolution: `Remove the trailing slash. ${ENDPOINTS}`,
        },
      });
    });
  }

  test("a page still redirects its trailing slash with 308, the query kept", async () => {
    const response = await fetch(`${served.current.url}/businesses/?q=plumb`, { redirect: "manual" });
    assert.equal(response.status, 308);
    assert.equal(response.headers.get("location"), "/businesses?q=plumb");
  });
});

describe("HEAD", () => {
  for (const path of [
    ...API_RESOURCES,
    "/api/directory?q=plumb&limit=1",
    "/api/directory/nope",
    "/api/offerings/nope",
    "/api/directory?limit=0",
  ]) {
    test(`HEAD ${path} answers the same status and headers as GET, without a body`, async () => {
      const get = await fetch(`${served.current.url}${path}`);
      const getBody = await get.arrayBuffer();
      const head = await fetch(`${served.current.url}${path}`, { method: "HEAD" });
      assert.equal(head.status, get.status);
      assert.deepEqual(stableHeaders(head), stableHeaders(get));
      assert.equal(head.headers.get("content-length"), String(getBody.byteLength));
      assert.equal((await head.arrayBuffer()).byteLength, 0);
    });
  }
});

/** Sends a raw request line, so that paths and headers fetch would refuse or normalise reach the server. */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(served.current.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: "GET", headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("hostile input never crashes, fails with 500 or leaks internals", () => {
  const cases: [string, Record<string, string>, number][] = [
    ["/api/directory?q=%00", {}, 400],
    ["/api/directory?q=%ZZ%", {}, 400],
    ["/api/directory?q=%E0%A4%A", {}, 400],
    ["/api/directory?__proto__=1", {}, 400],
    ["/api/directory?constructor=x", {}, 400],
    ["/api/directory?toString=x&hasOwnProperty=y", {}, 400],
    ["/api/directory?=x", {}, 400],
    ["/api/directory?limit[]=1", {}, 400],
    ["/api/directory?limit=1e3", {}, 400],
    ["/api/directory?limit=-0", {}, 400],
    ["/api/directory/%2e%2e", {}, 400],
    ["/api/directory/%00", {}, 400],
    [`/api/directory/${"a".repeat(201)}`, {}, 400],
    [`/api/directory?q=${"a%20".repeat(1000)}`, {}, 400],
    [`/api/directory?q=${"a".repeat(20_000)}`, {}, 431],
    ["/api/offerings?q=%F0%9F%92%A9%20%3Cscript%3E", {}, 200],
    ["/api/offerings", { "if-none-match": 'garbage,,, W/ ,""*' }, 200],
    ["/api/offerings", { accept: "}{;;;q=x" }, 200],
    ["/api/offerings/%E2%80%AE", {}, 404],
  ];
  for (const [path, headers, status] of cases) {
    test(`GET ${path.slice(0, 60)} ${JSON.stringify(headers)} answers ${status}`, async () => {
      const response = await raw(path, headers);
      assert.equal(response.status, status, response.body);
      assert.doesNotMatch(response.body, /\bat .*\.(ts|js):\d+|\/work\/|node_modules|FST_|Error:/);
      const parsed = JSON.parse(response.body) as Record<string, unknown>;
      served.openapi.assertResponse(path, status, parsed);
    });
  }

  test("an unknown parameter whose name holds markup is not echoed", async () => {
    const response = await fetch(`${served.current.url}/api/directory?${encodeURIComponent("<script>alert(1)</script>")}=1`);
    assert.equal(response.status, 400);
    const body: unknown = await response.json();
    served.openapi.assertResponse("/api/directory", 400, body);
    assert.deepEqual(body, {
      error: {
        code: "unknown_parameter",
        message: "Parameter with an unsupported name is not supported here; accepted parameters: q, location, country, limit, offset.",
        resolution: "Remove the unknown parameter and send only the accepted ones.",
      },
    });
  });
});
