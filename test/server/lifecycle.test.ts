import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { SNAPSHOT_BUILT_MESSAGE } from "../../src/snapshot/reload.ts";
import { json, moment, RELOAD_LIMIT_MS } from "../helpers/lifecycle.ts";
import { anySnapshotServed, type LogLine } from "../helpers/logs.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, replaceListings, tempDir } from "../helpers/snapshot.ts";

/**
 * The real server process (src/server.ts) over its life: picking up rebuilt snapshots while it
 * answers (interface §3), and refusing bad ones (stopping: shutdown.test.ts). Every server listens
 * on 127.0.0.1, and every wait is for something the server says in its log.
 */

async function names(url: string, q: string): Promise<string[]> {
  const { body } = await json(`${url}/api/directory?q=${q}&limit=25`);
  return (body as { items: { name: string }[] }).items.map((item) => item.name);
}

/** The line src/snapshot/reload.ts writes once `version` is served in place of `previous`. */
function served(version: string, builtAt: string, previous: string): (line: LogLine) => boolean {
  return (line) => line.level === 30 && line.msg === `snapshot ${version} (built ${builtAt}) now served, replacing ${previous}`;
}

/**
 * Waits for the server's error line refusing the snapshot now in dist/ (one that `says` so), and
 * checks it still serves `version`, the one it served before.
 */
async function refusedWhileServing(server: ServerProcess, says: string, version: string): Promise<void> {
  const [rejection] = await server.logs.waitFor(`refusing the snapshot (${says})`, (line) => line.level === 50 && line.msg.includes(says), {
    timeoutMs: RELOAD_LIMIT_MS,
  });
  assert.match(rejection?.msg ?? "", new RegExp(`^new snapshot \\w+ rejected, still serving ${version}: its directory is unusable: `));
  assert.equal(((await json(`${server.url}/readyz`)).body as { version: string }).version, version);
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
    await refusedWhileServing(server, "rejected, still serving", before.version);
    assert.deepEqual(await names(server.url, "plumb"), plumbers);
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
    await refusedWhileServing(server, "listing 2 of businesses.ndjson does not match the PublicBusiness schema", before.version);
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
