import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import etag from "etag";
import type { ApiError } from "../../src/core/errors.ts";
import { CatalogService } from "../../src/core/service.ts";
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

describe("answers that depend only on the snapshot are serialised once for it", () => {
  test("the catalog, an offering and a listing (by slug or id) are the same answer on every call, with the cache off too", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 0 });
    assert.equal(service.searchOfferings(undefined), service.searchOfferings(undefined));
    const offering = service.getOffering("request-quotes");
    assert.equal(service.getOffering("request-quotes"), offering);
    const business = service.getBusiness("joes-handyman");
    assert.equal(service.getBusiness("joes-handyman"), business);
    assert.equal(service.getBusiness(business.value.id), business);
    assert.equal(service.getBusiness(business.value.id.toUpperCase()), business);
  });

  test("an answer's JSON is its value serialised, and its ETag the strong tag of that JSON", () => {
    const service = new CatalogService({ snapshot: () => snapshot, cacheSeconds: 60 });
    for (const answer of [
      service.searchOfferings(undefined),
      service.getBusiness("joes-handyman"),
      service.searchBusinesses({ q: "plumb" }),
    ]) {
      assert.equal(answer.json, JSON.stringify(answer.value));
      assert.equal(answer.etag, etag(answer.json));
    }
  });

  test("a new snapshot gets new answers", () => {
    let current = snapshot;
    const service = new CatalogService({ snapshot: () => current, cacheSeconds: 0 });
    const catalog = service.searchOfferings(undefined);
    const business = service.getBusiness("joes-handyman");
    current = { ...snapshot };
    assert.notEqual(service.searchOfferings(undefined), catalog);
    assert.notEqual(service.getBusiness("joes-handyman"), business);
    assert.deepEqual(service.getBusiness("joes-handyman"), business);
  });
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
