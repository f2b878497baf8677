import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { cp, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { generateContent } from "../../bench/generate.ts";
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

describe("live snapshot reload", () => {
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
    const lines = await (async () => {
      await within(2000, async () => server.logs.some((line) => line.msg === "request" && line.status === 400));
      return server.logs.filter((line) => line.msg === "request");
    })();
    const line = lines.at(-1) ?? { level: 0, msg: "" };
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

    // Steady load on the directory, the catalog and a page while the build swaps dist/.
    let running = true;
    const statuses = new Map<number, number>();
    const loop = async (path: string) => {
      while (running) {
        const status = await fetch(`${server.url}${path}`).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => -1,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const loops = ["/api/directory?q=plumb", "/api/offerings", "/businesses/joes-handyman", "/api/directory?q=zebedee"].flatMap((path) => [
      loop(path),
      loop(path),
    ]);
    const stopLoad = setTimeout(() => {
      running = false;
    }, 15_000);

    await sleep(300);
    await writeFile(join(content, "businesses", "gb", "zebedee-reload-plumbing.md"), NEW_LISTING);
    await buildSnapshot(content, dist);
    const tookMs = await within(5000, async () => (await names(server.url, "zebedee")).length === 1);
    await sleep(300);
    running = false;
    clearTimeout(stopLoad);
    await Promise.all(loops);

    const after = (await json(`${server.url}/readyz`)).body as { version: string; directory: string };
    assert.notEqual(after.version, before.version);
    assert.equal(after.directory, "available");
    assert.deepEqual(await names(server.url, "zebedee"), ["Zebedee Reload Plumbing"]);
    // The 60 s result cache held the empty answer for q=zebedee; the new snapshot replaced it.
    assert.deepEqual([...statuses.keys()], [200], `statuses: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(200) ?? 0) > 100, `only ${statuses.get(200)} requests`);
    assert.ok(tookMs < 5000);
    assert.ok(server.logs.some((line) => line.level === 30 && line.msg.startsWith(`snapshot ${after.version} (built `)));
  });

  test("a snapshot with invalid directory data is rejected with an error log line, and the last good one keeps serving", async () => {
    const before = (await json(`${server.url}/readyz`)).body as { version: string };
    const plumbers = await names(server.url, "plumb");
    assert.ok(plumbers.length > 0);

    await replaceListings(dist, '{"not":"a listing"}\n');
    await within(5000, async () => server.logs.some((line) => line.level === 50 && line.msg.includes("rejected, still serving")));

    assert.deepEqual(await names(server.url, "plumb"), plumbers);
    assert.deepEqual(((await json(`${server.url}/readyz`)).body as { version: string }).version, before.version);
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

/** A request whose answer arrives while the test decides when: a slow client on either side. */
function slowMcpCall(url: string): { sendRest: () => void; answer: Promise<{ status: number; body: string }> } {
  const { port } = new URL(url);
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "search_businesses", arguments: { q: "plumb" } },
  });
  let sendRest = () => {};
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        setHost: false,
        headers: {
          host: "localhost:3000",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject);
    // Half the body now: the request is in flight until the rest arrives.
    request.write(body.slice(0, 20));
    sendRest = () => request.end(body.slice(20));
  });
  return { sendRest, answer };
}

/** Downloads `path` pausing 20 ms after each chunk, so the server's answer takes a while to send. */
function slowDownload(url: string, path: string): Promise<{ status: number; bytes: number }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, path }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        response.pause();
        setTimeout(() => response.resume(), 20);
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, bytes }));
    });
    request.on("error", reject);
    request.end();
  });
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
        const download = slowDownload(server.url, "/data/businesses.json");
        const mcp = slowMcpCall(server.url);
        await sleep(300);
        server.child.kill(signal);
        await sleep(300);
        mcp.sendRest();

        const refused = await fetch(`${server.url}/api/offerings`).then(
          (response) => response.status,
          () => "refused",
        );
        const answer = await mcp.answer;
        const bulk = await download;
        const code = await server.exited;

        assert.equal(refused, "refused");
        assert.equal(answer.status, 200);
        assert.equal((JSON.parse(answer.body) as { id: number; result: { isError?: boolean } }).id, 7);
        assert.equal(bulk.status, 200);
        assert.ok(bulk.bytes > 1_000_000, `${bulk.bytes} bytes`);
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
      await within(10_000, async () => server.logs.filter((line) => line.msg.startsWith("Server listening")).length === 2);
      const pids = new Set(server.logs.filter((line) => line.msg.startsWith("Server listening")).map((line) => line.pid));
      assert.equal(pids.size, 2);
      assert.ok(!pids.has(server.child.pid));

      await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"), "http://localhost:3001");
      await within(5000, async () => server.logs.filter((line) => line.level === 30 && line.msg.startsWith("snapshot ")).length === 2);

      server.child.kill("SIGTERM");
      assert.equal(await server.exited, 0);
    } finally {
      await stopProcess(server);
    }
  });
});
