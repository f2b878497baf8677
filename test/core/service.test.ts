import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import etag from "etag";
import type { ApiError } from "../../src/core/errors.ts";
import { CatalogService } from "../../src/core/service.ts";
import { rankOf } from "../../src/snapshot/listing-lookup.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import type { Snapshot } from "../../src/snapshot/types.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

let snapshot: Snapshot;
let cleanup: () => Promise<void>;

before(async () => {
  const work = await tempDir();
  cleanup = work.remove;
  await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
  snapshot = await loadSnapshot(join(work.path, "dist"));
});
after(() => cleanup());

describe("the service-side result cache", () => {
  test("answers a repeated search from the cache, also when it is spelled differently but means the same", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 60 });
    const first = service.searchBusinesses({ q: "plumb" });
    assert.equal(service.searchBusinesses({ q: "plumb", limit: 10, offset: 0 }), first);
    assert.equal(service.searchBusinesses({ q: " PLUMB " }), first);
    assert.notEqual(service.searchBusinesses({ q: "plumb", limit: 1 }), first);
    assert.equal(service.searchOfferings("quotes"), service.searchOfferings("quotes"));
  });

  test("keeps answers in memory of their own, not in the slab their page was cut from", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 60 });
    const kept = service.searchBusinesses({ q: "plumb" });
    assert.equal(kept.body.byteLength, kept.body.buffer.byteLength);
    const uncached = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 }).searchBusinesses({ q: "plumb" });
    assert.ok(uncached.body.buffer.byteLength > uncached.body.byteLength, "an uncached page is a slice of a slab");
    assert.ok(uncached.body.equals(kept.body));
  });

  test("a directory page's escaped copy (MCP's text copy), spliced from escaped listings, is the body escaped whole", () => {
    for (const cacheSeconds of [0, 60]) {
      const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds });
      for (const search of [{ q: "plumb" }, {}, { limit: 25, offset: 5 }, { q: "no-such-word" }, { country: "gb", limit: 1 }]) {
        // Twice: the second page is made from listings already escaped.
        for (let round = 0; round < 2; round += 1) {
          const page = service.searchBusinesses(search);
          assert.equal(`"${page.escaped.toString("utf8")}"`, JSON.stringify(page.body.toString("utf8")), JSON.stringify(search));
        }
      }
    }
  });

  test("is off with CACHE_SECONDS=0: every search is computed again", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
    const first = service.searchBusinesses({ q: "plumb" });
    const second = service.searchBusinesses({ q: "plumb" });
    assert.notEqual(second, first);
    assert.deepEqual(second, first);
  });

  test("forgets everything when the snapshot changes", () => {
    let current = snapshot;
    const service = new CatalogService({ snapshot: () => current, cacheSeconds: 60 });
    const first = service.searchBusinesses({});
    current = { ...snapshot };
    assert.notEqual(service.searchBusinesses({}), first);
  });
});

describe("answers are serialised once: the catalog's per snapshot, a listing's and a page's from the snapshot's own bytes", () => {
  test("the catalog and an offering are the same answer on every call, with the cache off too", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
    assert.equal(service.searchOfferings(undefined), service.searchOfferings(undefined));
    assert.equal(service.getOffering("request-quotes"), service.getOffering("request-quotes"));
  });

  test("a listing's answer is its line of the snapshot's bytes, by slug or by id in any case, with one tag", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
    const bySlug = service.getBusiness("joes-handyman");
    const listings = snapshot.directory?.listings;
    const rank = listings === undefined ? -1 : rankOf(listings, "joes-handyman");
    assert.ok(listings !== undefined && rank !== undefined && listings.bytes !== null);
    const line = listings.bytes.subarray(listings.lineStarts[rank], (listings.lineStarts[rank + 1] ?? 0) - 1);
    assert.ok(bySlug.body.equals(line), "the line as the snapshot holds it, not serialised again");
    assert.equal(bySlug.body.buffer, listings.bytes.buffer, "a view of the loaded bytes, not a copy");
    for (const identifier of [bySlug.value.id, bySlug.value.id.toUpperCase()]) {
      const byId = service.getBusiness(identifier);
      assert.ok(byId.body.equals(bySlug.body));
      assert.equal(byId.etag, bySlug.etag);
    }
  });

  test("an answer's body is its value as JSON; the catalog's tag hashes it, a directory answer's names the snapshot", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 60 });
    const catalog = service.searchOfferings(undefined);
    assert.equal(catalog.body.toString(), JSON.stringify(catalog.value));
    assert.equal(catalog.etag, etag(catalog.body));
    const version = snapshot.manifest.version;
    for (const found of [service.getBusiness("joes-handyman"), service.searchBusinesses({ q: "plumb" })]) {
      assert.equal(found.body.toString(), JSON.stringify(found.value));
      assert.match(found.etag, new RegExp(`^"${version}-[0-9a-z]+"$`));
    }
  });
});

test("offerings search finds what the snapshot's own index finds, in catalog order, for every start of every indexed word and pairs of them", () => {
  const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
  const { index, offerings } = snapshot.catalog;
  const indexed = index.toJSON().index.map(([word]) => word);
  const queries = ["", " ", "\u0301", "Café", "QUOTES", "o'brien", "quote quote", "zzz", "a-b"];
  for (const word of indexed) for (let end = 1; end <= word.length; end += 1) queries.push(word.slice(0, end));
  for (const [i, word] of indexed.entries()) queries.push(`${word.slice(0, 3)} ${(indexed[(i * 7) % indexed.length] ?? "").slice(0, 2)}`);
  for (const q of queries) {
    const found = index
      .search(q)
      .map((result) => result.id as number)
      .sort((a, b) => a - b)
      .map((position) => offerings[position]);
    const expected = q.trim() === "" ? [...offerings] : found;
    const answer = service.searchOfferings(q);
    assert.equal(answer.body.toString(), JSON.stringify({ items: expected, total: expected.length }), JSON.stringify(q));
    assert.equal(answer.etag, etag(answer.body));
  }
});

test("lookups throw the REST errors: not_found for unknown slugs, directory_unavailable without directory data", () => {
  const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
  assert.throws(
    () => service.getOffering("nope"),
    (error: ApiError) => error.code === "not_found" && error.status === 404,
  );
  assert.throws(
    () => service.getBusiness("nope"),
    (error: ApiError) => error.code === "not_found",
  );
  const broken = new CatalogService({ snapshot: () => ({ ...snapshot, directory: null }), cacheSeconds: 0 });
  assert.throws(
    () => broken.searchBusinesses({}),
    (error: ApiError) => error.code === "directory_unavailable" && error.headers["retry-after"] === "30",
  );
  assert.equal(broken.searchOfferings(undefined).value.total, 3);
});
