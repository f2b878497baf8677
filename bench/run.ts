/**
 * `npm run bench`: for each directory size, generates content (bench/generate.ts), builds it,
 * checks it, starts the real server as production runs it (compiled: server/server.js) in its own
 * process, and drives each scenario (bench/scenarios.ts) with autocannon from another process
 * (bench/load.ts) for a fixed time after an unmeasured warm-up (JIT and index caches warm, as on a
 * server in service); a bare fastify route (bench/baseline.ts) is the yardstick, measured in turns
 * with each scenario. Prints one table and writes it to bench/results.json. Everything listens on
 * 127.0.0.1 and every load test stops by itself. Method and history: bench/README.md.
 *
 *   npm run bench                      sizes 1,000, 10,000 and 100,000
 *   npm run bench -- --million         and 1,000,000, each built with STATIC_PAGES=true and again with false
 *   npm run bench -- --static-pages both   each size built both ways (true: the default; false: for the server alone)
 *   npm run bench -- --sizes 1000 --seconds 4 --warmup 1 --rounds 2
 *   npm run bench -- --settle 301      before each build, wait until the last removal of snapshots is 301 s old
 *   npm run bench -- --no-edits        without the editor's waits (bench/edits.ts: one-edit rebuild, npm run dev, npm run serve)
 *   npm run bench -- --only search,mcp-2025,business   only those scenarios (bench/scenarios.ts: keys or names)
 *   npm run bench -- --only search,mcp-2025 --against ../old/server
 *                                      only those scenarios, each on this checkout's server and, in the
 *                                      same rounds, on the compiled server in ../old/server (npm run
 *                                      compile there), run with this checkout's node_modules
 *
 * BENCH_DIR (default: the system's temporary folder) keeps the generated content between runs.
 * Relative paths are read from the folder npm was run in.
 */

import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";
import { measureEdits } from "./edits.ts";
import { walkDist } from "./llms-crawl.ts";
import type { Pacing } from "./load.ts";
import { buildSnapshot, compile, ROOT, removeSnapshots, stageAgainst } from "./processes.ts";
import { publish, RESULTS_DIR } from "./publish.ts";
import { makeRelease } from "./release.ts";
import { report, type ServerOnly, type SizeResult } from "./report.ts";
import { FEED_CHANGES, measureScenarios, selectScenarios } from "./scenarios.ts";

const { values } = parseArgs({
  options: {
    sizes: { type: "string" },
    million: { type: "boolean", default: false },
    seconds: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "4" },
    settle: { type: "string", default: "0" },
    "no-edits": { type: "boolean", default: false },
    "static-pages": { type: "string" },
    only: { type: "string" },
    against: { type: "string" },
    out: { type: "string" },
  },
});
const sizes =
  values.sizes !== undefined ? values.sizes.split(",").map(Number) : [1_000, 10_000, 100_000, ...(values.million ? [1_000_000] : [])];
/** Each size is built with STATIC_PAGES=true, on which the scenarios run, and with both, also with false. */
const staticPages = values["static-pages"] ?? (values.million ? "both" : "true");
if (staticPages !== "true" && staticPages !== "both") {
  throw new Error(`--static-pages ${staticPages}: use true (the default) or both (the default with --million)`);
}
const SECONDS = Number(values.seconds);
const ROUNDS = Number(values.rounds);
const pacing: Pacing = {
  connections: Number(values.connections),
  warmupSeconds: Number(values.warmup),
  seconds: SECONDS,
  rounds: ROUNDS,
  /** The bare route's turn before each round: half a scenario turn, at least 1 s (why in turns: bench/README.md). */
  yardstickSeconds: Math.max(1, Math.round(SECONDS / 2 / ROUNDS)),
};
const WORK = join(process.env.BENCH_DIR ?? tmpdir(), "catalog-bench");
/** npm runs scripts in the project's root; INIT_CWD is where it was run. */
const given = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
/**
 * A full run (every scenario, no --against) is committed: its results go to bench/results/ (named
 * after its sizes), into the history, and into the README's table (bench/publish.ts). A partial one
 * goes beside its content, or to --out.
 */
