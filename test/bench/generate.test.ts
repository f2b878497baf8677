import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { generateContent } from "../../bench/generate.ts";
import { directoryQueries } from "../../bench/queries.ts";
import { tempDir } from "../helpers/snapshot.ts";

/** A digest of every file below `dir`, by relative path. */
async function digest(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const entries = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const paths = entries.map((entry) => join(entry.parentPath, entry.name)).sort();
  for (const path of paths) hash.update(path.slice(dir.length)).update(await readFile(path));
  return hash.digest("hex");
}

test("the generator writes the same files for the same size and seed, and others for another seed", async () => {
  const work = await tempDir("generate-");
  try {
    await generateContent(join(work.path, "a"), 300, 1);
    await generateContent(join(work.path, "b"), 300, 1);
    await generateContent(join(work.path, "c"), 300, 2);
    const [a, b, c] = await Promise.all(["a", "b", "c"].map((name) => digest(join(work.path, name))));
    assert.equal(a, b);
    assert.notEqual(a, c);
    const listings = await readdir(join(work.path, "a", "businesses"), { recursive: true });
    assert.equal(listings.filter((name) => name.endsWith(".md")).length, 300);
  } finally {
    await work.remove();
  }
});

test("the query mix is the same for the same seed", () => {
  assert.deepEqual(directoryQueries(50, 9), directoryQueries(50, 9));
  assert.notDeepEqual(directoryQueries(50, 9), directoryQueries(50, 10));
});
