import assert from "node:assert/strict";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LISTING_BLOCK_BYTES, SNAPSHOT_FILES } from "../../src/snapshot/files.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, replaceListings, replaceSnapshotFile, tempDir } from "../helpers/snapshot.ts";

const UNAVAILABLE = {
  error: {
    code: "directory_unavailable",
    message: "The directory data is unavailable right now. This is not an empty result.",
    resolution: "Wait 30 seconds and retry; the offerings catalog still works meanwhile.",
  },
};

/** Ways the directory data can be broken in a built snapshot, and the reason the log gives for each. */
const DAMAGE: Record<string, [apply: (dist: string) => Promise<void>, problem: RegExp]> = {
  "businesses.ndjson is missing": [
    (dist) => rm(join(dist, SNAPSHOT_FILES.businessesNdjson)),
    /businesses\.ndjson is missing or unreadable/,
  ],
  "businesses.ndjson is not the file the manifest describes": [
    (dist) => writeFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "{ truncated"),
    /data\/businesses\.ndjson is not the file the manifest describes/,
  ],
  "businesses.ndjson is not the file the directory index was built from, though the manifest agrees": [
    async (dist) => {
      const lines = (await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "utf8")).split("\n");
      await replaceSnapshotFile(dist, "businessesNdjson", [lines[1], lines[0], ...lines.slice(2)].join("\n"));
    },
    /businesses\.ndjson is not the file the directory index was built from/,
  ],
  "a listing is not JSON, though the manifest and the index agree": [
    async (dist) => {
      const lines = (await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "utf8")).split("\n");
      lines[1] = (lines[1] ?? "").slice(0, -2);
      await replaceListings(dist, lines.join("\n"));
    },
    /listing 2 of businesses\.ndjson is not valid JSON/,
  ],
  "a listing has a field PublicBusiness does not allow, though the manifest and the index agree": [
    async (dist) => {
      const lines = (await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "utf8")).split("\n");
      lines[0] = JSON.stringify({ ...(JSON.parse(lines[0] ?? "") as object), private: { phone: "1" } });
      await replaceListings(dist, lines.join("\n"));
    },
    /listing 1 of businesses\.ndjson does not match the PublicBusiness schema \(data must NOT have additional properties\)/,
  ],
  "a listing does not start with its id and slug, though the manifest and the index agree": [
    async (dist) => {
      const lines = (await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "utf8")).split("\n");
      const { id, slug, ...rest } = JSON.parse(lines[2] ?? "") as { id: string; slug: string };
      lines[2] = JSON.stringify({ slug, id, ...rest });
      await replaceListings(dist, lines.join("\n"));
    },
    /listing 3 of businesses\.ndjson does not start with its id and slug/,
  ],
  "a listing names a second slug after its first, though the manifest and the index agree": [
    async (dist) => {
      const lines = (await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "utf8")).split("\n");
      lines[4] = `${(lines[4] ?? "").slice(0, -1)},"slug":"another-slug"}`;
      await replaceListings(dist, lines.join("\n"));
    },
    /listing 5 of businesses\.ndjson does not start with its id and slug/,
  ],
  "two listings share a slug, though the manifest and the index agree": [
    async (dist) => {
      const lines = (await readFile(join(dist, SNAPSHOT_FILES.businessesNdjson), "utf8")).split("\n");
      const first = JSON.parse(lines[0] ?? "") as { slug: string };
      lines[3] = JSON.stringify({ ...(JSON.parse(lines[3] ?? "") as object), slug: first.slug });
      await replaceListings(dist, lines.join("\n"));
    },
    /two listings share a slug or an id/,
  ],
  "the listings are fewer than the index says, though the manifest and the index agree": [
    (dist) => replaceListings(dist, ""),
    /businesses\.ndjson holds 0 listings, the index 9/,
  ],
  "the manifest says businesses.ndjson is 4 GiB, more than line starts of 32 bits can reach": [
    async (dist) => {
      const path = join(dist, SNAPSHOT_FILES.manifest);
      const manifest = JSON.parse(await readFile(path, "utf8")) as { files: { businessesNdjson: { bytes: number; blocks: string[] } } };
      manifest.files.businessesNdjson.bytes = 2 ** 32;
      manifest.files.businessesNdjson.blocks = Array.from({ length: 2 ** 32 / LISTING_BLOCK_BYTES }, () => "0".repeat(64));
      await writeFile(path, JSON.stringify(manifest));
    },
    /^snapshot: businesses\.ndjson is 4294967296 bytes; the server reads less than 4 GiB of listings \(about 5\.8 million\)\.$/,
  ],
  "the directory index is damaged, though the manifest agrees": [
    (dist) => replaceSnapshotFile(dist, "directoryArrays", "\u0000\u0001"),
    /the directory index is not valid: the binary file holds 2 bytes/,
  ],
};

for (const [damage, [apply, problem]] of Object.entries(DAMAGE)) {
  describe(`when ${damage}`, () => {
    let server: RunningServer;
    let cleanup: () => Promise<void>;
    let dist = "";
    before(async () => {
      const work = await tempDir();
      cleanup = work.remove;
      dist = join(work.path, "dist");
      await buildSnapshot(`${FIXTURES}basic`, dist);
      await apply(dist);
      server = await startServer(dist);
    });
    after(async () => {
      await server.close();
      await cleanup();
    });

    for (const path of ["/api/directory", "/api/directory?q=plumb", "/api/facets?q=plumb", "/api/directory/obrien-sons-plumbing"]) {
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

    test("the loader says why the directory is unavailable", () => {
      assert.match(server.snapshot.directoryProblem ?? "", problem);
    });

    test("the loader gives the same reason when it would read the listings from disk", async () => {
      const snapshot = await loadSnapshot(dist, { listingsInMemoryBytes: 0 });
      assert.equal(snapshot.directory, null);
      assert.match(snapshot.directoryProblem ?? "", problem);
    });

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