const full = values.only === undefined && values.against === undefined && values.out === undefined;
const resultsName = values.million
  ? "million.json"
  : values.sizes === undefined
    ? "default.json"
    : `${values.sizes.replaceAll(",", "-")}.json`;
const OUT = values.out !== undefined ? given(values.out) : full ? join(RESULTS_DIR, resultsName) : join(WORK, "results.json");
const scenarios = selectScenarios(values.only);

await mkdir(WORK, { recursive: true });
const againstDir = values.against === undefined ? undefined : given(values.against);
const against = againstDir === undefined ? undefined : await stageAgainst(againstDir, WORK);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
console.log(
  `${machine}; ${pacing.connections} connections, ${pacing.warmupSeconds} s warm-up and ${SECONDS} s measured per scenario in ${ROUNDS} turns, each after ${pacing.yardstickSeconds} s of the baseline; work folder ${WORK}`,
);
if (against !== undefined) console.log(`each scenario also on the server in ${againstDir} (run as ${against}), in the same rounds`);
/** The size built again with STATIC_PAGES=false (the snapshot for the server alone), and its editor's waits. */
async function measureServerOnly(listings: number): Promise<ServerOnly> {
  const snapshot = await buildSnapshot(WORK, listings, Number(values.settle), false);
  const edits = values["no-edits"] ? undefined : await measureEdits(snapshot);
  const { buildSeconds, buildPeakMiB, checkSeconds, distMiB } = snapshot;
  return { buildSeconds, buildPeakMiB, checkSeconds, distMiB, ...(edits === undefined ? {} : { edits }) };
}

const results: SizeResult[] = [];
await compile();
await removeSnapshots(WORK);
for (const listings of sizes) {
  console.log(`\n${listings.toLocaleString("en")} listings`);
  const snapshot = await buildSnapshot(WORK, listings, Number(values.settle));
  const llms = await walkDist(snapshot.dist, snapshot.env.BASE_URL ?? "");
  console.log(
    `  llms.txt walk: ${llms.files} index files (longest ${llms.longestCharacters} characters), ${llms.reached} of ${llms.profiles} profiles reached, ${llms.seconds.toFixed(1)} s`,
  );
  const release = scenarios.some(({ key }) => key === "changes") ? await makeRelease(snapshot, FEED_CHANGES) : undefined;
  const measured = await measureScenarios(snapshot, {
    pacing,
    work: WORK,
    scenarios,
    ...(against === undefined ? {} : { against }),
    ...(release === undefined ? {} : { since: release.since }),
  });
  const edits = values["no-edits"] ? undefined : await measureEdits(snapshot);
  await release?.restore();
  const serverOnly = staticPages === "both" ? await measureServerOnly(listings) : undefined;
  const { approved, buildSeconds, buildPeakMiB, checkSeconds, distMiB } = snapshot;
  results.push({
    listings,
    approved,
    buildSeconds,
    buildPeakMiB,
    checkSeconds,
    distMiB,
    llms,
    ...(edits === undefined ? {} : { edits }),
    ...measured.serving,
    ...(measured.against === undefined ? {} : { against: measured.against }),
    ...(serverOnly === undefined ? {} : { serverOnly }),
    rows: measured.rows,
  });
}
await report(
  OUT,
  {
    machine,
    commit: (await promisify(execFile)("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).catch(() => ({ stdout: "" }))).stdout.trim(),
    ...pacing,
    ...(againstDir === undefined ? {} : { against: againstDir }),
    ...(values.only === undefined ? {} : { only: scenarios.map((scenario) => scenario.name) }),
  },
  results,
);
if (full) await publish(resultsName);
// The snapshots are not kept (see removeSnapshots).
await removeSnapshots(WORK);
