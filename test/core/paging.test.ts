import assert from "node:assert/strict";
import { test } from "node:test";
import { page } from "../../src/core/paging.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test("page slices [offset, offset + limit) and points to the next page while more items exist", () => {
  const cases: [number, number, number, number[], number | null][] = [
    // total, offset, limit, items, nextOffset
    [5, 0, 2, [0, 1], 2],
    [5, 2, 2, [2, 3], 4],
    [5, 4, 2, [4], null],
    [4, 2, 2, [2, 3], null],
    [5, 9, 2, [], null],
    [0, 0, 10, [], null],
  ];
  for (const [total, offset, limit, items, nextOffset] of cases) {
    assert.deepEqual(page(range(total), offset, limit), { items, limit, offset, nextOffset }, `${total}/${offset}/${limit}`);
  }
});

test("nextOffset never passes the 1000 browsing limit", () => {
  assert.equal(page(range(2000), 950, 25).nextOffset, 975);
  assert.equal(page(range(2000), 975, 25).nextOffset, 1000);
  assert.equal(page(range(2000), 990, 25).nextOffset, null);
  assert.equal(page(range(2000), 1000, 25).nextOffset, null);
  assert.deepEqual(page(range(2000), 1000, 2).items, [1000, 1001]);
});
