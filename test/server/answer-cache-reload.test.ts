import assert from "node:assert/strict";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { RELOAD_LIMIT_MS } from "../helpers/lifecycle.ts";
import { anySnapshotServed } from "../helpers/logs.ts";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../helpers/server-process.ts";
import { buildSnapshot, FIXTURES, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

/**
 * The answer cache belongs to the snapshot served (interface §7): once a rebuilt snapshot is
 * served, no answer kept for the one before is sent again, in any representation, though every
 * one was kept for 60 seconds.
 */

const NEW_LISTING = `---
id: 0b6f3a92-5d4e-4c1b-8a7f-2e9d1c3b5a71
name: "Quenby Cached Plumbing"
service: Plumbing
category: Plumbing & heating
location:
  city: Leeds
  region: West Yorkshire
  postalCode: "LS2 7HY"
  country: GB
quoteUrl: https://fixture.example/quotes/new?business=quenby-cached-plumbing
status: approved
---
A listing added after its search was kept.
`;

let work: { path: string; remove: () => Promise<void> };
let content: string;
let dist: string;
let server: ServerProcess;

before(async () => {
  work = await tempDir("answer-cache-reload-");
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

interface Sent {
  readonly etag: string | undefined;
  readonly body: string;
}

const host = new URL(TEST_BASE_URL).host;
const port = () => Number(new URL(server.url).port);

async function get(path: string, accept: string): Promise<Sent> {
  const response = await raw({ port: port() }, "GET", { host, accept }, undefined, path);
  assert.equal(response.status, 200, path);
  return { etag: response.headers.etag as string | undefined, body: response.body };
}

async function callTool(name: string, args: Record<string, unknown>): Promise<Sent> {
  const headers = {
    host,
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-06-18",
  };
  const response = await raw(
    { port: port() },
    "POST",
    headers,
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  );
  assert.equal(response.status, 200);
  return { etag: undefined, body: response.body };
}

/** Every representation of a search for the new listing's name, asked for now. */
const ASKED: readonly [string, () => Promise<Sent>][] = [
  ["JSON search", () => get("/api/directory?q=quenby", "application/json")],
  ["JSON facets", () => get("/api/facets?q=quenby", "application/json")],
  ["HTML directory page", () => get("/businesses?q=quenby", "text/html")],
  ["Markdown directory page", () => get("/businesses/index.md?q=quenby", "text/markdown")],
  ["MCP search_businesses", () => callTool("search_businesses", { q: "quenby" })],
  ["MCP directory_facets", () => callTool("directory_facets", { q: "quenby" })],
];

test("after a reload, no answer kept for the old snapshot is sent: each representation is the new snapshot's", async () => {
  const old = new Map<string, Sent>();
  for (const [name, ask] of ASKED) {
    const first = await ask();
    // Asked again: the answer kept, the same bytes.
    assert.deepEqual(await ask(), first, name);
    assert.ok(!first.body.includes("Quenby Cached Plumbing"), `${name} finds nothing yet`);
    old.set(name, first);
  }

  await writeFile(join(content, "businesses", "gb", "quenby-cached-plumbing.md"), NEW_LISTING);
  await buildSnapshot(content, dist);
  await server.logs.waitFor("saying the rebuilt snapshot is served", anySnapshotServed, { timeoutMs: RELOAD_LIMIT_MS });

  for (const [name, ask] of ASKED) {
    const now = await ask();
    const before = old.get(name);
    assert.notEqual(now.body, before?.body, `${name} is the new snapshot's`);
    if (before?.etag !== undefined) assert.notEqual(now.etag, before.etag, `${name}'s tag names the new snapshot`);
    assert.ok(now.body.includes(name.includes("facets") ? '"total":1' : "Quenby Cached Plumbing"), `${name} finds the new listing`);
  }
});
