/**
 * One load test, run as its own process so the load generator does not share the benchmark's
 * event loop: autocannon against 127.0.0.1, then one JSON line of results on stdout. The
 * scenario comes as a JSON file named by argv[2].
 *
 * After an unmeasured warm-up of each, the yardstick (when given) and the scenario take turns:
 * `rounds` times the yardstick for `yardstickSeconds`, then the scenario for `seconds / rounds`.
 * This machine's speed drifts within a minute, so each is measured in the same seconds as the
 * other rather than one after the other. Every run stops by itself.
 */
import { readFile } from "node:fs/promises";
import autocannon from "autocannon";

/** What one autocannon run sends. */
export interface Target {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Cycled in order by every connection. */
  readonly requests: readonly { method: "GET" | "POST"; path: string; body?: string; headers?: Record<string, string> }[];
  readonly headers: Record<string, string>;
}

export interface LoadSpec extends Target {
  readonly connections: number;
  /** Load first run for this long and not measured: the server's JIT and index caches warm up, as on a server in service. */
  readonly warmupSeconds: number;
  /** The scenario's measured time, in `rounds` equal turns (whole seconds each). */
  readonly seconds: number;
  readonly rounds: number;
  /** The bare route the scenario is compared with, measured for `yardstickSeconds` before each of the scenario's turns. */
  readonly yardstick?: Target;
  readonly yardstickSeconds: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly bytesPerRequest: number;
}

/** The scenario's result and, when a yardstick was given, the yardstick's over the same rounds. */
export interface LoadOutput {
  readonly result: LoadResult;
  readonly yardstick?: LoadResult;
}

const spec = JSON.parse(await readFile(process.argv[2] ?? "", "utf8")) as LoadSpec;

const drive = (target: Target, seconds: number) =>
  autocannon({
    url: target.url,
    connections: spec.connections,
    duration: seconds,
    headers: target.headers,
    requests: target.requests.map((request) => ({ ...request })),
  });

/** Several turns of one target as one result: rates and latencies averaged, the worst p99, counts summed. */
function combined(turns: readonly autocannon.Result[]): LoadResult {
  const mean = (pick: (turn: autocannon.Result) => number) => turns.reduce((sum, turn) => sum + pick(turn), 0) / turns.length;
  const requests = turns.reduce((sum, turn) => sum + turn.requests.total, 0);
  const bytes = turns.reduce((sum, turn) => sum + turn.throughput.total, 0);
  return {
    requests,
    perSecond: mean((turn) => turn.requests.average),
    p50: mean((turn) => turn.latency.p50),
    p99: Math.max(...turns.map((turn) => turn.latency.p99)),
    non2xx: turns.reduce((sum, turn) => sum + turn.non2xx, 0),
    errors: turns.reduce((sum, turn) => sum + turn.errors + turn.timeouts, 0),
    bytesPerRequest: requests === 0 ? 0 : Math.round(bytes / requests),
  };
}

const rounds = Math.max(1, spec.rounds);
const turnSeconds = Math.max(1, Math.round(spec.seconds / rounds));
if (spec.warmupSeconds > 0) await drive(spec, spec.warmupSeconds);
if (spec.yardstick !== undefined) await drive(spec.yardstick, 1);
const scenarioTurns: autocannon.Result[] = [];
const yardstickTurns: autocannon.Result[] = [];
for (let round = 0; round < rounds; round += 1) {
  if (spec.yardstick !== undefined) yardstickTurns.push(await drive(spec.yardstick, spec.yardstickSeconds));
  scenarioTurns.push(await drive(spec, turnSeconds));
}
const output: LoadOutput = {
  result: combined(scenarioTurns),
  ...(yardstickTurns.length > 0 ? { yardstick: combined(yardstickTurns) } : {}),
};
console.log(JSON.stringify(output));
