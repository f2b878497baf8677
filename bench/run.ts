/**
 * `npm run bench`: for each directory size, generates content (bench/generate.ts), builds it,
 * checks it, starts the real server as production runs it (compiled: server/server.js) in its own
 * process, and drives each scenario with autocannon from another process (bench/load.ts) for a
 * fixed time after an unmeasured warm-up (JIT and index caches warm, as on a server in service);
 * a bare fastify route (bench/baseline.ts) is the yardstick, measured in turns with each scenario.
 * Prints one table and writes it to bench/results.json. Everything listens on 127.0.0.1 and every load test stops by itself.
 *
 *   npm run bench                      sizes 1,000, 10,000 and 100,000
 *   npm run bench -- --million         and 1,000,000
 *   npm run bench -- --sizes 1000 --seconds 4 --warmup 1 --rounds 2
 *
 * BENCH_DIR (default: the system's temporary folder) keeps the generated content between runs.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs, promisify } from "node:util";
import { markdownFiles } from "../build/content.ts";
import { freePort } from "../test/helpers/ports.ts";
import { generateContent, random } from "./generate.ts";
import { combined, type LoadOutput, type LoadResult, type LoadSpec, type Target } from "./load.ts";
import { directoryQueries, type ListingFacts, queryString } from "./queries.ts";

const run = promisify(execFile);
const ROOT = new URL("..", import.meta.url).pathname;

const { values } = parseArgs({
  options: {
    sizes: { type: "string" },
    million: { type: "boolean", default: false },
    seconds: { type: "string", default: "8" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "4" },
    out: { type: "string" },
  },
});
const sizes =
  values.sizes !== undefined ? values.sizes.split(",").map(Number) : [1_000, 10_000, 100_000, ...(values.million ? [1_000_000] : [])];
const SECONDS = Number(values.seconds);
const WARMUP_SECONDS = Number(values.warmup);
/**
 * The yardstick's turns: this machine's speed drifts by a third within a run (the bare route
 * from 30,000 to 48,000 requests a second), so the baseline is measured in turns between the
 * scenario's (1 s before each of its ROUNDS turns), and each scenario is set against the
 * yardstick of its own seconds.
 */
const ROUNDS = Number(values.rounds);
const YARDSTICK_SECONDS = Math.max(1, Math.round(SECONDS / 2 / ROUNDS));
const CONNECTIONS = Number(values.connections);
const WORK = join(process.env.BENCH_DIR ?? tmpdir(), "catalog-bench");
/** The committed results (bench/results.json) are those of the default sizes; other runs go beside their content. */
const OUT =
  values.out ?? (values.sizes === undefined && !values.million ? join(ROOT, "bench", "results.json") : join(WORK, "results.json"));

interface Row {
  readonly scenario: string;
  readonly result: LoadResult;
  /** The bare fastify route measured in turns with this scenario: its yardstick. */
  readonly baseline?: LoadResult;
}

interface SizeResult {
  readonly listings: number;
  readonly approved: number;
  readonly buildSeconds: number;
  readonly buildPeakMiB: number;
  readonly checkSeconds: number;
  readonly distMiB: number;
  readonly readySeconds: number;
  readonly rssAfterLoadMiB: number;
  /** The same server's resident memory once every cache-off scenario has run against it. */
  readonly rssAfterTrafficMiB: number;
  readonly rows: Row[];
}

/**
 * Runs `node --import tsx <script>` to the end; its wall time and standard output. Its standard
 * error is not kept (a build of a million listings can warn about hundreds of thousands), only
 * its end, to explain a failure.
 */
async function timed(script: string, args: string[], env: Record<string, string>): Promise<{ seconds: number; stdout: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: Buffer[] = [];
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
  });
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`${script} ${args.join(" ")} exited with code ${code}:\n${stderr}`);
  return { seconds: (performance.now() - started) / 1000, stdout: Buffer.concat(stdout).toString("utf8") };
}
const STDERR_KEPT = 16 * 1024;

async function rssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** Starts `node <args>` and waits for `probe` to answer 200; the time that took. */
async function start(args: string[], env: Record<string, string>, probe: string): Promise<{ child: ChildProcess; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; attempt < 6000; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(probe);
      await response.arrayBuffer();
      if (response.ok) return { child, seconds: (performance.now() - started) / 1000 };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  child.kill("SIGKILL");
  throw new Error(`${args.join(" ")} did not answer within 60 s`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000).then(() => child.kill("SIGKILL"))]);
}

/**
 * One scenario: autocannon in its own process, WARMUP_SECONDS unmeasured, then SECONDS measured
 * in ROUNDS turns, each after a turn of the yardstick (bench/load.ts).
 */
