import assert from "node:assert/strict";
import { test } from "node:test";
import { combined, cpuMicrosPerRequest, type LoadResult } from "../../bench/load.ts";

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
