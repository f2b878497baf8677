import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { business, directoryPage, offering, offeringList, pageSearch } from "../../src/core/answers.ts";
import type { ApiError } from "../../src/core/errors.ts";
import { rankOf } from "../../src/snapshot/listing-lookup.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import type { Snapshot } from "../../src/snapshot/types.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
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

const search = (view: SnapshotView, query: Parameters<typeof pageSearch>[0]) => directoryPage(view, pageSearch(query));

describe("answers are serialised once: the catalog's per view, a listing's and a page's from the snapshot's own bytes", () => {
  test("the catalog and an offering are the same answer on every call, made again for a new view", () => {
    const view = new SnapshotView(snapshot);
    assert.equal(offeringList(view, undefined), offeringList(view, undefined));
    assert.equal(offering(view, "request-quotes"), offering(view, "request-quotes"));
    assert.equal(offeringList(view, "quotes"), offeringList(view, "quotes"));
    const next = new SnapshotView(snapshot);
    assert.notEqual(offeringList(next, undefined), offeringList(view, undefined));
    assert.ok(offeringList(next, undefined).body.equals(offeringList(view, undefined).body));
  });

  test("a listing's answer is its line of the snapshot's bytes, by slug or by id in any case, with its rank", () => {
    const view = new SnapshotView(snapshot);
    const bySlug = business(view, "joes-handyman");
    const listings = snapshot.directory?.listings;
    const rank = listings === undefined ? -1 : rankOf(listings, "joes-handyman");
    assert.ok(listings !== undefined && rank !== undefined && listings.bytes !== null);
    assert.equal(bySlug.rank, rank);
    const line = listings.bytes.subarray(listings.lineStarts[rank], (listings.lineStarts[rank + 1] ?? 0) - 1);
    assert.ok(bySlug.answer.body.equals(line), "the line as the snapshot holds it, not serialised again");
    assert.equal(bySlug.answer.body.buffer, listings.bytes.buffer, "a view of the loaded bytes, not a copy");
    for (const identifier of [bySlug.answer.value.id, bySlug.answer.value.id.toUpperCase()]) {
      const byId = business(view, identifier);
      assert.ok(byId.answer.body.equals(bySlug.answer.body));
      assert.equal(byId.rank, bySlug.rank);
    }
  });

  test("an answer's body is its value as JSON", () => {
    const view = new SnapshotView(snapshot);
    for (const found of [offeringList(view, undefined), business(view, "joes-handyman").answer, search(view, { q: "plumb" })]) {
      assert.equal(found.body.toString(), JSON.stringify(found.value));
    }
  });

  test("a directory page's escaped copy (MCP's text copy), spliced from escaped listings, is the body escaped whole", () => {
    const view = new SnapshotView(snapshot);
    for (const query of [{ q: "plumb" }, {}, { limit: 25, offset: 5 }, { q: "no-such-word" }, { country: "gb", limit: 1 }]) {
      // Twice: the second page is made from listings already escaped.
      for (let round = 0; round < 2; round += 1) {
        const page = search(view, query);
        assert.equal(`"${page.escaped.toString("utf8")}"`, JSON.stringify(page.body.toString("utf8")), JSON.stringify(query));
      }
    }
  });

  test("a directory page is made again on every call: answers that depend on a query are kept only by the answer cache", () => {
    const view = new SnapshotView(snapshot);
    const first = search(view, { q: "plumb" });
    const second = search(view, { q: "plumb" });
    assert.notEqual(second, first);
    assert.ok(second.body.equals(first.body));
  });
});

test("offerings search finds what the snapshot's own index finds, in catalog order, for every start of every indexed word and pairs of them", () => {
  const view = new SnapshotView(snapshot);
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
    const answer = offeringList(view, q);
    assert.equal(answer.body.toString(), JSON.stringify({ items: expected, total: expected.length }), JSON.stringify(q));
  }
});

test("lookups throw the REST errors: not_found for unknown slugs, directory_unavailable without directory data", () => {
  const view = new SnapshotView(snapshot);
  assert.throws(
    () => offering(view, "nope"),
    (error: ApiError) => error.code === "not_found" && error.status === 404,
  );
  assert.throws(
    () => business(view, "nope"),
    (error: ApiError) => error.code === "not_found",
  );
  const broken = new SnapshotView({ ...snapshot, directory: null });
  assert.throws(
    () => search(broken, {}),
    (error: ApiError) => error.code === "directory_unavailable" && error.facts.retryAfterSeconds === 30,
  );
  assert.equal(offeringList(broken, undefined).value.total, 3);
});