async function load(name: string, target: Target, yardstick: Target): Promise<Row> {
  const file = join(WORK, "load-spec.json");
  const spec: LoadSpec = {
    ...target,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
    rounds: ROUNDS,
    yardstick,
    yardstickSeconds: YARDSTICK_SECONDS,
  };
  await writeFile(file, JSON.stringify(spec));
  const { stdout } = await timed("bench/load.ts", [file], {});
  const { result, yardstick: baseline } = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as LoadOutput;
  const ratio = baseline === undefined ? "" : `  ${(result.perSecond / baseline.perSecond).toFixed(2)} × ${Math.round(baseline.perSecond)}`;
  console.log(
    `    ${name.padEnd(44)} ${Math.round(result.perSecond).toString().padStart(7)} req/s  p50 ${ms(result.p50)} ms  p99 ${ms(result.p99)} ms${ratio}`,
  );
  return { scenario: name, result, ...(baseline === undefined ? {} : { baseline }) };
}

/** A seeded sample of `count` listings of a built snapshot (reservoir sampling over its NDJSON). */
async function sampleListings(dist: string, count: number): Promise<(ListingFacts & { slug: string })[]> {
  const lines = createInterface({ input: createReadStream(join(dist, "data", "businesses.ndjson")), crlfDelay: Number.POSITIVE_INFINITY });
  const next = random(11);
  const sample: string[] = [];
  let seen = 0;
  for await (const line of lines) {
    if (line === "") continue;
    seen += 1;
    if (sample.length < count) sample.push(line);
    else {
      const at = Math.floor(next() * seen);
      if (at < count) sample[at] = line;
    }
  }
  return sample.map((line) => JSON.parse(line) as ListingFacts & { slug: string });
}

/** The bare fastify route, started in its own process and loaded like every scenario. */
async function startBaseline(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child } = await start(["--import", "tsx", "bench/baseline.ts", String(port)], {}, `${url}/`);
  return { child, url };
}

/** A file in the work folder written when the bench removes snapshots: its time is when it did. */
const REMOVED_MARKER = join(WORK, ".snapshots-removed");

/**
 * Removes the snapshots in the work folder, and notes when. The bench does this when a run ends
 * (its snapshots are not kept; the content is) and when one starts (what an interrupted run
 * left), never between sizes: ext4 without a journal (this machine's disk) will not reuse an
 * inode deleted less than 60 s before, or 300 s while its inode-table block is waiting to be
 * written back, which the build's own new files make it; it checks every such inode on each
 * allocation. Builds of 100,000 listings started within seconds of removing the previous
 * snapshots took 22-53 s, and one five minutes after 30.8 s (writing its pages 23.1 s), against
 * 15.9 s (8.2 s) with nothing removed nearby.
 */
async function removeSnapshots(): Promise<void> {
  const snapshots = (await readdir(WORK)).filter((name) => /^dist-\d+$/.test(name)).map((name) => join(WORK, name));
  if (snapshots.length === 0) return;
  await Promise.all(snapshots.map((dist) => rm(dist, { recursive: true, force: true })));
  await run("sync", []);
  await writeFile(REMOVED_MARKER, `${new Date().toISOString()}\n`);
}

/** Waits until snapshots removed by this run or the one before cannot slow a build of `listings` listings. */
async function settled(listings: number): Promise<void> {
  // Smaller builds create too few files for it to matter (10,000 listings: 2.9-3.9 s either way).
  if (listings < 100_000) return;
  const removed = (await stat(REMOVED_MARKER).catch(() => undefined))?.mtimeMs ?? Number.NEGATIVE_INFINITY;
  const wait = removed + INODE_REUSE_MS - Date.now();
  if (wait <= 0) return;
  console.log(`  waiting ${(wait / 1000).toFixed(0)} s for the removed snapshots' inodes to be reusable`);
  await sleep(wait);
}
const INODE_REUSE_MS = 301_000;

/**
 * Reads every content file once, untimed, so that the build is measured on content in the page
 * cache, as a checkout or a pull leaves it. This machine pages out file data that no one has
 * read for about a minute (DAMON reclaim: `pageout` of memory idle for 12 intervals of 5 s), so
 * content kept from an earlier run is read from the disk otherwise: at 100,000 listings such a
 * build took 45.6 s (reading 20.3 s, writing 21.9 s) against 15.9 s with the content read.
 */
function warmPageCache(dir: string): { files: number; seconds: number } {
  const started = performance.now();
  const files = markdownFiles(dir);
  for (const file of files) readFileSync(file);
  return { files: files.length, seconds: (performance.now() - started) / 1000 };
}

