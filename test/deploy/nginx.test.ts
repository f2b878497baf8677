import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { after, before, describe, type TestContext, test } from "node:test";
import { fleetRequired } from "../helpers/fleet-tools.ts";
import { anySnapshotServed, isStopListening, type LogLine } from "../helpers/logs.ts";
import { ageCachedAnswer, findNginx, type Nginx, startNginx, stopNginx } from "../helpers/nginx.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * The shipped deploy/nginx.conf in front of two real replicas (src/server.ts processes) serving
 * one dist/: retries while a replica shuts down, live reload through the proxy, the shared cache,
 * stale answers while every replica is down, and the Host header passed through. The tests run
 * in order: the fourth stops one replica, the last stops the other.
 */

/** What the service sends with every successful answer, with the default stale times. */
const CACHE_CONTROL = "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400";
/** The Host clients use in the MCP check: a name and a port, which nginx must pass on as they are. */
const PUBLIC_HOST = "directory.example:8443";
/** How soon a rebuilt snapshot must be served (interface §3); the wait for each replica's line fails after it. */
const RELOAD_LIMIT_MS = 5000;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over HTTP/1.1, with any Host header (fetch does not let a test choose it). */
function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, path, method: options.method ?? "GET", headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

const names = (answer: Answer) => (JSON.parse(answer.body) as { items: { name: string }[] }).items.map((item) => item.name);
const hostPort = (server: ServerProcess) => new URL(server.url).host;
const isRequest = (line: LogLine) => line.msg === "request";

/** SIGTERM to a replica still running, and its exit code. */
async function terminate(server: ServerProcess): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
  return server.exited;
}

let skipReason: string | undefined;
let work: { path: string; remove: () => Promise<void> };
let content: string;
let dist: string;
let replicas: [ServerProcess, ServerProcess];
/** The replicas started, for the cleanup even when the other failed to start. */
let running: ServerProcess[] = [];
let nginx: Nginx;

before(async () => {
  const found = await findNginx();
  if (found.path === null) {
    skipReason = `no nginx found: ${found.reasons.join("; ")}`;
    if (fleetRequired()) throw new Error(`REQUIRE_FLEET_TESTS=1, but ${skipReason}`);
    console.warn(`\n*** FLEET TESTS SKIPPED: ${skipReason}. Install nginx (Debian: apt-get install nginx) or set NGINX_PATH. ***\n`);
    return;
  }
  work = await tempDir("fleet-");
  content = join(work.path, "content");
  dist = join(work.path, "dist");
  await cp(`${FIXTURES}basic`, content, { recursive: true });
  await buildSnapshot(content, dist);
  const env = { MCP_ALLOWED_HOSTS: PUBLIC_HOST };
  const started = await Promise.allSettled([startServerProcess(dist, env), startServerProcess(dist, env)]);
  running = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  for (const result of started) if (result.status === "rejected") throw result.reason;
  replicas = running as [ServerProcess, ServerProcess];
  nginx = await startNginx(found.path, join(work.path, "nginx"), [hostPort(replicas[0]), hostPort(replicas[1])]);
});
after(async () => {
  if (skipReason !== undefined) return;
  if (nginx !== undefined) await stopNginx(nginx);
  await Promise.all(running.map(stopServerProcess));
  await work.remove();
});

/** A test that needs nginx: skipped, with the reason, when there is none. */
function fleetTest(name: string, body: () => Promise<void>): void {
  test(name, async (t: TestContext) => {
    if (skipReason !== undefined) {
      t.skip(skipReason);
      return;
    }
    await body();
  });
}

