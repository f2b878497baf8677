import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { fstatSync } from "node:fs";
import { rename, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ListingShapeError, rankOf, slugAt } from "../../src/snapshot/listing-lookup.ts";
import { bytesAt, copyLine, lineAt } from "../../src/snapshot/listings.ts";
import { listingStore } from "../../src/snapshot/listings-in-memory.ts";
import {
  checkListingFile,
  closeListingStore,
  holdListingFile,
  ListingReadError,
  listingStoreOnDisk,
  retireListingStore,
} from "../../src/snapshot/listings-on-disk.ts";
import { RecentLines } from "../../src/snapshot/recent-lines.ts";
import { tempDir } from "../helpers/snapshot.ts";

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const line = (n: number, slug: string) => JSON.stringify({ id: ID(n), slug, name: `Listing ${n}` });
const ndjson = (...lines: string[]) => Buffer.from(lines.map((text) => `${text}\n`).join(""));

describe("the listing store", () => {
  const slugs = ["apex-electrical", "joes-handyman", "24-7-locksmiths", "a", "b"];
  const store = listingStore(ndjson(...slugs.map((slug, rank) => line(rank, slug))), slugs.length);

  test("finds every listing's rank by its slug and by its id", () => {
    for (const [rank, slug] of slugs.entries()) {
      assert.equal(rankOf(store, slug), rank, slug);
      assert.equal(rankOf(store, ID(rank)), rank, ID(rank));
    }
  });

  test("finds nothing for an unknown identifier, a prefix of a slug, or a slug with more after it", () => {
    for (const identifier of ["unknown", "apex", "apex-electrical-2", "", ID(9)])
      assert.equal(rankOf(store, identifier), undefined, identifier);
  });

  test("reads each listing's slug from its line, and where each line starts", () => {
    assert.deepEqual(
      slugs.map((_, rank) => slugAt(store, rank)),
      slugs,
    );
    assert.equal(store.lineStarts[0], 0);
    assert.equal(store.lineStarts[1], line(0, slugs[0] ?? "").length + 1);
    assert.equal(store.lineStarts[slugs.length], store.bytes?.length);
  });

  test("holds thousands of listings, probing past each other's keys without taking them for duplicates", () => {
    const many = Array.from({ length: 5000 }, (_, rank) => `listing-${rank}`);
    const big = listingStore(ndjson(...many.map((slug, rank) => line(rank, slug))), many.length);
    for (const [rank, slug] of many.entries()) {
      assert.equal(rankOf(big, slug), rank);
      assert.equal(rankOf(big, ID(rank)), rank);
    }
  });

  test("takes no listing for a duplicate of itself when its id's slot is taken by its slug", () => {
    // One listing, a table of four slots: its slug and id often hash to the same one.
    for (let n = 0; n < 64; n += 1) assert.equal(rankOf(listingStore(ndjson(line(n, `solo-${n}`)), 1), ID(n)), 0);
  });

  test("holds an empty directory", () => {
    const empty = listingStore(Buffer.alloc(0), 0);
    assert.equal(empty.count, 0);
    assert.equal(rankOf(empty, "anything"), undefined);
  });
});

/** Files the store must refuse: what is wrong, the bytes, the listings the index counts, the message. */
const REFUSED: [string, Buffer, number, RegExp][] = [
  ["fewer lines than the index counts", ndjson(line(0, "a")), 2, /^businesses\.ndjson holds 1 listings, the index 2\.$/],
  [
    "more lines than the index counts",
    ndjson(line(0, "a"), line(1, "b")),
    1,
    /^businesses\.ndjson holds more listings than the index's 1\.$/,
  ],
  ["a last line without its newline", Buffer.from(line(0, "a")), 1, /^businesses\.ndjson holds 0 listings, the index 1\.$/],
  [
    "a line that does not start with its id",
    ndjson(JSON.stringify({ slug: "a", id: ID(0) })),
    1,
    /^listing 1 of .* does not start with its id and slug\.$/,
  ],
  [
    "an id that is not 36 characters",
    ndjson(JSON.stringify({ id: "short", slug: "a" })),
    1,
    /^listing 1 of .* does not start with its id and slug\.$/,
  ],
  [
    "a slug that does not end on its line",
    ndjson(`{"id":"${ID(0)}","slug":"a`, '"}'),
    1,
    /^listing 1 of .* does not start with its id and slug\.$/,
  ],
];

