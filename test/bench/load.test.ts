import assert from "node:assert/strict";
import { test } from "node:test";
import { combined, cpuMicrosPerRequest, type LoadResult, zipfRanks } from "../../bench/load.ts";

const turn = (requests: number, cpuSeconds?: number): LoadResult => ({
  requests,
  perSecond: requests / 2,
  p50: 1,
  p99: 4,
  non2xx: 0,
  errors: 0,
  bytesPerRequest: 100,
  ...(cpuSeconds === undefined ? {} : { cpuSeconds }),
});

test("a scenario's server CPU time is the sum of its turns', and per request over all their requests", () => {
  const result = combined([turn(30_000, 0.9), turn(10_000, 0.5)]);
  assert.equal(result.cpuSeconds, 1.4);
  assert.equal(cpuMicrosPerRequest(result), 35);
});

test("CPU time per request is not a figure when a turn had no process to read it from", () => {
  const result = combined([turn(30_000, 0.9), turn(10_000)]);
  assert.equal(result.cpuSeconds, undefined);
  assert.ok(Number.isNaN(cpuMicrosPerRequest(result)));
});

test("the as-deployed stream draws searches by Zipf's law: rank r about 1/(r+1) as often as the first, the same for the same seed", () => {
  const count = 20_000;
  const draws = 200_000;
  const again = zipfRanks(count, 1, 1234);
  const seen = new Uint32Array(count);
  const sequence: number[] = [];
  for (let i = 0; i < draws; i += 1) {
    const rank = again();
    seen[rank] = (seen[rank] ?? 0) + 1;
    if (i < 5) sequence.push(rank);
  }
  const replay = zipfRanks(count, 1, 1234);
  assert.deepEqual(
    Array.from({ length: 5 }, () => replay()),
    sequence,
  );
  // H(20,000) ≈ 10.48: the first search is about 9.5% of the stream, the tenth about a tenth of that.
  const first = (seen[0] ?? 0) / draws;
  assert.ok(Math.abs(first - 1 / 10.48) < 0.005, `first: ${first}`);
  assert.ok(Math.abs((seen[9] ?? 0) / (seen[0] ?? 1) - 0.1) < 0.02, `tenth: ${(seen[9] ?? 0) / (seen[0] ?? 1)}`);
  assert.equal(
    seen.reduce((sum, value) => sum + value, 0),
    draws,
    "every draw is a rank of the list",
  );
});