describe("deploy/nginx.conf in front of two replicas", () => {
  fleetTest("a repeated GET is answered from nginx's cache: MISS, then HIT with the same body, ETag and Cache-Control", async () => {
    const first = await send(nginx.url, "/api/offerings");
    const second = await send(nginx.url, "/api/offerings");

    assert.deepEqual(
      [first, second].map((answer) => ({
        status: answer.status,
        cache: answer.headers["x-cache-status"],
        control: answer.headers["cache-control"],
      })),
      [
        { status: 200, cache: "MISS", control: CACHE_CONTROL },
        { status: 200, cache: "HIT", control: CACHE_CONTROL },
      ],
    );
    assert.equal(second.body, first.body);
    assert.equal(second.headers.etag, first.headers.etag);
  });

  fleetTest("the Host a client sends reaches the replica, port included: /mcp accepts the allowed host and refuses another", async () => {
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "search_businesses", arguments: { q: "plumb" } },
    });
    const mcp = (host: string) =>
      send(nginx.url, "/mcp", {
        method: "POST",
        headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: call,
      });
    const allowed = await mcp(PUBLIC_HOST);
    const other = await mcp("elsewhere.example:8443");
    const rest = await send(nginx.url, "/api/directory?q=plumb");

    assert.deepEqual([allowed.status, other.status, rest.status], [200, 403, 200]);
    // POST is never cached: nginx reports no cache status for it.
    assert.equal(allowed.headers["x-cache-status"], undefined);
    const rpc = JSON.parse(allowed.body) as { id: number; result: { structuredContent: unknown } };
    assert.deepEqual({ id: rpc.id, items: rpc.result.structuredContent }, { id: 3, items: JSON.parse(rest.body) });
    assert.match(other.body, /Forbidden: the Host header does not name this server\./);
  });

  fleetTest(
    "a rebuilt snapshot is served by both replicas within 5 seconds and through nginx, while nginx keeps a cached answer for its max-age",
    async () => {
      const profile = "/api/directory/leeds-plumbing-heating";
      const cached = await send(nginx.url, profile);
      assert.equal(JSON.parse(cached.body).name, "Leeds Plumbing & Heating");
      const versions = async () =>
        Promise.all(replicas.map(async (replica) => JSON.parse((await send(replica.url, "/readyz")).body).version));
      const [before] = await versions();

      const file = join(content, "businesses", "gb", "leeds-plumbing-heating.md");
      await writeFile(
        file,
        (await readFile(file, "utf8")).replace('name: "Leeds Plumbing & Heating"', 'name: "Zebedee Plumbing & Heating"'),
      );
      await buildSnapshot(content, dist);
      const reloads = await Promise.all(
        replicas.map((replica) => replica.logs.waitFor("saying the rebuild is served", anySnapshotServed, { timeoutMs: RELOAD_LIMIT_MS })),
      );

      const after = await versions();
      assert.notEqual(after[0], before);
      assert.deepEqual(after, [after[0], after[0]]);
      assert.deepEqual(
        reloads.map(([line]) => line?.msg.startsWith(`snapshot ${after[0]} `)),
        [true, true],
      );
      // Answers nginx has not cached come from the new snapshot; nginx takes turns, so both
      // replicas answer some of them (each says so in its log).
      const earlier = replicas.map((replica) => new Set(replica.logs.lines));
      for (const query of ["q=zebedee", "q=zebedee&location=leeds", "q=zebedee&country=GB", "q=zebedee&limit=5"]) {
        const fresh = await send(nginx.url, `/api/directory?${query}`);
        assert.deepEqual(
          { cache: fresh.headers["x-cache-status"], names: names(fresh) },
          { cache: "MISS", names: ["Zebedee Plumbing & Heating"] },
        );
      }
      await Promise.all(
        replicas.map((replica, i) =>
          replica.logs.waitFor(
            "answering a search through nginx",
            (line) => !earlier[i]?.has(line) && isRequest(line) && line.route === "/api/directory",
          ),
        ),
      );
      // The cached profile is still the old one: a shared cache keeps an answer for its max-age.
      const again = await send(nginx.url, profile);
      assert.deepEqual(
        { cache: again.headers["x-cache-status"], name: JSON.parse(again.body).name },
        { cache: "HIT", name: "Leeds Plumbing & Heating" },
      );
    },
  );

  fleetTest("a replica stopped by SIGTERM under load through nginx fails no request, and exits 0", async () => {
    const [stopping, staying] = replicas;
    /** Concurrent clients; each sends AFTER_STOP requests after the replica stopped listening, then stops. */
    const CLIENTS = 8;
    const SIGTERM_AFTER = 100;
    const AFTER_STOP = 25;
    /** Each client's bound, were the replica never to say it stopped. */
    const MAX_PER_CLIENT = 1000;
    const statuses = new Map<number | string, number>();
    let answered = 0;
    let stoppedListening = false;
    let answeredAfterStop = 0;
    const stopLine = stopping.logs.waitFor("saying it stopped listening", isStopListening);
    void stopLine.then(
      () => {
        stoppedListening = true;
      },
      () => {},
    );

    const client = async (id: number) => {
      let after = 0;
      for (let n = 0; n < MAX_PER_CLIENT && after < AFTER_STOP; n += 1) {
        const sentAfterStop = stoppedListening;
        // A URL nginx has not cached, so that every request reaches a replica.
        const status = await send(nginx.url, `/api/directory?q=load-${id}-${n}`).then(
          (answer) => answer.status,
          (error: Error) => error.message,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        answered += 1;
        if (answered === SIGTERM_AFTER) stopping.child.kill("SIGTERM");
        if (sentAfterStop) {
          after += 1;
          answeredAfterStop += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id)));
    const code = await stopping.exited;
    await stopLine;

    assert.deepEqual([...statuses], [[200, answered]]);
    assert.equal(answeredAfterStop, CLIENTS * AFTER_STOP);
    assert.equal(code, 0);
    // Both replicas answered load before the stop; only the other one after it.
    const stopAt = stopping.logs.lines.findIndex(isStopListening);
    assert.ok(stopping.logs.lines.slice(0, stopAt).some(isRequest), "the stopped replica answered none of the load");
    assert.ok(staying.logs.lines.filter(isRequest).length >= CLIENTS * AFTER_STOP);
  });

  fleetTest(
    "with every replica stopped, nginx answers a copy past its max-age and stale-while-revalidate by its stale-if-error (STALE)",
    async () => {
      // How this is shown without waiting a minute for the copy to expire: nginx keeps each
      // answer's expiry in its cache file's header, read on every request, so the test moves that
      // expiry an hour back: what nginx would see an hour later. The configuration is the shipped
      // one; the stale times are the service's own Cache-Control, which nginx recorded.
      const path = "/api/directory/obrien-sons-plumbing";
      const HOUR = 3600;
      const first = await send(nginx.url, path);
      assert.deepEqual([first.status, first.headers["x-cache-status"]], [200, "MISS"]);
      assert.equal((await send(nginx.url, path)).headers["x-cache-status"], "HIT");

      // What nginx recorded is the service's header: fresh 60 s, stale-while-revalidate 60 s, stale-if-error a day.
      const lifetime = await ageCachedAnswer(nginx.cacheDir, path, HOUR);
      assert.deepEqual(lifetime, { freshSeconds: 60, staleWhileRevalidateSeconds: 60, staleIfErrorSeconds: 86_400 });
      // While a replica answers, a copy an hour old (past stale-while-revalidate) is not served
      // stale: nginx asks the replica, which confirms it by its ETag (304).
      const revalidated = await send(nginx.url, path);
      assert.deepEqual([revalidated.status, revalidated.headers["x-cache-status"], revalidated.body], [200, "REVALIDATED", first.body]);

      assert.deepEqual(await Promise.all(replicas.map(terminate)), [0, 0]);
      await ageCachedAnswer(nginx.cacheDir, path, HOUR);
      const stale = await send(nginx.url, path);
      const uncached = await send(nginx.url, "/api/directory/joes-handyman");

      assert.deepEqual(
        { status: stale.status, cache: stale.headers["x-cache-status"], etag: stale.headers.etag, body: stale.body },
        { status: 200, cache: "STALE", etag: first.headers.etag, body: first.body },
      );
      // Nothing else answers: a URL nginx has no copy of fails.
      assert.deepEqual([uncached.status, uncached.headers["x-cache-status"]], [502, "MISS"]);
    },
  );
});