async function measureSize(listings: number): Promise<SizeResult> {
  console.log(`\n${listings.toLocaleString("en")} listings`);
  const content = join(WORK, `content-${listings}`);
  const dist = join(WORK, `dist-${listings}`);
  // The content is kept for the next run while it is what this generator makes for this size.
  const marker = join(content, ".generated");
  const made = `${listings} ${createHash("sha256")
    .update(await readFile(join(ROOT, "bench", "generate.ts")))
    .digest("hex")}`;
  if ((await readFile(marker, "utf8").catch(() => "")) !== made) {
    const started = performance.now();
    await generateContent(content, listings);
    await writeFile(marker, made);
    console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const env = { CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: baseUrl };

  await settled(listings);
  const warm = warmPageCache(content);
  console.log(`  ${warm.files} content files read in ${warm.seconds.toFixed(1)} s before the build (not timed)`);
  const build = await timed("build/cli.ts", ["--verbose"], env);
  // The build's stages, for a figure that surprises.
  for (const line of build.stdout.split("\n")) if (/ ms {3}rss /.test(line)) console.log(`    ${line.trim()}`);
  const buildPeakMiB = Math.max(...[...build.stdout.matchAll(/peak (\d+) MiB/g)].map((match) => Number(match[1])));
  const approved = Number(/(\d+) approved listings/.exec(build.stdout)?.[1] ?? 0);
  const check = await timed("build/cli.ts", ["--check"], env);
  const distMiB = Number((await run("du", ["-sk", dist])).stdout.split("\t")[0]) / 1024;
  console.log(
    `  build ${build.seconds.toFixed(1)} s (peak ${buildPeakMiB} MiB), check ${check.seconds.toFixed(1)} s, dist/ ${distMiB.toFixed(0)} MiB, ${approved} approved`,
  );

  const sample = await sampleListings(dist, 500);
  const slugs = sample.map((listing) => listing.slug);
  const queries = directoryQueries(500, 7, sample);
  const host = { host: `localhost:${port}` };
  const url = `http://127.0.0.1:${port}`;
  const rows: Row[] = [];

  let serving = { seconds: Number.NaN, rss: Number.NaN, rssAfterTraffic: Number.NaN };
  const yardstick = await startBaseline();
  const bare: Target = { url: yardstick.url, headers: {}, requests: [{ method: "GET", path: "/" }] };
  /** A scenario with the baseline measured in turns with it. */
  const paired = (name: string, target: Target): Promise<Row> => load(name, target, bare);

  const searches: Target = {
    url,
    headers: host,
    requests: queries.map((query) => ({ method: "GET", path: `/api/directory${queryString(query)}` })),
  };
  // Every scenario against one production server (cache off, 1 process); then the search mix
  // again with the result cache on, and with WORKERS=2 (node:cluster) on this machine's 2 cores,
  // which autocannon shares.
  for (const { cache, workers } of [
    { cache: "0", workers: "1" },
    { cache: "60", workers: "1" },
    { cache: "0", workers: "2" },
  ]) {
    // The server as it runs in production: compiled JavaScript (npm run compile), no tsx.
    const server = await start(
      ["server/server.js"],
      { ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", CACHE_SECONDS: cache, WORKERS: workers, RATE_LIMIT_MAX: "0" },
      // Ready means a directory search answers (a directory that failed to load answers 503).
      `${url}/api/directory?limit=1`,
    );
    const rss = await rssMiB(server.child.pid);
    if (cache === "0" && workers === "1") {
      console.log(`  server ready in ${server.seconds.toFixed(2)} s, ${rss.toFixed(0)} MiB resident after load`);
      rows.push(await paired("directory search mix, cache off", searches));
      rows.push(
        await paired("read a business", {
          url,
          headers: host,
          requests: slugs.map((slug) => ({ method: "GET", path: `/api/directory/${slug}` })),
        }),
      );
      rows.push(
        await paired("offerings search", {
          url,
          headers: host,
          requests: ["quote", "guide", "cost", "directory api", "plumb", "x"].map((q) => ({
            method: "GET",
            path: `/api/offerings?q=${encodeURIComponent(q)}`,
          })),
        }),
      );
      rows.push(
        await paired("HTML directory page", {
          url,
          headers: { ...host, accept: "text/html" },
          requests: queries.map((query) => ({ method: "GET", path: `/businesses${queryString(query)}` })),
        }),
      );
      rows.push(
        await paired("Markdown profile", {
          url,
          headers: host,
          requests: slugs.map((slug) => ({ method: "GET", path: `/businesses/${slug}/index.md` })),
        }),
      );
      // The same search in each MCP era: 2025-11-25 after its (stateless) handshake, and 2026-07-28
      // with the version and capabilities in each request's _meta and the headers that mirror the body.
      const mcpHeaders = { ...host, "content-type": "application/json", accept: "application/json, text/event-stream" };
      rows.push(
        await paired("MCP 2025-11-25 tools/call search_businesses", {
          url,
          headers: { ...mcpHeaders, "mcp-protocol-version": "2025-11-25" },
          requests: queries.map((query, id) => ({
            method: "POST",
            path: "/mcp",
            body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_businesses", arguments: query } }),
          })),
        }),
      );
      const meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
      };
      rows.push(
        await paired("MCP 2026-07-28 tools/call search_businesses", {
          url,
          headers: { ...mcpHeaders, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_businesses" },
          requests: queries.map((query, id) => ({
            method: "POST",
            path: "/mcp",
            body: JSON.stringify({
              jsonrpc: "2.0",
              id,
              method: "tools/call",
              params: { name: "search_businesses", arguments: query, _meta: meta },
            }),
          })),
        }),
      );
      // Caches filled and the heap grown to what the traffic asks of it.
      serving = { seconds: server.seconds, rss, rssAfterTraffic: await rssMiB(server.child.pid) };
      console.log(`  ${serving.rssAfterTraffic.toFixed(0)} MiB resident after these scenarios`);
    } else {
      const name = cache === "0" ? `directory search mix, cache off, WORKERS=${workers}` : `directory search mix, cache on (${cache} s)`;
      rows.push(await paired(name, searches));
    }
    await stop(server.child);
  }
  await stop(yardstick.child);
  // The baseline's row: all its turns, with every scenario, as one.
  const baselines = rows.flatMap((row) => (row.baseline === undefined ? [] : [row.baseline]));
  rows.unshift({ scenario: "baseline: bare fastify, constant 6 KB", result: combined(baselines) });
  return {
    listings,
    approved,
    buildSeconds: build.seconds,
    buildPeakMiB,
    checkSeconds: check.seconds,
    distMiB,
    readySeconds: serving.seconds,
    rssAfterLoadMiB: serving.rss,
    rssAfterTrafficMiB: serving.rssAfterTraffic,
    rows,
  };
}

/** A latency in milliseconds, to two decimals at most (the means of several turns have more). */
const ms = (value: number) => String(Number(value.toFixed(2)));

function table(results: SizeResult[]): string {
  const lines: string[] = [];
  const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}` : "-");
  lines.push("| listings | scenario | req/s | × base | p50 ms | × base | p99 ms | × base | errors |");
  lines.push("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const size of results) {
    const mean = size.rows[0]?.result;
    for (const { scenario, result, baseline } of size.rows) {
      // Each scenario against the baseline measured just before it; the baseline's row is their mean.
      const base = baseline ?? mean;
      lines.push(
        `| ${size.listings.toLocaleString("en")} | ${scenario} | ${Math.round(result.perSecond).toLocaleString("en")} | ${ratio(result.perSecond, base?.perSecond ?? 0)} | ${ms(result.p50)} | ${ratio(result.p50, base?.p50 ?? 0)} | ${ms(result.p99)} | ${ratio(result.p99, base?.p99 ?? 0)} | ${result.non2xx + result.errors} |`,
      );
    }
  }
  lines.push("");
  lines.push("| listings | build s | build peak MiB | check s | dist/ MiB | ready s | RSS after load MiB | RSS after traffic MiB |");
  lines.push("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const size of results) {
    lines.push(
      `| ${size.listings.toLocaleString("en")} | ${size.buildSeconds.toFixed(1)} | ${size.buildPeakMiB} | ${size.checkSeconds.toFixed(1)} | ${size.distMiB.toFixed(0)} | ${size.readySeconds.toFixed(2)} | ${size.rssAfterLoadMiB.toFixed(0)} | ${size.rssAfterTrafficMiB.toFixed(0)} |`,
    );
  }
  return lines.join("\n");
}

await mkdir(WORK, { recursive: true });
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
console.log(
  `${machine}; ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up and ${SECONDS} s measured per scenario in ${ROUNDS} turns, each after ${YARDSTICK_SECONDS} s of the baseline; work folder ${WORK}`,
);
const results: SizeResult[] = [];
await run("npm", ["run", "--silent", "compile"], { cwd: ROOT });
await removeSnapshots();
for (const listings of sizes) results.push(await measureSize(listings));
const markdown = table(results);
console.log(`\n${markdown}`);
await writeFile(
  OUT,
  `${JSON.stringify({ date: new Date().toISOString(), machine, connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, rounds: ROUNDS, yardstickSeconds: YARDSTICK_SECONDS, results, table: markdown }, null, 2)}\n`,
);
console.log(`\nwritten to ${OUT}`);
// Removed now, so that the next run's builds meet no fresh deletions (see removeSnapshots).
await removeSnapshots();
