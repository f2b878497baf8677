import assert from "node:assert/strict";
import { test } from "node:test";
import { allocateBody, compact } from "../../src/core/slab.ts";

test("bodies cut from a slab do not overlap, start 8-byte aligned, and keep their bytes", () => {
  const bodies = [5, 4096, 1, 7000, 13, 20_000].map((length, i) => allocateBody(length).fill(i + 1));
  for (const [i, body] of bodies.entries()) {
    assert.ok(
      body.every((byte) => byte === i + 1),
      `body ${i} was overwritten`,
    );
    assert.equal(body.byteOffset % 8, 0);
  }
});

test("a body too large for a slab gets memory of its own, and so does a compacted slice", () => {
  const large = allocateBody(100_000);
  assert.equal(large.byteLength, large.buffer.byteLength);
  const slice = allocateBody(100).fill(7);
  assert.ok(slice.buffer.byteLength > slice.byteLength);
  const kept = compact(slice);
  assert.equal(kept.byteLength, kept.buffer.byteLength);
  assert.ok(kept.equals(slice));
  assert.equal(compact(kept), kept);
});
