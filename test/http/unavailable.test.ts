import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { SNAPSHOT_FILES } from "../../src/snapshot/files.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

const UNAVAILABLE = {
  error: {
    code: "directory_unavailable",
    message: "The directory data is unavailable right now. This is not an empty result.",
    resolution: "Wait 30 seconds and retry; the offerings catalog still works meanwhile.",
  },
};

/** Ways the directory data can be broken in a built snapshot. */
const DAMAGE: Record<string, (dist: string) => Promise<void>> = {
  "businesses.json is missing": (dist) => rm(join(dist, SNAPSHOT_FILES.businesses)),
  "businesses.json is not JSON": (dist) => writeFile(join(dist, SNAPSHOT_FILES.businesses), "{ truncated"),
  "a listing has a field PublicBusiness does not allow": async (dist) => {
    await writeFile(join(dist, SNAPSHOT_FILES.businesses), JSON.stringify([{ id: "x", private: { phone: "1" } }]));
  },
  "the search index does not match the data": (dist) => writeFile(join(dist, SNAPSHOT_FILES.businesses), "[]"),
};

for (const [damage, apply] of Object.entries(DAMAGE)) {
  describe(`when ${damage}`, () => {
    let server: RunningServer;
    let cleanup: () => Promise<void>;
    before(async () => {
      const work = await tempDir();
      cleanup = work.remove;
      const dist = join(work.path, "dist");
      await buildSnapshot(`${FIXTURES}basic`, dist);
      await apply(dist);
      server = await startServer(dist);
    });
    after(async () => {
      await server.close();
      await cleanup();
    });

    for (const path of ["/api/directory", "/api/directory?q=plumb", "/api/directory/obrien-sons-plumbing"]) {
      test(`GET ${path} answers 503 directory_unavailable with Retry-After: 30`, async () => {
        const response = await fetch(`${server.url}${path}`);
        assert.equal(response.status, 503);
        assert.equal(response.headers.get("retry-after"), "30");
        assert.equal(response.headers.get("cache-control"), "no-store");
        const body: unknown = await response.json();
        (await OpenApiValidator.fetch(server.url)).assertResponse(path, 503, body);
        assert.deepEqual(body, UNAVAILABLE);
      });
    }

    test("an invalid directory request is still a 400, not a 503", async () => {
      const response = await fetch(`${server.url}/api/directory?limit=99`);
      assert.equal(response.status, 400);
      (await OpenApiValidator.fetch(server.url)).assertResponse("/api/directory", 400, await response.json());
    });

    test("the catalog keeps working", async () => {
      const response = await fetch(`${server.url}/api/offerings`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as { total: number };
      (await OpenApiValidator.fetch(server.url)).assertResponse("/api/offerings", 200, body);
      assert.equal(body.total, 3);
    });
  });
}

describe("a snapshot the server cannot serve at all", () => {
  for (const [label, file] of [
    ["offerings.json", SNAPSHOT_FILES.offerings],
    ["the manifest", SNAPSHOT_FILES.manifest],
    ["site.json", SNAPSHOT_FILES.site],
    ["openapi.json", SNAPSHOT_FILES.openapi],
  ] as const) {
    test(`is refused with a clear message when ${label} is missing`, async () => {
      const work = await tempDir();
      const dist = join(work.path, "dist");
      await buildSnapshot(`${FIXTURES}basic`, dist);
      await rm(join(dist, file));
      await assert.rejects(loadSnapshot(dist), (error: Error) => {
        assert.equal(error.name, "SnapshotError");
        assert.match(error.message, /^snapshot: .*(missing|unreadable).*npm run build/);
        return true;
      });
      await work.remove();
    });
  }
});
