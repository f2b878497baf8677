import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { BULK_JSON_PATH } from "../../src/contract.ts";
import { json, moment, RELOAD_LIMIT_MS } from "../helpers/lifecycle.ts";
import { anySnapshotServed, isStopListening } from "../helpers/logs.ts";
import { startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/**
 * The real server process (src/server.ts) stopping: gracefully on each signal, with requests and
 * downloads in flight, alone and with WORKERS=2. Every server listens on 127.0.0.1, and every
 * wait is for something the server says in its log.
 */

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

describe("the small fixture's snapshot", () => {
  let work: { path: string; remove: () => Promise<void> };

  before(async () => {
    work = await tempDir("lifecycle-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
  });
  after(async () => {
    await work.remove();
  });

  describe("a signal while stopping", () => {
    /** A server stopping on SIGINT with an MCP call in flight, whose body is half sent. */
    async function stoppingWithCall() {
      const server = await startServerProcess(join(work.path, "dist"));
      const body = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_offering", arguments: { slug: "x" } } };
      const call = slowMcpCall(server.url, JSON.stringify(body));
      const outcome = call.answer.then(
        ({ status }) => status,
        (error: NodeJS.ErrnoException) => error.code,
      );
      assert.equal(await refused(server.url), false);
      server.child.kill("SIGINT");
      await server.logs.waitFor("saying it stops", (line) => line.msg === "SIGINT received, closing");
      return { server, sendRest: call.sendRest, outcome };
    }

    // npm passes on to the process it runs the SIGINT that a terminal's Ctrl-C has sent it too.
    test("the same signal again is ignored: the request in flight completes and the process exits 0", async () => {
      const { server, sendRest, outcome } = await stoppingWithCall();
      try {
        server.child.kill("SIGINT");
        await server.logs.waitFor("saying it ignores the copy", (line) => line.msg === "SIGINT again while stopping: ignored");
        sendRest();
        assert.deepEqual({ call: await outcome, code: await server.exited }, { call: 200, code: 0 });
      } finally {
        await stopServerProcess(server);
      }
    });

    test("another signal exits at once with exit code 1, the request in flight unanswered", async () => {
      const { server, outcome } = await stoppingWithCall();
      try {
        server.child.kill("SIGTERM");
        assert.deepEqual(
          { code: await server.exited, last: server.logs.lines.at(-1)?.msg, call: await outcome },
          { code: 1, last: "SIGTERM while stopping; exiting now", call: "ECONNRESET" },
        );
      } finally {
        await stopServerProcess(server);
      }
    });
  });

  describe("WORKERS=2", () => {
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
});