describe("the listing store refuses bytes it cannot rely on", () => {
  for (const [label, bytes, count, message] of REFUSED) {
    test(`when it holds ${label}`, () => {
      assert.throws(
        () => listingStore(bytes, count),
        (error: unknown) => error instanceof ListingShapeError && message.test(error.message),
      );
    });
  }
});

describe("the listing store reading its lines from disk", () => {
  // Slugs of many lengths, so that lines cross chunk boundaries at every offset.
  const slugs = Array.from({ length: 300 }, (_, rank) => `listing-${"x".repeat(rank % 37)}-${rank}`);
  const bytes = ndjson(...slugs.map((slug, rank) => line(rank, slug)));
  const held = listingStore(bytes, slugs.length);
  let work: Awaited<ReturnType<typeof tempDir>>;
  let path = "";
  before(async () => {
    work = await tempDir();
    path = join(work.path, "businesses.ndjson");
  });
  after(() => work.remove());

  // 16 bytes: a chunk shorter than any line, so the buffer must grow to hold one.
  for (const chunkBytes of [16, 4096]) {
    test(`holds the same lines, slugs and ids as the store held whole, reading ${chunkBytes} bytes at a time`, async () => {
      await writeFile(path, bytes);
      const { store, sha256 } = await listingStoreOnDisk(path, slugs.length, chunkBytes);
      assert.equal(store.bytes, null);
      assert.equal(sha256, createHash("sha256").update(bytes).digest("hex"));
      assert.deepEqual(store.lineStarts, held.lineStarts);
      for (const [rank, slug] of slugs.entries()) {
        assert.equal(slugAt(store, rank), slug);
        assert.equal(rankOf(store, slug), rank);
        assert.equal(rankOf(store, ID(rank)), rank);
        assert.deepEqual(lineAt(store, rank), lineAt(held, rank));
      }
      assert.equal(rankOf(store, "listing-"), undefined);
      assert.deepEqual(await bytesAt(store, 5, 5000), bytes.subarray(5, 5000));
    });
  }

  test("copies a line into a larger buffer where it is told, as the store held whole does", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    const fromDisk = Buffer.alloc(200, 0x20);
    const fromMemory = Buffer.alloc(200, 0x20);
    assert.equal(copyLine(store, 7, fromDisk, 3), copyLine(held, 7, fromMemory, 3));
    assert.deepEqual(fromDisk, fromMemory);
  });

  test("holds an empty directory", async () => {
    await writeFile(path, "");
    const { store } = await listingStoreOnDisk(path, 0);
    assert.equal(store.count, 0);
    assert.equal(rankOf(store, "anything"), undefined);
  });

  for (const [label, refused, count, message] of REFUSED) {
    test(`refuses a file that holds ${label}, with the same message`, async () => {
      await writeFile(path, refused);
      await assert.rejects(
        listingStoreOnDisk(path, count, 16),
        (error: unknown) => error instanceof ListingShapeError && message.test(error.message),
      );
    });
  }

  test("still reads the lines it loaded after the file is replaced by another, as a build replaces dist/", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    await writeFile(`${path}.next`, ndjson(line(0, "another")));
    await rename(`${path}.next`, path);
    assert.deepEqual(lineAt(store, 299), lineAt(held, 299));
  });

  test("keeps a line it has read: asked again, it answers the line as loaded without reading the file", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    const first = lineAt(store, 1);
    await writeFile(path, bytes.toString("latin1").replace("listing-x-1", "listing-y-1"), "latin1");
    assert.equal(lineAt(store, 1), first);
    assert.deepEqual(first, lineAt(held, 1));
  });

  /** Whether descriptor `fd` is open in this process (nothing opens a file between a close and this check). */
  const isOpen = (fd: number) => {
    try {
      fstatSync(fd);
      return true;
    } catch {
      return false;
    }
  };
  const replaced = (error: unknown) =>
    error instanceof ListingReadError && error.message === "businesses.ndjson was closed: a newer snapshot replaced this one.";

  test("retired with no stream reading it, it closes its file at once and refuses to read it again", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    const fd = store.file?.fd ?? -1;
    const kept = lineAt(store, 4);
    retireListingStore(store);
    assert.equal(isOpen(fd), false);
    // A line already read is still answered from memory; nothing is read from the closed descriptor.
    assert.equal(lineAt(store, 4), kept);
    assert.throws(() => lineAt(store, 5), replaced);
    assert.throws(() => checkListingFile(store), replaced);
    await assert.rejects(bytesAt(store, 0, 10), replaced);
    // Closing it again (a refused snapshot's path) does nothing.
    closeListingStore(store);
    retireListingStore(store);
  });

  test("retired while streams read it, it keeps its file open until the last of them lets go", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    const fd = store.file?.fd ?? -1;
    const first = holdListingFile(store);
    const second = holdListingFile(store);
    retireListingStore(store);
    assert.deepEqual(await bytesAt(store, 0, bytes.length), bytes);
    first();
    // Letting go twice counts once.
    first();
    assert.equal(isOpen(fd), true);
    assert.deepEqual(lineAt(store, 299), lineAt(held, 299));
    second();
    assert.equal(isOpen(fd), false);
    assert.throws(() => lineAt(store, 298), replaced);
  });

  test("a stream that lets go of a store still in service leaves its file open", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    holdListingFile(store)();
    assert.equal(isOpen(store.file?.fd ?? -1), true);
    assert.deepEqual(lineAt(store, 0), lineAt(held, 0));
    closeListingStore(store);
  });

  test("refuses to read a line of a file changed in place since it was loaded", async () => {
    await writeFile(path, bytes);
    const { store } = await listingStoreOnDisk(path, slugs.length);
    await writeFile(path, bytes.toString("latin1").replace("listing-x-1", "listing-y-1"), "latin1");
    assert.throws(
      () => lineAt(store, 1),
      (error: unknown) => error instanceof ListingReadError && error.message === "businesses.ndjson has changed since it was loaded.",
    );
    assert.deepEqual(lineAt(store, 2), lineAt(held, 2));
    // Its id and slug intact, but longer: it no longer ends where it did.
    await writeFile(path, bytes.toString("latin1").replace('"name":"Listing 3"', '"name":"Listing 33"'), "latin1");
    assert.throws(
      () => lineAt(store, 3),
      (error: unknown) => error instanceof ListingReadError && error.message === "businesses.ndjson has changed since it was loaded.",
    );
    assert.throws(
      () => checkListingFile(store),
      (error: unknown) => error instanceof ListingReadError && error.message === "businesses.ndjson has changed since it was loaded.",
    );
    await truncate(path, held.lineStarts[250]);
    assert.throws(
      () => lineAt(store, 260),
      (error: unknown) => error instanceof ListingReadError && error.message === "businesses.ndjson is shorter than when it was loaded.",
    );
  });
});

