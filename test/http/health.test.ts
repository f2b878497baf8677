import assert from "node:assert/strict";
import { test } from "node:test";
import { READ_METHODS } from "../../src/api/routes.ts";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES } from "../helpers/snapshot.ts";

const served = serveContent(`${FIXTURES}basic`);

test("/healthz says the process is up and /readyz which snapshot is served", async () => {
  const health = await fetch(`${served.current.url}/healthz`);
  assert.deepEqual(
    { status: health.status, cache: health.headers.get("cache-control"), body: await health.json() },
    { status: 200, cache: "no-store", body: { status: "ok" } },
  );
  const ready = await fetch(`${served.current.url}/readyz`);
  const manifest = served.current.snapshot.manifest;
  assert.deepEqual(
    { status: ready.status, body: await ready.json() },
    { status: 200, body: { status: "ready", version: manifest.version, builtAt: manifest.builtAt, directory: "available" } },
  );
});

test("health checks are read-only: POST /healthz is 405 with Allow", async () => {
  const response = await fetch(`${served.current.url}/healthz`, { method: "POST" });
  await response.arrayBuffer();
  assert.equal(response.status, 405);
  assert.equal(response.headers.get("allow"), READ_METHODS);
});
