import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { BULK_JSON_PATH } from "../../src/contract.ts";
import { SNAPSHOT_BUILT_MESSAGE } from "../../src/snapshot/reload.ts";
import { anySnapshotServed, isStopListening, type LogLine } from "../helpers/logs.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, replaceListings, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/**
 * The real server process (src/server.ts) over its life: picking up rebuilt snapshots while it
 * answers (contract §3), refusing bad ones, and stopping gracefully. Every server listens on
 * 127.0.0.1, and every wait is for something the server says in its log.
 */

/**
 * How soon a rebuilt snapshot must be served (contract §3: about a second after the swap, plus
 * its load). A clock is part of the behaviour here: the wait for the server's line fails after it.
 */
const RELOAD_LIMIT_MS = 5000;

async function json(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

async function names(url: string, q: string): Promise<string[]> {
  const { body } = await json(`${url}/api/directory?q=${q}&limit=25`);
  return (body as { items: { name: string }[] }).items.map((item) => item.name);
}

/** A promise and what resolves it: a moment for a test to await, reached by a listener. */
function moment(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The line src/snapshot/reload.ts writes once `version` is served in place of `previous`. */
function served(version: string, builtAt: string, previous: string): (line: LogLine) => boolean {
  return (line) => line.level === 30 && line.msg === `snapshot ${version} (built ${builtAt}) now served, replacing ${previous}`;
}

const NEW_LISTING = `---
id: 7d0c2a51-93a4-4c47-9d61-4f0e0a5b7c11
name: "Zebedee Reload Plumbing"
service: Plumbing
category: Plumbing & heating
location:
  city: Leeds
  region: West Yorkshire
  postalCode: "LS1 4AP"
  country: GB
quoteUrl: https://fixture.example/quotes/new?business=zebedee-reload-plumbing
status: approved
---
A listing added while the server runs.
`;

describe("a running server: its request log and live snapshot reload", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let dist: string;
  let server: ServerProcess;

  before(async () => {
    work = await tempDir("lifecycle-");
    content = join(work.path, "content");
    dist = join(work.path, "dist");
    await cp(`${FIXTURES}basic`, content, { recursive: true });
    await buildSnapshot(content, dist);
    server = await startServerProcess(dist, { CACHE_SECONDS: "60" });
  });
  after(async () => {
    await stopServerProcess(server);
    await work.remove();
  });

  test("each request is logged as one JSON line with its id, method, route, status and duration, and no query text", async () => {
    const response = await fetch(`${server.url}/api/directory/24-7-locksmiths?secretword=1`);
    await response.arrayBuffer();
    const [line] = await server.logs.waitFor(
      "of the request",
      (entry) => entry.msg === "request" && entry.route === "/api/directory/:identifier",
    );
    assert.deepEqual(
      {
        method: line?.method,
        route: line?.route,
        status: line?.status,
        hasId: typeof line?.reqId === "string",
        hasMs: typeof line?.ms === "number",
      },
      { method: "GET", route: "/api/directory/:identifier", status: 400, hasId: true, hasMs: true },
    );
    assert.ok(
      !server.logs.lines.some((entry) => JSON.stringify(entry).includes("secretword") || JSON.stringify(entry).includes("locksmiths")),
    );
  });

  test("a rebuilt snapshot is served within 5 seconds, and no request fails during the swap", async () => {
    assert.deepEqual(await names(server.url, "zebedee"), []);
    const before = (await json(`${server.url}/readyz`)).body as { version: string };

    // Steady load on the directory, the catalog and a page while the build swaps dist/: every loop
    // has a request answered that it sent before the new snapshot is written, and one it sent
    // after the server said it serves it; then the loops stop.
    let running = true;
    let phase: "before" | "swap" | "after" = "before";
    const statuses = new Map<number, number>();
    const loop = (path: string) => {
      const answered = { before: moment(), after: moment() };
      const done = (async () => {
        while (running) {
          const sentIn = phase;
          const status = await fetch(`${server.url}${path}`).then(
            async (response) => {
              await response.arrayBuffer();
              return response.status;
            },
            () => -1,
          );
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (sentIn !== "swap") answered[sentIn].resolve();
        }
      })();
      return { answered, done };
    };
    const loops = ["/api/directory?q=plumb", "/api/offerings", "/businesses/joes-handyman", "/api/directory?q=zebedee"].flatMap((path) => [
      loop(path),
      loop(path),
    ]);

    let reload: LogLine | undefined;
    try {
      await Promise.all(loops.map(({ answered }) => answered.before.promise));
      phase = "swap";
      await writeFile(join(content, "businesses", "gb", "zebedee-reload-plumbing.md"), NEW_LISTING);
      await buildSnapshot(content, dist);
      [reload] = await server.logs.waitFor("saying a new snapshot is served", anySnapshotServed, { timeoutMs: RELOAD_LIMIT_MS });
      phase = "after";
      await Promise.all(loops.map(({ answered }) => answered.after.promise));
    } finally {
      running = false;
      await Promise.all(loops.map(({ done }) => done));
    }

    const after = (await json(`${server.url}/readyz`)).body as { version: string; builtAt: string; directory: string };
    assert.notEqual(after.version, before.version);
    assert.equal(after.directory, "available");
    assert.equal(reload?.msg, `snapshot ${after.version} (built ${after.builtAt}) now served, replacing ${before.version}`);
    // The 60 s result cache held the empty answer for q=zebedee; the new snapshot replaced it.
    assert.deepEqual(await names(server.url, "zebedee"), ["Zebedee Reload Plumbing"]);
    assert.deepEqual([...statuses.keys()], [200], `statuses: ${JSON.stringify([...statuses])}`);
  });

  test("a snapshot with invalid directory data is rejected with an error log line, and the last good one keeps serving", async () => {
    const before = (await json(`${server.url}/readyz`)).body as { version: string };
    const plumbers = ["Leeds Plumbing & Heating", "O'Brien & Sons Plumbing", "Zebedee Reload Plumbing"];
    assert.deepEqual(await names(server.url, "plumb"), plumbers);

    await replaceListings(dist, '{"not":"a listing"}\n');
    const [rejection] = await server.logs.waitFor(
      "rejecting the snapshot",
      (line) => line.level === 50 && line.msg.includes("rejected, still serving"),
      { timeoutMs: RELOAD_LIMIT_MS },
    );

    assert.match(
      rejection?.msg ?? "",
      new RegExp(`^new snapshot \\w+ rejected, still serving ${before.version}: its directory is unusable: `),
    );
    assert.deepEqual(await names(server.url, "plumb"), plumbers);
    assert.equal(((await json(`${server.url}/readyz`)).body as { version: string }).version, before.version);
  });

  test("a snapshot whose listings are the served ones but for one bad line is rejected: only the lines served are not checked again", async () => {
    const served = server.logs.lines.filter(anySnapshotServed).length;
    await buildSnapshot(content, dist);
    await server.logs.waitFor("saying the rebuilt snapshot is served", anySnapshotServed, {
      count: served + 1,
      timeoutMs: RELOAD_LIMIT_MS,
    });
    const before = (await json(`${server.url}/readyz`)).body as { version: string };
    const lines = (await readFile(join(dist, "data", "businesses.ndjson"), "utf8")).split("\n");
    lines[1] = (lines[1] as string).replace('"name":', '"nom":');
    await replaceListings(dist, lines.join("\n"));
    const [rejection] = await server.logs.waitFor(
      "rejecting the snapshot with the bad line",
      (line) => line.level === 50 && line.msg.includes("listing 2 of businesses.ndjson does not match the PublicBusiness schema"),
      { timeoutMs: RELOAD_LIMIT_MS },
    );
    assert.match(
      rejection?.msg ?? "",
      new RegExp(`^new snapshot \\w+ rejected, still serving ${before.version}: its directory is unusable: `),
    );
    assert.equal(((await json(`${server.url}/readyz`)).body as { version: string }).version, before.version);
  });
});

describe("a server started on corrupt directory data", () => {
  let work: { path: string; remove: () => Promise<void> };
  let server: ServerProcess;

  before(async () => {
    work = await tempDir("lifecycle-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    await replaceListings(join(work.path, "dist"), "this is not JSON\n");
    server = await startServerProcess(join(work.path, "dist"));
  });
  after(async () => {
    await stopServerProcess(server);
    await work.remove();
  });

  test("answers 503 for the directory, then serves it within 5 seconds of a good build", async () => {
    assert.equal((await json(`${server.url}/api/directory?q=plumb`)).status, 503);
    const before = (await json(`${server.url}/readyz`)).body as { version: string; directory: string };
    assert.equal(before.directory, "unavailable");
    assert.ok(server.logs.lines.some((line) => line.level === 50 && line.msg.startsWith("directory unavailable")));

    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    await server.logs.waitFor("saying the good build is served", anySnapshotServed, { timeoutMs: RELOAD_LIMIT_MS });

    assert.equal((await json(`${server.url}/api/directory?q=plumb`)).status, 200);
    const after = (await json(`${server.url}/readyz`)).body as { version: string; builtAt: string; directory: string };
    assert.equal(after.directory, "available");
    assert.ok(server.logs.lines.some(served(after.version, after.builtAt, before.version)));
  });
});

/** The status, headers and body of one answer. */
function collect(response: IncomingMessage): Promise<{ status: number; length: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("error", reject);
    response.on("end", () =>
      resolve({ status: response.statusCode ?? 0, length: Number(response.headers["content-length"]), body: Buffer.concat(chunks) }),
    );
  });
}

