import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { startServer, type RunningServer } from "../helpers/server.ts";
import { FIXTURES, buildSnapshot, tempDir } from "../helpers/snapshot.ts";

let server: RunningServer;
let openapi: OpenApiValidator;
let cleanup: () => Promise<void>;

before(async () => {
  const dist = await tempDir();
  cleanup = dist.remove;
  await buildSnapshot(`${FIXTURES}basic`, `${dist.path}/dist`);
  server = await startServer(`${dist.path}/dist`);
  openapi = await OpenApiValidator.fetch(server.url);
});
after(async () => {
  await server.close();
  await cleanup();
});

test("GET /api/directory answers the first page in name order", async () => {
  const response = await fetch(`${server.url}/api/directory?limit=2`);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { items: { slug: string }[]; nextOffset: number | null };
  openapi.assertBody("/api/directory", 200, body);
  assert.deepEqual(body.items.map((item) => item.slug), ["24-7-locksmiths", "apex-electrical"]);
  assert.equal(body.nextOffset, 2);
});
