import assert from "node:assert/strict";
import { test } from "node:test";
import { directoryQueries } from "../../bench/queries.ts";
import { directorySearchKey, fingerprint, normalizeSearch, searchFingerprint } from "../../src/core/directory.ts";
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
