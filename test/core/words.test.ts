import assert from "node:assert/strict";
import { test } from "node:test";
import { words } from "../../src/snapshot/text.ts";

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
