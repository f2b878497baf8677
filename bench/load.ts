/**
 * One load test, run as its own process so the load generator does not share the benchmark's
 * event loop: autocannon against 127.0.0.1, then one JSON line of results on stdout. The
 * scenario comes as a JSON file named by argv[2].
 *
 * After an unmeasured warm-up of each, the yardstick (when given) and the scenario take turns:
 * `rounds` times the yardstick for `yardstickSeconds`, then the scenario for `seconds / rounds`
 * on each server compared, the servers' order alternating from round to round. This machine's
 * speed drifts within a minute, so each is measured in the same seconds as the others rather
 * than one after the other. Every run stops by itself.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { lowerBound } from "../src/snapshot/lower-bound.ts";
import { random } from "./generate.ts";

/** What one autocannon run sends. */
export interface Target {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Cycled in order by every connection. */
  readonly requests: readonly { method: "GET" | "POST"; path: string; body?: string; headers?: Record<string, string> }[];
  readonly headers: Record<string, string>;
  /** The server's process, when one process answers: its CPU time is read around each turn. */
  readonly pid?: number;
  /**
   * When given, each request is drawn from `requests` (the most asked first) by a seeded Zipf law
   * of this exponent, one stream for every connection, as real traffic asks a few searches very
   * often and most rarely; otherwise every connection cycles through `requests` in order.
   */
  readonly zipf?: { readonly seed: number; readonly exponent: number };
}

/** How long and how hard a scenario is driven: the same for every scenario of a run. */
export interface Pacing {
  readonly connections: number;
  /** Load first run for this long and not measured: the server's JIT and index caches warm up, as on a server in service. */
  readonly warmupSeconds: number;
  /** The scenario's measured time, in `rounds` equal turns (whole seconds each). */
  readonly seconds: number;
  readonly rounds: number;
  readonly yardstickSeconds: number;
}

export interface LoadSpec extends Pacing {
  /** The same scenario on each server compared (one, or the current server's and another's). */
  readonly targets: readonly Target[];
  /** The bare route the scenario is compared with, measured for `yardstickSeconds` before each round of turns. */
  readonly yardstick?: Target;
}

export interface LoadResult {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly bytesPerRequest: number;
  /**
   * The server's CPU time over the measured turns, in seconds (user and system, every thread):
   * what its answers cost, whatever share of the machine the host, autocannon and the bare route
   * left it. Absent when the target named no process.
   */
  readonly cpuSeconds?: number;
}

/** The scenario's result on each target, in the spec's order, and, when a yardstick was given, the yardstick's over the same rounds. */
export interface LoadOutput {
  readonly results: readonly LoadResult[];
  readonly yardstick?: LoadResult;
}

/** One autocannon run's figures. */
function resultOf(run: autocannon.Result): LoadResult {
  return {
    requests: run.requests.total,
    perSecond: run.requests.average,
    p50: run.latency.p50,
    p99: run.latency.p99,
    non2xx: run.non2xx,
    errors: run.errors + run.timeouts,
    bytesPerRequest: run.requests.total === 0 ? 0 : Math.round(run.throughput.total / run.requests.total),
  };
}

/** A seeded Zipf law over ranks 0 … count-1: rank r drawn with a weight of 1 / (r + 1)^exponent. */
export function zipfRanks(count: number, exponent: number, seed: number): () => number {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank += 1) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  const next = random(seed);
  return () => {
    const drawn = next() * total;
    return Math.min(
      count - 1,
      lowerBound(count, (rank) => (cumulative[rank] as number) < drawn),
    );
  };
}

/** autocannon's requests for `target`: its list cycled in order, or one request that draws each from the list by its Zipf stream. */
function requestsOf(target: Target, streams: Map<Target, () => number>): Record<string, unknown>[] {
  const { zipf } = target;
  if (zipf === undefined) return target.requests.map((request) => ({ ...request }));
  let draw = streams.get(target);
  if (draw === undefined) {
    draw = zipfRanks(target.requests.length, zipf.exponent, zipf.seed);
    streams.set(target, draw);
  }
  const next = draw;
  return [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, ...target.requests[next()] }) }];
}

/** Clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far in seconds (utime + stime of /proc/<pid>/stat), or undefined where there is no /proc. */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // Fields after the command's closing parenthesis, from the third (state): utime is the 14th field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** A result's server CPU time per request, in microseconds; NaN when it was not measured. */
export function cpuMicrosPerRequest(result: LoadResult): number {
  return result.cpuSeconds === undefined || result.requests === 0 ? Number.NaN : (result.cpuSeconds * 1e6) / result.requests;
}

/** Several measurements of one target as one: rates and medians averaged, the worst p99, counts summed. */
export function combined(results: readonly LoadResult[]): LoadResult {
  const sum = (pick: (result: LoadResult) => number) => results.reduce((total, result) => total + pick(result), 0);
  const requests = sum((result) => result.requests);
  const cpu = results.every((result) => result.cpuSeconds !== undefined) ? { cpuSeconds: sum((result) => result.cpuSeconds ?? 0) } : {};
  return {
    requests,
    perSecond: sum((result) => result.perSecond) / results.length,
    p50: sum((result) => result.p50) / results.length,
    p99: Math.max(...results.map((result) => result.p99)),
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    bytesPerRequest: requests === 0 ? 0 : Math.round(sum((result) => result.bytesPerRequest * result.requests) / requests),
    ...cpu,
  };
}

/**
 * The targets' turns in round `round`: in the spec's order in even rounds, the other way round in
 * odd ones, so that neither server always follows the other (the machine's speed drifts).
 */
export function turnOrder<T>(round: number, targets: readonly T[]): T[] {
  return round % 2 === 0 ? [...targets] : [...targets].reverse();
}

/** Runs the scenario of the spec file named by argv[2] and prints its LoadOutput as one JSON line. */
async function main(): Promise<void> {
  const spec = JSON.parse(await readFile(process.argv[2] ?? "", "utf8")) as LoadSpec;
  // Each target's Zipf stream goes on from turn to turn (warm-up included), as the traffic of one server would.
  const streams = new Map<Target, () => number>();
  const drive = async (target: Target, seconds: number): Promise<LoadResult> => {
    const cpuBefore = target.pid === undefined ? undefined : cpuSecondsOf(target.pid);
    const result = resultOf(
      await autocannon({
        url: target.url,
        connections: spec.connections,
        duration: seconds,
        headers: target.headers,
        requests: requestsOf(target, streams) as autocannon.Request[],
      }),
    );
    const cpuAfter = target.pid === undefined ? undefined : cpuSecondsOf(target.pid);
    return cpuBefore === undefined || cpuAfter === undefined ? result : { ...result, cpuSeconds: cpuAfter - cpuBefore };
  };
  const rounds = Math.max(1, spec.rounds);
  const turnSeconds = Math.max(1, Math.round(spec.seconds / rounds));
  if (spec.warmupSeconds > 0) for (const target of spec.targets) await drive(target, spec.warmupSeconds);
  if (spec.yardstick !== undefined) await drive(spec.yardstick, 1);
  const scenarios = spec.targets.map((target) => ({ target, turns: [] as LoadResult[] }));
  const yardstickTurns: LoadResult[] = [];
  for (let round = 0; round < rounds; round += 1) {
    if (spec.yardstick !== undefined) yardstickTurns.push(await drive(spec.yardstick, spec.yardstickSeconds));
    for (const { target, turns } of turnOrder(round, scenarios)) turns.push(await drive(target, turnSeconds));
  }
  const output: LoadOutput = {
    results: scenarios.map(({ turns }) => combined(turns)),
    ...(yardstickTurns.length > 0 ? { yardstick: combined(yardstickTurns) } : {}),
  };
  console.log(JSON.stringify(output));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
