import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { blockDigests, SNAPSHOT_FILES } from "../../src/snapshot/files.ts";
import { blockRuns, ListingCheckError, readCheckedListings, startListingCheck } from "../../src/snapshot/listing-check.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

test("blocks are split into runs of whole blocks, one a part, never more runs than blocks", () => {
  assert.deepEqual(blockRuns(9, 2), [
    [0, 4],
    [4, 9],
  ]);
  assert.deepEqual(blockRuns(2, 4), [
    [0, 1],
    [1, 2],
  ]);
  assert.deepEqual(blockRuns(0, 2), [[0, 0]]);
});

describe("the listing check over blocks smaller than a line, in three workers reading less than a line at a time", () => {
  const BLOCK = 100;
  const CHUNK = 64;
  let work: Awaited<ReturnType<typeof tempDir>>;
  let lines: string[] = [];
  let path = "";
  before(async () => {
    work = await tempDir();
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    path = join(work.path, "dist", SNAPSHOT_FILES.businessesNdjson);
    lines = (await readFile(path, "utf8")).split("\n").slice(0, -1);
  });
  after(() => work.remove());

  /** Where each line of `text` starts, and its end: the loader's numbering of the lines. */
  function lineStartsOf(text: string): Uint32Array {
    const starts = [0];
    for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) starts.push(Buffer.byteLength(text.slice(0, at + 1)));
    return Uint32Array.from(starts);
  }

  /** Writes `text` as the file and runs the check with digests of `digested` (the file as the manifest knows it). */
  async function check(text: string, digested = text): Promise<void> {
    await writeFile(path, text);
    const bytes = Buffer.from(digested);
    const digest = { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), blocks: blockDigests(bytes, BLOCK) };
    await startListingCheck(path, digest, { parts: 3, blockBytes: BLOCK, chunkBytes: CHUNK }).finish(lineStartsOf(text));
  }

  test("passes every listing of a good file, wherever the ranges cut its lines", async () => {
    assert.equal(lines.length, 9);
    await check(`${lines.join("\n")}\n`);
  });

  // The basic fixture's nine listings: the first, one in the middle, the last.
  for (const bad of [0, 4, 8]) {
    test(`names listing ${bad + 1} when it is the bad one`, async () => {
      const broken = lines.map((line, i) => (i === bad ? line.replace('"name":', '"nom":') : line));
      await assert.rejects(
        check(`${broken.join("\n")}\n`),
        (error: unknown) =>
          error instanceof ListingCheckError &&
          error.message.startsWith(`listing ${bad + 1} of businesses.ndjson does not match the PublicBusiness schema`),
      );
    });
  }

  test("refuses a file that is not the one the block digests describe", async () => {
    const good = `${lines.join("\n")}\n`;
    const changed = good.replace("Plumbing", "Plumbinh");
    await assert.rejects(check(changed, good), /^Error: businesses\.ndjson changed while it was being loaded; run `npm run build`\.$/);
  });
  /** Writes `text` as the file and reads it through the held check, with digests of `digested`. */
  async function readChecked(text: string, digested = text, checked?: SharedArrayBuffer): Promise<Buffer> {
    await writeFile(path, text);
    const bytes = Buffer.from(digested);
    const digest = { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), blocks: blockDigests(bytes, BLOCK) };
    return readCheckedListings(path, digest, {
      parts: 3,
      blockBytes: BLOCK,
      chunkBytes: CHUNK,
      ...(checked === undefined ? {} : { checked }),
    }).bytes;
  }

  test("a file held whole is handed over as the very bytes it checked", async () => {
    const good = `${lines.join("\n")}\n`;
    const held = await readChecked(good);
    assert.equal(held.toString("utf8"), good);
    assert.equal(held.byteOffset, 0);
    assert.equal(held.buffer.byteLength, Buffer.byteLength(good));
    // An ArrayBuffer's, not a SharedArrayBuffer's: fastify sends only those as bytes (it serialised one over a SharedArrayBuffer as JSON).
    assert.ok(held.buffer instanceof ArrayBuffer);
  });

  test("given the file held before, a line it has is taken as checked, and every other line is checked", async () => {
    const broken = (i: number) => lines.map((line, at) => (at === i ? line.replace('"name":', '"nom":') : line));
    const held = await readChecked(`${lines.join("\n")}\n`);
    const previous = new SharedArrayBuffer(held.length);
    held.copy(Buffer.from(previous));
    await assert.rejects(
      readChecked(`${broken(4).join("\n")}\n`, undefined, previous),
      (error: unknown) => error instanceof ListingCheckError && error.message.startsWith("listing 5 of businesses.ndjson does not match"),
    );
    // A line is found by its id, and taken as checked only when it is the very line held before.
    const edited = lines.map((line, at) => (at === 2 ? line.replace('"name":"', '"name":"Renamed ') : line));
    assert.equal((await readChecked(`${edited.join("\n")}\n`, undefined, previous)).toString("utf8"), `${edited.join("\n")}\n`);
    // What was held before is trusted: a bad line held before passes (the loader hands over only files it checked).
    const trusted = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(`${broken(6).join("\n")}\n`)));
    trusted.write(`${broken(6).join("\n")}\n`);
    await readChecked(`${broken(6).join("\n")}\n`, undefined, trusted.buffer as SharedArrayBuffer);
    await assert.rejects(readChecked(`${broken(6).join("\n")}\n`, undefined, previous), /listing 7 of businesses\.ndjson/);
  });

  for (const bad of [0, 4, 8]) {
    test(`a file held whole names listing ${bad + 1} when it is the bad one`, async () => {
      const broken = lines.map((line, i) => (i === bad ? line.replace('"name":', '"nom":') : line));
      await assert.rejects(
        readChecked(`${broken.join("\n")}\n`),
        (error: unknown) =>
          error instanceof ListingCheckError &&
          !error.notTheFile &&
          error.message.startsWith(`listing ${bad + 1} of businesses.ndjson does not match the PublicBusiness schema`),
      );
    });
  }

  const notTheFile = (error: unknown) => error instanceof ListingCheckError && error.notTheFile;
  test("a file held whole is refused as not the manifest's when a block differs, or its size", async () => {
    const good = `${lines.join("\n")}\n`;
    await assert.rejects(readChecked(good.replace("Plumbing", "Plumbinh"), good), notTheFile);
    await assert.rejects(readChecked(`${good}${lines[0]}\n`, good), notTheFile);
    await assert.rejects(readChecked(good.slice(0, -1), good), notTheFile);
  });
});
