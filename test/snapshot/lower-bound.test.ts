import assert from "node:assert/strict";
import { test } from "node:test";
import { lowerBound } from "../../src/snapshot/lower-bound.ts";

const sorted = [2, 4, 4, 4, 9];
const firstNotBelow = (value: number) => lowerBound(sorted.length, (i) => (sorted[i] as number) < value);

test("lowerBound finds the first entry not below the value, the first of equal entries included", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 9, 10].map(firstNotBelow), [0, 0, 1, 1, 4, 4, 5]);
});

test("lowerBound over nothing is 0, and never asks about a position", () => {
  assert.equal(
    lowerBound(0, () => {
      throw new Error("asked");
    }),
    0,
  );
});

test("lowerBound asks about positions inside [0, length) only, about log2(length) times", () => {
  const asked: number[] = [];
  const found = lowerBound(1000, (i) => {
    asked.push(i);
    return i < 637;
  });
  assert.equal(found, 637);
  assert.ok(asked.every((i) => i >= 0 && i < 1000));
  assert.equal(asked.length, 10);
});