/** An MCP call whose body is half sent: in flight until `sendRest`. */
function slowMcpCall(url: string, body: string): { sendRest: () => void; answer: Promise<{ status: number; body: Buffer }> } {
  const request = httpRequest({
    host: "127.0.0.1",
    port: new URL(url).port,
    path: "/mcp",
    method: "POST",
    setHost: false,
    headers: {
      host: new URL(TEST_BASE_URL).host,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": Buffer.byteLength(body),
    },
  });
  const answer = new Promise<IncomingMessage>((resolve, reject) => {
    request.on("response", resolve);
    request.on("error", reject);
  }).then(collect);
  request.write(body.slice(0, 20));
  return { sendRest: () => request.end(body.slice(20)), answer };
}

/**
 * A download of `path` that stops reading after its first bytes (`started`) until `readRest`:
 * the server cannot finish sending a body of megabytes meanwhile, so it is in flight for as long
 * as the test needs.
 */
function heldDownload(
  url: string,
  path: string,
): { started: Promise<void>; readRest: () => void; done: Promise<{ status: number; length: number; bytes: number }> } {
  const started = moment();
  const reading = moment();
  const done = new Promise<{ status: number; length: number; bytes: number }>((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: new URL(url).port, path }, (response) => {
      let bytes = 0;
      response.once("data", () => {
        response.pause();
        started.resolve();
        void reading.promise.then(() => response.resume());
      });
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, length: Number(response.headers["content-length"]), bytes }));
    });
    request.on("error", reject);
    request.end();
  });
  return { started: started.promise, readRest: reading.resolve, done };
}

