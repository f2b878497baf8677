import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ListingShapeError, listingStore, rankOf, slugAt } from "../../src/snapshot/listings.ts";

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
    assert.equal(store.lineStarts[slugs.length], store.bytes.length);
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

describe("the listing store refuses bytes it cannot rely on", () => {
  const cases: [string, Buffer, number, RegExp][] = [
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
  for (const [label, bytes, count, message] of cases) {
    test(`when it holds ${label}`, () => {
      assert.throws(
        () => listingStore(bytes, count),
        (error: unknown) => error instanceof ListingShapeError && message.test(error.message),
      );
    });
  }
});
