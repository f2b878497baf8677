import assert from "node:assert/strict";
import { test } from "node:test";
import { AnswerCache, AnswerCacheStats, answerCachePart, type Kept, kept } from "../../src/core/answer-cache.ts";
import { allocateBody } from "../../src/core/slab.ts";
import type { Snapshot } from "../../src/snapshot/types.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";

/** An answer of `bytes` bytes, its first filled with `mark`. */
function answer(bytes: number, mark: number): Kept {
  const body = Buffer.alloc(bytes, mark % 256);
  return { body, headers: [["etag", `"${mark}"`]] };
}

test("the cache's bytes stay within its bound under a stream of distinct large answers, and the latest answers stay", () => {
  const maxBytes = 256 * 1024;
  const stats = new AnswerCacheStats();
  const cache = new AnswerCache({ seconds: 60, maxBytes, stats });
  let largest = 0;
  for (let i = 0; i < 2000; i += 1) {
    // 20 to 60 KB each: a cache bounded by entries, not bytes, would hold far more than the bound.
    cache.keep(`answer ${i}`, answer(20_000 + ((i * 7919) % 40_000), i));
    largest = Math.max(largest, cache.bytes);
    assert.ok(cache.bytes <= maxBytes, `${cache.bytes} bytes after ${i + 1} answers`);
  }
  assert.ok(largest > maxBytes / 2, "the cache filled up to its bound");
  assert.ok(cache.find("answer 1999") !== undefined, "the latest answer is kept");
  assert.equal(cache.find("answer 0"), undefined, "the oldest was let go");
  assert.deepEqual([stats.hits, stats.misses], [1, 1]);
});

test("an answer is kept in memory of its own, not in the slab its body was cut from", () => {
  const cache = new AnswerCache({ seconds: 60, maxBytes: 2 ** 20, stats: new AnswerCacheStats() });
  const body = allocateBody(1000).fill(7);
  assert.ok(body.buffer.byteLength > body.byteLength, "a body cut from a slab");
  const stored = cache.keep("a", { body, headers: [] });
  assert.equal(stored.body.byteLength, stored.body.buffer.byteLength);
  assert.ok(stored.body.equals(body));
});

test("kept() makes an answer once while it is kept, and every time with the cache off; a failure is never kept", () => {
  const cache = new AnswerCache({ seconds: 60, maxBytes: 2 ** 20, stats: new AnswerCacheStats() });
  let made = 0;
  const make = () => {
    made += 1;
    return answer(10, made);
  };
  const first = kept(cache, "k", make);
  assert.equal(kept(cache, "k", make), first);
  assert.equal(made, 1);
  kept(null, "k", make);
  kept(null, "k", make);
  assert.equal(made, 3);
  assert.throws(() =>
    kept(cache, "failing", () => {
      throw new Error("no answer");
    }),
  );
  assert.equal(cache.find("failing"), undefined);
});

test("each view has a cache of its own, empty when the view is made, and none with CACHE_SECONDS=0", () => {
  const stats = new AnswerCacheStats();
  const part = answerCachePart({ seconds: 60, maxBytes: 2 ** 20, stats });
  const snapshot = {} as Snapshot;
  const old = new SnapshotView(snapshot);
  old.get(part)?.keep("search", answer(100, 1));
  const next = new SnapshotView(snapshot);
  assert.equal(next.get(part)?.find("search"), undefined, "a new view answers nothing from the old one's cache");
  assert.equal(stats.current, next.get(part), "the counts follow the newest cache");
  assert.equal(new SnapshotView(snapshot).get(answerCachePart({ seconds: 0, maxBytes: 2 ** 20, stats })), null);
});