/** Whether a new connection to `url` is refused. */
async function refused(url: string): Promise<boolean> {
  return fetch(`${url}/healthz`).then(
    async (response) => {
      await response.arrayBuffer();
      return false;
    },
    () => true,
  );
}

describe("a server started over IPC, as npm run dev starts it", () => {
  let work: { path: string; remove: () => Promise<void> };
  let server: ServerProcess;

  before(async () => {
    work = await tempDir("lifecycle-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    server = await startServerProcess(join(work.path, "dist"), {}, { ipc: true });
  });
  after(async () => {
    await stopServerProcess(server);
    await work.remove();
  });

  test("told that a snapshot was built, it looks for it at once and serves it; SIGTERM still stops it with exit code 0", async () => {
    const dist = join(work.path, "dist");
    const before = (await json(`${server.url}/readyz`)).body as { version: string };
    await buildSnapshot(`${FIXTURES}basic`, dist);
    const built = JSON.parse(await readFile(join(dist, "data", "manifest.json"), "utf8")) as { version: string; builtAt: string };
    server.child.send(SNAPSHOT_BUILT_MESSAGE);
    await server.logs.waitFor(
      "saying it looks now",
      (line) => line.level === 30 && line.msg === "told a snapshot was built; looking for it now",
    );
    await server.logs.waitFor("saying the build is served", served(built.version, built.builtAt, before.version));
    assert.equal(((await json(`${server.url}/readyz`)).body as { builtAt: string }).builtAt, built.builtAt);
    server.child.kill("SIGTERM");
    assert.equal(await server.exited, 0);
  });
});

describe("graceful shutdown", () => {
  let work: { path: string; remove: () => Promise<void> };

  before(async () => {
    work = await tempDir("lifecycle-");
    // Enough listings for a bulk download of about 7 MB: a client that stops reading holds the
    // server's answer in flight only once the connection's buffers (about 4 MB on loopback) are full.
    await generateContent(join(work.path, "content"), 10_000, 5);
    await buildSnapshot(join(work.path, "content"), join(work.path, "dist"));
  });
  after(async () => {
    await work.remove();
  });

  // SIGHUP too: a terminal that closes sends it.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    test(`on ${signal}, in-flight REST and MCP requests complete, new connections are refused, and the process exits 0`, async () => {
      const server = await startServerProcess(join(work.path, "dist"));
      try {
        const expected = (await json(`${server.url}/api/directory?q=plumb`)).body;
        const download = heldDownload(server.url, BULK_JSON_PATH);
        const mcp = slowMcpCall(
          server.url,
          JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "search_businesses", arguments: { q: "plumb" } } }),
        );
        await download.started;
        // The server has answered a later connection, so it has taken in the half-sent call's headers too.
        assert.equal(await refused(server.url), false);

        server.child.kill(signal);
        await server.logs.waitFor("saying it stopped listening", isStopListening);
        assert.equal(await refused(server.url), true);
        mcp.sendRest();
        const answer = await mcp.answer;
        download.readRest();
        const bulk = await download.done;
        const code = await server.exited;

        assert.equal(answer.status, 200);
        const rpc = JSON.parse(answer.body.toString("utf8")) as { id: number; result: { isError?: boolean; structuredContent: unknown } };
        assert.deepEqual(
          { id: rpc.id, isError: rpc.result.isError, items: rpc.result.structuredContent },
          { id: 7, isError: undefined, items: expected },
        );
        assert.deepEqual({ status: bulk.status, bytes: bulk.bytes }, { status: 200, bytes: bulk.length });
        // Both answers were still being sent when the server stopped listening: each is logged (as
        // it finishes) after that line.
        const lines = server.logs.lines;
        const finished = (route: string) => lines.findIndex((line) => line.msg === "request" && line.route === route);
        assert.deepEqual(
          [finished(BULK_JSON_PATH), finished("/mcp")].map((index) => index > lines.findIndex(isStopListening)),
          [true, true],
          `[download, MCP call] in flight at the stop; a download not in flight fitted whole (${bulk.length} bytes) in the connection's buffers`,
        );
        assert.equal(code, 0);
      } finally {
        await stopServerProcess(server);
      }
    });
  }
});

