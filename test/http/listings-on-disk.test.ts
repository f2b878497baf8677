import assert from "node:assert/strict";
import { readdirSync, readlinkSync, utimesSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { FastifyInstance } from "fastify";
import { buildApplication } from "../../src/application.ts";
import { readConfig } from "../../src/config.ts";
import { SNAPSHOT_FILES } from "../../src/snapshot/files.ts";
import { LiveSnapshot } from "../../src/snapshot/reload.ts";
import { type LogLine, LogLines } from "../helpers/logs.ts";
import { type RunningServer, stableHeaders, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { connectClient, type McpTestServer, rest, startMcpServer } from "../mcp/helpers.ts";

/** LISTINGS_IN_MEMORY_MB=0: businesses.ndjson is read from disk per request, whatever its size. */
const ON_DISK = { LISTINGS_IN_MEMORY_MB: "0" };

describe("a replica reading its listings from disk answers as one holding them in memory", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let held: RunningServer;
  let onDisk: RunningServer;
  before(async () => {
    work = await tempDir();
    const dist = join(work.path, "dist");
    await buildSnapshot(`${FIXTURES}basic`, dist);
    held = await startServer(dist, { CACHE_SECONDS: "0" });
    onDisk = await startServer(dist, { ...ON_DISK, CACHE_SECONDS: "0" });
  });
  after(async () => {
    await held.close();
    await onDisk.close();
    await work.remove();
  });

  test("it holds no copy of the listings' bytes, and the other does", () => {
    assert.equal(onDisk.snapshot.directory?.listings.bytes, null);
    assert.ok(Buffer.isBuffer(held.snapshot.directory?.listings.bytes));
  });

  const requests: [method: string, path: string, headers?: Record<string, string>][] = [
    ["GET", "/api/directory"],
    ["GET", "/api/directory?q=plumb"],
    ["GET", "/api/directory?country=IE&limit=1&offset=1"],
    ["GET", "/api/directory/obrien-sons-plumbing"],
    ["GET", "/api/directory/0B3A6F8E-1C2D-4E5F-8A9B-0C1D2E3F4A01"],
    ["GET", "/api/directory/no-such-business"],
    ["GET", "/businesses/obrien-sons-plumbing"],
    ["GET", "/businesses/obrien-sons-plumbing/index.md"],
    ["GET", "/businesses?q=garden"],
    ["GET", "/businesses/index.md?q=plumb"],
    ["GET", "/data/businesses.ndjson"],
    ["HEAD", "/data/businesses.ndjson"],
    ["GET", "/data/businesses.json"],
    ["HEAD", "/data/businesses.json"],
  ];
  for (const [method, path, headers] of requests) {
    test(`${method} ${path}: the same status, headers and bytes`, async () => {
      const [a, b] = await Promise.all([held, onDisk].map((server) => fetch(`${server.url}${path}`, { method, headers })));
      assert.ok(a !== undefined && b !== undefined);
      assert.deepEqual({ status: b.status, headers: stableHeaders(b) }, { status: a.status, headers: stableHeaders(a) });
      assert.deepEqual(Buffer.from(await b.arrayBuffer()), Buffer.from(await a.arrayBuffer()));
    });
  }

  for (const path of ["/data/businesses.ndjson", "/data/businesses.json"]) {
    test(`GET ${path} with its ETag answers 304 without a body, as the file held in memory does`, async () => {
      const tag = (await fetch(`${onDisk.url}${path}`, { method: "HEAD" })).headers.get("etag") ?? "";
      const [a, b] = await Promise.all(
        [held, onDisk].map((server) => fetch(`${server.url}${path}`, { headers: { "if-none-match": tag } })),
      );
      assert.ok(a !== undefined && b !== undefined);
      assert.deepEqual(
        { status: b.status, headers: stableHeaders(b), body: await b.text() },
        { status: 304, headers: stableHeaders(a), body: "" },
      );
    });
  }

  for (const path of ["/data/businesses.ndjson", "/data/businesses.json"]) {
    test(`HEAD ${path} with its ETag answers 304 with the length GET sends, as the file held in memory does`, async () => {
      const tag = (await fetch(`${onDisk.url}${path}`, { method: "HEAD" })).headers.get("etag") ?? "";
      const length = (await (await fetch(`${onDisk.url}${path}`)).arrayBuffer()).byteLength;
      const [a, b] = await Promise.all(
        [held, onDisk].map((server) => fetch(`${server.url}${path}`, { method: "HEAD", headers: { "if-none-match": tag } })),
      );
      assert.ok(a !== undefined && b !== undefined);
      assert.deepEqual({ status: b.status, headers: stableHeaders(b) }, { status: 304, headers: stableHeaders(a) });
      assert.equal(b.headers.get("content-length"), String(length));
    });
  }

  test("HEAD of a bulk file gives the length GET sends, from memory or disk", async () => {
    for (const server of [held, onDisk]) {
      for (const path of ["/data/businesses.ndjson", "/data/businesses.json"]) {
        const head = await fetch(`${server.url}${path}`, { method: "HEAD" });
        const get = await fetch(`${server.url}${path}`);
        const length = (await get.arrayBuffer()).byteLength;
        assert.deepEqual([head.headers.get("content-length"), get.headers.get("content-length")], [String(length), String(length)], path);
      }
    }
  });

  test("the bulk NDJSON file is the snapshot's file, byte for byte", async () => {
    const file = await readFile(join(work.path, "dist", SNAPSHOT_FILES.businessesNdjson));
    const response = await fetch(`${onDisk.url}/data/businesses.ndjson`);
    assert.equal(response.headers.get("content-length"), String(file.length));
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), file);
  });
});

