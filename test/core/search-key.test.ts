import assert from "node:assert/strict";
import { test } from "node:test";
import { directoryQueries } from "../../bench/queries.ts";
import { directorySearchKey, fingerprint, normalizeSearch, RecentSets, searchFingerprint } from "../../src/core/directory.ts";
import { words } from "../../src/snapshot/text.ts";

/**
 * The entity tag of a directory answer is hashed from the search's parts without building its
 * key; it must be the fingerprint of the key itself (tags already given to clients stay valid).
 */
test("searchFingerprint is the fingerprint of the search key", () => {
  const searches = [
    ...directoryQueries(300, 3),
    {},
    { q: "" },
    { q: "  " },
    { q: "!!" },
    { q: "café Straße O'Brien", location: " Düsseldorf ", country: "de", limit: 100, offset: 1000 },
    { q: "b b a", location: "", country: "" },
  ];
  for (const query of searches) {
    const search = normalizeSearch({ ...query, limit: query.limit ?? 25, offset: query.offset ?? 0 });
    assert.equal(searchFingerprint(search), fingerprint(directorySearchKey(search)), JSON.stringify(query));
  }
});

test("words of printable ASCII: runs of letters and digits, joined across apostrophes", () => {
  const cases: [string, string[]][] = [
    ["", []],
    ["plumb", ["plumb"]],
    ["  O'Brien  & Sons-Ltd. ", ["OBrien", "Sons", "Ltd"]],
    ["a''b", ["ab"]],
    ["'", []],
    ["a ' b", ["a", "b"]],
    ["24/7 x_y", ["24", "7", "x", "y"]],
    ["end'", ["end"]],
  ];
  for (const [text, expected] of cases) assert.deepEqual(words(text), expected, text);
});

test("RecentSets holds at most its bound, and keeps the sets used since the last turnover", () => {
  // Each set below counts 64 + 4 bytes; a bound of 680 bytes is two generations of 5 sets.
  const set = () => ({ kind: "sorted" as const, ranks: new Uint32Array(1) });
  const cache = new RecentSets(680);
  const sets = Array.from({ length: 20 }, set);
  for (let i = 0; i < 5; i += 1) cache.set(`k${i}`, sets[i] as never);
  for (let i = 0; i < 5; i += 1) assert.equal(cache.get(`k${i}`), sets[i], `k${i} kept`);
  // Five more fill a new generation; k0 is used meanwhile, so it survives the next turnover.
  for (let i = 5; i < 10; i += 1) cache.set(`k${i}`, sets[i] as never);
  assert.equal(cache.get("k0"), sets[0]);
  for (let i = 10; i < 14; i += 1) cache.set(`k${i}`, sets[i] as never);
  assert.equal(cache.get("k0"), sets[0], "a set used recently is kept");
  assert.equal(cache.get("k1"), undefined, "a set unused for two generations is dropped");
  let held = 0;
  for (let i = 0; i < 14; i += 1) if (cache.get(`k${i}`) !== undefined) held += 1;
  assert.ok(held <= 10, `at most two generations are held (${held})`);
});
