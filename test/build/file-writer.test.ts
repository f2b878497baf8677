import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { FileWriter } from "../../build/file-writer.ts";
import { SNAPSHOT_FILES } from "../../src/snapshot/files.ts";
import { tempDir } from "../helpers/snapshot.ts";

/** A listing's line with text of several byte lengths (ASCII, two-, three- and four-byte characters), numbered. */
const lineOf = (rank: number) => JSON.stringify({ id: `id-${rank}`, name: `Café “${rank}” 🙂`, note: "a\nb" });

describe("the listings' data files", () => {
  let dir: { path: string; remove: () => Promise<void> };
  before(async () => {
    dir = await tempDir("catalog-file-writer-");
  });
  after(() => dir.remove());

  // The lines are written a chunk of 1,000 at a time: the counts put the file's end before, at and after a chunk's.
  for (const count of [0, 1, 999, 1000, 1001, 2500]) {
    test(`${count} listings: the NDJSON file is every line and a newline, the JSON file the same lines as an array, and the digest is the NDJSON file's`, async () => {
      const root = join(dir.path, String(count));
      const out = new FileWriter(root);
      const lines = Array.from({ length: count }, (_, rank) => lineOf(rank));
      out.listings(count, (rank) => lines[rank] ?? "");

      const ndjson = await readFile(join(root, SNAPSHOT_FILES.businessesNdjson));
      const array = await readFile(join(root, SNAPSHOT_FILES.businesses), "utf8");
      assert.equal(ndjson.toString("utf8"), lines.map((line) => `${line}\n`).join(""));
      assert.equal(array, `[\n${lines.join(",\n")}\n]\n`);
      assert.deepEqual(
        JSON.parse(array),
        lines.map((line) => JSON.parse(line)),
      );
      assert.equal(out.digests.get("businessesNdjson")?.sha256, createHash("sha256").update(ndjson).digest("hex"));
      assert.equal(out.digests.get("businessesNdjson")?.bytes, ndjson.length);
    });
  }
});
