import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { generateContent } from "../../bench/generate.ts";
import { BULK_JSON_PATH } from "../../src/contract.ts";
import { freePort } from "../helpers/ports.ts";
import { buildSnapshot, FIXTURES, replaceListings, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/**
 * The real server process (src/server.ts) over its life: picking up rebuilt snapshots while it
 * answers (contract §3), refusing bad ones, and stopping gracefully. Every server listens on
 * 127.0.0.1 and every load loop stops by itself.
 */

const ROOT = new URL("../../", import.meta.url).pathname;

interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Every log line so far, parsed (pino JSON). */
  logs: { level: number; msg: string; [field: string]: unknown }[];
  exited: Promise<number | null>;
}

async function startProcess(distDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DIST_DIR: distDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: TEST_BASE_URL,
      LOG_LEVEL: "info",
      RATE_LIMIT_MAX: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: ServerProcess["logs"] = [];
  let pending = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as { level: number; msg: string });
      } catch {
        logs.push({ level: 0, msg: line });
      }
    }
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); Date.now() - started < 20_000; await sleep(50)) {
    const ready = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (ready === 200) return { url, child, logs, exited };
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not become ready: ${logs.map((line) => line.msg).join("\n")}`);
}

async function stopProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await server.exited;
}

async function json(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

async function names(url: string, q: string): Promise<string[]> {
  const { body } = await json(`${url}/api/directory?q=${q}&limit=25`);
  return (body as { items: { name: string }[] }).items.map((item) => item.name);
}

/** Polls `probe` every 50 ms until it is true; returns the ms it took, or fails after `limitMs`. */
async function within(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    assert.ok(Date.now() - started < limitMs, `not within ${limitMs} ms`);
    await sleep(50);
  }
  return Date.now() - started;
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
    server = await startProcess(dist, { CACHE_SECONDS: "60" });
  });
  after(async () => {
    await stopProcess(server);
    await work.remove();
  });

  test("each request is logged as one JSON line with its id, method, route, status and duration, and no query text", async () => {
    const response = await fetch(`${server.url}/api/directory/24-7-locksmiths?secretword=1`);
    await response.arrayBuffer();
    const isThisRequest = (line: ServerProcess["logs"][number]) => line.msg === "request" && line.route === "/api/directory/:identifier";
    await within(10_000, async () => server.logs.some(isThisRequest));
    const line = server.logs.find(isThisRequest) ?? { level: 0, msg: "" };
    assert.deepEqual(
      {
        method: line.method,
        route: line.route,
        status: line.status,
        hasId: typeof line.reqId === "string",
        hasMs: typeof line.ms === "number",
      },
      { method: "GET", route: "/api/directory/:identifier", status: 400, hasId: true, hasMs: true },
    );
    assert.ok(!server.logs.some((entry) => JSON.stringify(entry).includes("secretword") || JSON.stringify(entry).includes("locksmiths")));
  });

  test("a rebuilt snapshot is served within 5 seconds, and no request fails during the swap", async () => {
    assert.deepEqual(await names(server.url, "zebedee"), []);
    const before = (await json(`${server.url}/readyz`)).body as { version: string };

    // Steady load on the directory, the catalog and a page while the build swaps dist/: every loop
    // runs before the new snapshot is written and after it is served.
    let running = true;
    let phase: "before" | "swap" | "after" = "before";
    const statuses = new Map<number, number>();
    const loop = async (path: string) => {
      const phases = new Set<string>();
      while (running) {
        const status = await fetch(`${server.url}${path}`).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => -1,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        phases.add(phase);
      }
      return phases;
    };
    const loops = ["/api/directory?q=plumb", "/api/offerings", "/businesses/joes-handyman", "/api/directory?q=zebedee"].flatMap((path) => [
      loop(path),
      loop(path),
    ]);
    const stopLoad = setTimeout(() => {
      running = false;
    }, 15_000);

    await sleep(300);
    phase = "swap";
    await writeFile(join(content, "businesses", "gb", "zebedee-reload-plumbing.md"), NEW_LISTING);
    await buildSnapshot(content, dist);
    await within(5000, async () => (await names(server.url, "zebedee")).length === 1);
    phase = "after";
    await sleep(300);
    running = false;
    clearTimeout(stopLoad);
    const phases = await Promise.all(loops);

    const after = (await json(`${server.url}/readyz`)).body as { version: string; directory: string };
    assert.notEqual(after.version, before.version);
    assert.equal(after.directory, "available");
    // The 60 s result cache held the empty answer for q=zebedee; the new snapshot replaced it.
    assert.deepEqual(await names(server.url, "zebedee"), ["Zebedee Reload Plumbing"]);
    assert.deepEqual([...statuses.keys()], [200], `statuses: ${JSON.stringify([...statuses])}`);
    for (const seen of phases) assert.ok(seen.has("before") && seen.has("after"), `a loop ran only in ${[...seen].join(", ")}`);
    assert.ok(server.logs.some((line) => line.level === 30 && line.msg.startsWith(`snapshot ${after.version} (built `)));
  });

  test("a snapshot with invalid directory data is rejected with an error log line, and the last good one keeps serving", async () => {
    const before = (await json(`${server.url}/readyz`)).body as { version: string };
    const plumbers = ["Leeds Plumbing & Heating", "O'Brien & Sons Plumbing", "Zebedee Reload Plumbing"];
    assert.deepEqual(await names(server.url, "plumb"), plumbers);

    await replaceListings(dist, '{"not":"a listing"}\n');
    await within(5000, async () => server.logs.some((line) => line.level === 50 && line.msg.includes("rejected, still serving")));

    assert.deepEqual(await names(server.url, "plumb"), plumbers);
    assert.equal(((await json(`${server.url}/readyz`)).body as { version: string }).version, before.version);
    const rejection = server.logs.find((line) => line.level === 50 && line.msg.includes("rejected, still serving"));
    assert.match(rejection?.msg ?? "", new RegExp(`still serving ${before.version}: its directory is unusable`));
  });
});

describe("a server started on corrupt directory data", () => {
  let work: { path: string; remove: () => Promise<void> };
  let server: ServerProcess;

  before(async () => {
    work = await tempDir("lifecycle-");
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    await replaceListings(join(work.path, "dist"), "this is not JSON\n");
    server = await startProcess(join(work.path, "dist"));
  });
  after(async () => {
    await stopProcess(server);
    await work.remove();
  });

  test("answers 503 for the directory, then serves it within 5 seconds of a good build", async () => {
    assert.equal((await json(`${server.url}/api/directory?q=plumb`)).status, 503);
    assert.equal(((await json(`${server.url}/readyz`)).body as { directory: string }).directory, "unavailable");
    assert.ok(server.logs.some((line) => line.level === 50 && line.msg.startsWith("directory unavailable")));

    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    await within(5000, async () => (await json(`${server.url}/api/directory?q=plumb`)).status === 200);
    assert.equal(((await json(`${server.url}/readyz`)).body as { directory: string }).directory, "available");
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

/** Downloads `path` pausing 20 ms after each chunk, so the answer takes seconds to send; `started` once the first bytes arrived. */
function slowDownload(
  url: string,
  path: string,
): { started: Promise<void>; done: Promise<{ status: number; length: number; bytes: number }> } {
  let started = () => {};
  const first = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = new Promise<{ status: number; length: number; bytes: number }>((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port: new URL(url).port, path }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        started();
        bytes += chunk.length;
        response.pause();
        setTimeout(() => response.resume(), 20);
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, length: Number(response.headers["content-length"]), bytes }));
    });
    request.on("error", reject);
    request.end();
  });
  return { started: first, done };
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
    // Enough listings for a bulk download of a few MB, which a slow client takes seconds to read.
    await generateContent(join(work.path, "content"), 3000, 5);
    await buildSnapshot(join(work.path, "content"), join(work.path, "dist"));
  });
  after(async () => {
    await work.remove();
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`on ${signal}, in-flight REST and MCP requests complete, new connections are refused, and the process exits 0`, async () => {
      const server = await startProcess(join(work.path, "dist"));
      try {
        const expected = (await json(`${server.url}/api/directory?q=plumb`)).body;
        const download = slowDownload(server.url, BULK_JSON_PATH);
        const mcp = slowMcpCall(
          server.url,
          JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "search_businesses", arguments: { q: "plumb" } } }),
        );
        await download.started;
        // The server has answered a later connection, so it has taken in the half-sent call's headers too.
        assert.equal(await refused(server.url), false);

        server.child.kill(signal);
        await within(10_000, () => refused(server.url));
        mcp.sendRest();

        const answer = await mcp.answer;
        const bulk = await download.done;
        const code = await server.exited;

        assert.equal(answer.status, 200);
        const rpc = JSON.parse(answer.body.toString("utf8")) as { id: number; result: { isError?: boolean; structuredContent: unknown } };
        assert.deepEqual(
          { id: rpc.id, isError: rpc.result.isError, items: rpc.result.structuredContent },
          { id: 7, isError: undefined, items: expected },
        );
        assert.deepEqual({ status: bulk.status, bytes: bulk.bytes }, { status: 200, bytes: bulk.length });
        assert.ok(bulk.length > 1_000_000, `a ${bulk.length}-byte download is over too fast to be in flight`);
        assert.equal(code, 0);
      } finally {
        await stopProcess(server);
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
    const server = await startProcess(join(work.path, "dist"), { WORKERS: "2" });
    try {
      const listening = () => server.logs.filter((line) => line.msg.startsWith("Server listening"));
      await within(10_000, async () => listening().length === 2);
      const pids = new Set(listening().map((line) => line.pid));
      assert.equal(pids.size, 2);
      assert.ok(!pids.has(server.child.pid));
      assert.deepEqual(
        listening().map((line) => line.msg),
        Array(2).fill(`Server listening at ${server.url}`),
      );

      // The same content: a rebuild swaps in a new manifest file, which each worker loads.
      await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
      const reloaded = () => server.logs.filter((line) => line.level === 30 && line.msg.startsWith("snapshot "));
      await within(5000, async () => reloaded().length === 2);
      assert.deepEqual(new Set(reloaded().map((line) => line.pid)), pids);

      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0);
    } finally {
      await stopProcess(server);
    }
  });
});