describe("WORKERS=2", () => {
  let work: { path: string; remove: () => Promise<void> };

  before(async () => {
    work = await tempDir("lifecycle-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
  });
  after(async () => {
    await work.remove();
  });

  test("two server processes share the port, each picks up a rebuild, and SIGTERM stops them all with exit code 0", async () => {
    const server = await startServerProcess(join(work.path, "dist"), { WORKERS: "2" });
    try {
      const listening = await server.logs.waitFor("of both workers listening", (line) => line.msg.startsWith("Server listening"), {
        count: 2,
      });
      const pids = new Set(listening.map((line) => line.pid));
      assert.equal(pids.size, 2);
      assert.ok(!pids.has(server.child.pid));
      assert.deepEqual(
        listening.map((line) => line.msg),
        Array(2).fill(`Server listening at ${server.url}`),
      );

      // The same content: a rebuild swaps in a new manifest file, which each worker loads.
      await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
      const reloaded = await server.logs.waitFor("of both workers serving the rebuild", anySnapshotServed, {
        count: 2,
        timeoutMs: RELOAD_LIMIT_MS,
      });
      assert.deepEqual(new Set(reloaded.map((line) => line.pid)), pids);

      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0);
    } finally {
      await stopServerProcess(server);
    }
  });

  test("SIGHUP to the supervising process alone stops every worker as SIGTERM does, with exit code 0", async () => {
    const server = await startServerProcess(join(work.path, "dist"), { WORKERS: "2" });
    try {
      const listening = await server.logs.waitFor("of both workers listening", (line) => line.msg.startsWith("Server listening"), {
        count: 2,
      });
      server.child.kill("SIGHUP");
      const closing = await server.logs.waitFor("of both workers closing", (line) => line.msg === "SIGTERM received, closing", {
        count: 2,
      });
      assert.deepEqual(new Set(closing.map((line) => line.pid)), new Set(listening.map((line) => line.pid)));
      assert.equal(await server.exited, 0);
    } finally {
      await stopServerProcess(server);
    }
  });
});