describe("MCP on a replica reading its listings from disk", () => {
  let server: McpTestServer;
  let client: Client;
  before(async () => {
    server = await startMcpServer({ env: ON_DISK });
    ({ client } = await connectClient(server, "2025-11-25"));
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  test("search_businesses and get_business answer what REST answers", async () => {
    for (const [name, args, path] of [
      ["search_businesses", { q: "plumb" }, "/api/directory?q=plumb"],
      ["search_businesses", { country: "IE", limit: 1, offset: 1 }, "/api/directory?country=IE&limit=1&offset=1"],
      ["get_business", { identifier: "obrien-sons-plumbing" }, "/api/directory/obrien-sons-plumbing"],
    ] as const) {
      const expected = await rest(server, path);
      assert.equal(expected.status, 200);
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, expected.body);
    }
  });
});

describe("a replica reading its listings from disk, when businesses.ndjson is changed in place", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let server: RunningServer;
  before(async () => {
    work = await tempDir();
    const dist = join(work.path, "dist");
    await buildSnapshot(`${FIXTURES}basic`, dist);
    server = await startServer(dist, { ...ON_DISK, CACHE_SECONDS: "0" });
    // Not as a build replaces dist/ (a new folder swapped in), but over the loaded file itself.
    const path = join(dist, SNAPSHOT_FILES.businessesNdjson);
    const text = (await readFile(path, "utf8"))
      // A slug changed.
      .replace('"slug":"obrien-sons-plumbing"', '"slug":"obrien-sons-plumbinh"')
      // A name one letter longer (the last listing but one): the line no longer ends where it did.
      .replace('"name":"Leeds Plumbing & Heating"', '"name":"Leeds Plumbing & Heating!"')
      // The same length, but no longer JSON.
      .replace('"name":"apex Electrical"', '"name" "apex Electrical"');
    assert.equal(text.length, (await readFile(path, "utf8")).length + 1);
    await writeFile(path, text);
  });
  after(async () => {
    await server.close();
    await work.remove();
  });

  for (const path of ["/api/directory/obrien-sons-plumbing", "/api/directory?q=obrien", "/api/directory/leeds-plumbing-heating"]) {
    test(`GET ${path} answers 503 directory_unavailable rather than the changed bytes`, async () => {
      const response = await fetch(`${server.url}${path}`);
      assert.deepEqual(
        { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() },
        {
          status: 503,
          retryAfter: "30",
          body: {
            error: {
              code: "directory_unavailable",
              message: "The directory data is unavailable right now. This is not an empty result.",
              resolution: "Wait 30 seconds and retry; the offerings catalog still works meanwhile.",
            },
          },
        },
      );
    });
  }

  for (const slug of ["obrien-sons-plumbing", "apex-electrical"]) {
    test(`the page of ${slug} answers 503 too, in HTML and in Markdown`, async () => {
      for (const path of [`/businesses/${slug}`, `/businesses/${slug}/index.md`]) {
        const response = await fetch(`${server.url}${path}`);
        assert.equal(response.status, 503, path);
        assert.doesNotMatch(await response.text(), /obrien-sons-plumbinh|"name" "/);
      }
    });
  }

  for (const path of ["/data/businesses.ndjson", "/data/businesses.json"]) {
    test(`GET ${path} answers 503 before sending anything, the file no longer its loaded length`, async () => {
      const response = await fetch(`${server.url}${path}`);
      assert.deepEqual(
        { status: response.status, etag: response.headers.get("etag"), type: response.headers.get("content-type") },
        { status: 503, etag: null, type: "text/html; charset=utf-8" },
      );
      await response.arrayBuffer();
    });
  }
});

describe("a replica reading its listings from disk, when a rebuild replaces its snapshot", () => {
  let work: Awaited<ReturnType<typeof tempDir>>;
  let dist = "";
  let live: LiveSnapshot;
  let app: FastifyInstance;
  let url = "";
  /** The app's log, at debug level: it says when a bulk download lets go of the listings file. */
  const logs = new LogLines();
  before(async () => {
    work = await tempDir();
    dist = join(work.path, "dist");
    await buildSnapshot(`${FIXTURES}basic`, dist);
    const config = readConfig({ BASE_URL: TEST_BASE_URL, CACHE_SECONDS: "0", RATE_LIMIT_MAX: "0", ...ON_DISK, DIST_DIR: dist });
    live = await LiveSnapshot.open(dist, { listingsInMemoryBytes: config.listingsInMemoryBytes });
    app = await buildApplication({
      served: live,
      config,
      logger: { level: "debug", stream: { write: (line: string) => logs.write(line) } },
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const address = app.server.address();
    assert.ok(address !== null && typeof address !== "string");
    url = `http://127.0.0.1:${address.port}`;
  });
  after(async () => {
    await app.close();
    await work.remove();
  });

  /** The file of the snapshot served now. */
  const servedFile = () => {
    const file = live.current()?.snapshot.directory?.listings.file;
    assert.ok(file !== undefined && file !== null);
    return file;
  };

  test("each bulk answer lets go of the file once sent: whole, as a HEAD, as a 304, or cut off by its client", async () => {
    const file = servedFile();
    const released = (line: LogLine) => line.msg === "bulk download closed; the listings file is no longer held for it";
    const earlier = logs.lines.filter(released).length;
    for (const path of ["/data/businesses.ndjson", "/data/businesses.json"]) {
      const whole = await fetch(`${url}${path}`);
      await whole.arrayBuffer();
      const tag = whole.headers.get("etag") ?? "";
      assert.equal((await fetch(`${url}${path}`, { method: "HEAD" })).status, 200);
      assert.equal((await fetch(`${url}${path}`, { headers: { "if-none-match": tag } })).status, 304);
      const controller = new AbortController();
      const cut = await fetch(`${url}${path}`, { signal: controller.signal });
      controller.abort();
      await cut.arrayBuffer().catch(() => {});
    }
    // A stream lets go when it closes: after its last bytes are sent, or once the server sees
    // the client gone. Four answers for each of the two files.
    await logs.waitFor("of each bulk answer letting go", released, { count: earlier + 8 });
    assert.deepEqual({ streams: file.streams, closed: file.closed }, { streams: 0, closed: false });
  });

  /** The descriptors this process holds on a businesses.ndjson of this test's dist/ (Linux: /proc/self/fd). */
  const openListingFiles = () =>
    readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return (
          readlinkSync(`/proc/self/fd/${fd}`).startsWith(work.path) && readlinkSync(`/proc/self/fd/${fd}`).includes("businesses.ndjson")
        );
      } catch {
        return false;
      }
    }).length;

  test("a snapshot loaded from a dist/ that was replaced again while it loaded is not served, and its file is not kept open", async () => {
    const manifest = join(dist, SNAPSHOT_FILES.manifest);
    const served = live.current();
    await buildSnapshot(`${FIXTURES}basic`, dist);
    // The second replacement lands once the check has seen the first and starts loading it: the
    // manifest's mtime set, synchronously, before the load reads a file, to a time no build
    // writes (1 s after 1970), so its identity surely differs from the one the check saw.
    live.once("loading", () => utimesSync(manifest, 1, 1));
    await live.check();
    assert.equal(live.current(), served);
    assert.equal(openListingFiles(), 1);
    // The next check takes the snapshot now in dist/.
    await live.check();
    assert.notEqual(live.current(), served);
    assert.equal(openListingFiles(), 1);
  });

  test("a check asked while one loads looks again once it ends: told of a build that replaced dist/ mid-load, it serves that build", async () => {
    const manifest = join(dist, SNAPSHOT_FILES.manifest);
    const served = live.current();
    await buildSnapshot(`${FIXTURES}basic`, dist);
    // As above, dist/ is replaced once the load has started; and the server is told of it then (npm run dev's message).
    live.once("loading", () => {
      utimesSync(manifest, 2, 2);
      void live.check();
    });
    await live.check();
    assert.notEqual(live.current(), served);
    assert.equal(openListingFiles(), 1);
  });

  test("a rebuild closes the replaced snapshot's file at once, and the new snapshot answers from its own", async () => {
    const replaced = live.current();
    const file = servedFile();
    // The same content: the build still swaps a new dist/ in, with a new manifest.
    await buildSnapshot(`${FIXTURES}basic`, dist);
    await live.check();
    assert.notEqual(live.current(), replaced);
    assert.equal(file.closed, true);
    assert.equal(servedFile().closed, false);
    const profile = await fetch(`${url}/api/directory/obrien-sons-plumbing`);
    assert.equal(profile.status, 200);
    assert.equal(((await profile.json()) as { slug: string }).slug, "obrien-sons-plumbing");
    const bulk = await fetch(`${url}/data/businesses.ndjson`);
    assert.deepEqual(Buffer.from(await bulk.arrayBuffer()), await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson)));
  });
});