describe("lines kept from disk", () => {
  /** Keeps `text` as the line of `rank` as the store does: read with its newline into room, kept without it. */
  const put = (recent: RecentLines, rank: number, text: string) => {
    const room = recent.room(text.length + 1);
    room.write(`${text}\n`, "latin1");
    return recent.keep(rank, room, text.length);
  };

  test("are bounded in bytes: the store starts afresh when the next line would pass the bound", () => {
    const recent = new RecentLines(4, 10);
    const a = put(recent, 0, "aaaa");
    const b = put(recent, 1, "bbbbbb");
    assert.deepEqual([recent.get(0), recent.get(1)], [Buffer.from("aaaa"), Buffer.from("bbbbbb")]);
    const c = put(recent, 2, "c");
    assert.deepEqual([recent.get(0), recent.get(1), recent.get(2)], [undefined, undefined, Buffer.from("c")]);
    // Lines given out before are never written over.
    assert.deepEqual([a.toString(), b.toString(), c.toString()], ["aaaa", "bbbbbb", "c"]);
  });

  test("are never written over when their memory runs into a new chunk, nor when a line is larger than a chunk", () => {
    const recent = new RecentLines(4);
    const texts = ["a".repeat(600_000), "b".repeat(600_000), "c".repeat(1_500_000), "d".repeat(10)];
    const lines = texts.map((text, rank) => put(recent, rank, text));
    // An abandoned room (a read that failed) is given again, and nothing kept is touched.
    recent.room(100).fill(0x7a);
    assert.deepEqual(
      lines.map((line) => line.toString()),
      texts,
    );
    assert.deepEqual(
      texts.map((_, rank) => recent.get(rank)?.toString()),
      texts,
    );
  });
});
