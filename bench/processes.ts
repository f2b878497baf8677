/**
 * The bench's processes: generating and building a snapshot, the servers measured, the bare
 * route they are set against; starting each in a process of its own, waiting until it answers,
 * stopping it, and reading its resident memory. Everything listens on 127.0.0.1.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, cp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { markdownFiles } from "../build/content.ts";
import { freePort } from "../test/helpers/ports.ts";
import { generateContent } from "./generate.ts";

const run = promisify(execFile);
export const ROOT = new URL("..", import.meta.url).pathname;
/** The server as production runs it: compiled JavaScript (npm run compile), no tsx. */
export const SERVER_ENTRY = "server/server.js";

/** Compiles this checkout's server (npm run compile). */
export async function compile(): Promise<void> {
  await run("npm", ["run", "--silent", "compile"], { cwd: ROOT });
}

/**
 * Runs `node --import tsx <script>` to the end; its wall time and standard output. Its standard
 * error is not kept (a build of a million listings can warn about hundreds of thousands), only
 * its end, to explain a failure.
 */
export async function timed(script: string, args: string[], env: Record<string, string>): Promise<{ seconds: number; stdout: string }> {
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

export async function rssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The processes started and not yet stopped: ended with the bench if it stops on an error, so that none outlives it. */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) signal(child, "SIGTERM");
});

/** How start() runs a process: its command (default node itself) and how long it may take to answer. */
interface Starting {
  readonly command?: string;
  readonly seconds?: number;
}

/**
 * Starts `node <args>` (or `command <args>`) and waits for `probe` to answer 200, at most
 * `seconds` (default 60); the time that took. The probe is first asked once the process prints a
 * line saying it is listening (fastify's at the info level, the yardstick's own): a probe every
 * 10 ms from the start, on these 2 cores, took CPU from the start it timed and read 0.2–0.4 s
 * high at 100,000 listings. A command that starts node itself (npm, a script that starts a
 * server) is given a process group of its own, which stop() ends whole.
 */
export async function start(
  args: string[],
  env: Record<string, string>,
  probe: string,
  { command = process.execPath, seconds = 60 }: Starting = {},
): Promise<{ child: ChildProcess; seconds: number; said: string[] }> {
  const started = performance.now();
  /** What the process says of its answer cache (src/server.ts, as it stops). */
  const said: string[] = [];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
    detached: command !== process.execPath,
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const lines = createInterface({ input: child.stdout });
  const listening = new Promise<void>((resolve) => {
    lines.on("line", (line) => {
      if (line.includes("listening")) resolve();
      if (line.includes("answer cache:")) said.push(line);
    });
    child.once("exit", () => resolve());
  });
  await Promise.race([listening, sleep(seconds * 1000, undefined, { ref: false })]);
  while (performance.now() - started < seconds * 1000) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(probe);
      await response.arrayBuffer();
      if (response.ok) return { child, seconds: (performance.now() - started) / 1000, said };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  signal(child, "SIGKILL");
  throw new Error(`${command} ${args.join(" ")} did not answer within ${seconds} s`);
}

/** Signals a process started by start(), and its process group when it has one of its own (not node itself). */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (child.spawnargs[0] !== process.execPath && child.pid !== undefined) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // Already gone.
  }
}

/** Stops a process started by start(): its process group when it has one of its own. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  signal(child, "SIGTERM");
  await Promise.race([exited, sleep(15_000).then(() => signal(child, "SIGKILL"))]);
}

/** The bare fastify route, started in its own process and loaded like every scenario. */
export async function startBaseline(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child } = await start(["--import", "tsx", "bench/baseline.ts", String(port)], {}, `${url}/`);
  return { child, url };
}

/**
 * How a server is run for a scenario: its answer cache's lifetime (0: off), its processes, and
 * whether metrics are on. Scenarios given the same settings object share a server.
 */
export interface ServerSettings {
  readonly cacheSeconds: number;
  readonly workers: number;
  readonly metrics?: boolean;
}

/** A server under load: its process, its address, how long it took to answer, and what it said of its answer cache as it stopped. */
export interface RunningServer {
  readonly child: ChildProcess;
  readonly url: string;
  readonly seconds: number;
  readonly said: readonly string[];
}

/** The share of answers sent from the answer cache, from the server's own line as it stopped; NaN when it said none. */
export function cacheHitRate(server: RunningServer): number {
  const line = server.said.at(-1) ?? "";
  const [, hits, misses] = /answer cache: (\d+) hits, (\d+) misses/.exec(line) ?? [];
  const asked = Number(hits) + Number(misses);
  return hits === undefined || asked === 0 ? Number.NaN : Number(hits) / asked;
}

/**
 * Starts the compiled server `entry` on `snapshot` with `settings`, listening on `port`, and waits
 * until a directory search answers (a directory that failed to load answers 503). Every server is
 * given the same environment but its port, so that two compared differ only in their code.
 */
export async function startServer(entry: string, snapshot: Snapshot, settings: ServerSettings, port: number): Promise<RunningServer> {
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...snapshot.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    // Info, for the line start() waits for; requests are not logged.
    LOG_LEVEL: "info",
    CACHE_SECONDS: String(settings.cacheSeconds),
    WORKERS: String(settings.workers),
    RATE_LIMIT_MAX: "0",
    ...(settings.metrics === true ? { METRICS_PORT: String(await freePort()) } : {}),
  };
  const { child, seconds, said } = await start([entry], env, `${url}/api/directory?limit=1`);
  return { child, url, seconds, said };
}

/**
 * The compiled server in `dir` (a `server/` folder from `npm run compile`), copied into `work` as
 * a checkout lays it out: a compiled server reads `../package.json` and resolves its packages from
 * its own folder up, not from the working directory. Beside the copy: the package.json next to
 * `dir` (this checkout's if there is none) and a link to this checkout's node_modules, whose
 * packages it is therefore run with. Its entry, to be started from this checkout's root.
 */
export async function stageAgainst(dir: string, work: string): Promise<string> {
  if (!existsSync(join(dir, "server.js")))
    throw new Error(`--against ${dir}: no server.js there; name a server/ folder made by npm run compile`);
  const checkout = join(work, "against");
  await rm(checkout, { recursive: true, force: true });
  await cp(dir, join(checkout, "server"), { recursive: true });
  const packageJson = join(dir, "..", "package.json");
  await copyFile(existsSync(packageJson) ? packageJson : join(ROOT, "package.json"), join(checkout, "package.json"));
  await symlink(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
  return join(checkout, "server", "server.js");
}

/** A generated content folder built into a snapshot, for a server on the port it was built for. */
export interface Snapshot {
  readonly dist: string;
  /** CONTENT_DIR, DIST_DIR and BASE_URL, which the server must be given as the build was. */
  readonly env: Readonly<Record<string, string>>;
  /** BASE_URL's port, which the server measured listens on (one compared with it listens on another). */
  readonly port: number;
  readonly approved: number;
  readonly buildSeconds: number;
  readonly buildPeakMiB: number;
  readonly checkSeconds: number;
  readonly distMiB: number;
}

/**
 * Generates `listings` listings under `work` (unless the content there is what this generator
 * makes for that size), reads them once, then builds and checks them, timed, with STATIC_PAGES
 * as `staticPages` says. `settleSeconds`: see settle.
 */
export async function buildSnapshot(work: string, listings: number, settleSeconds: number, staticPages = true): Promise<Snapshot> {
  const content = join(work, `content-${listings}`);
  const dist = join(work, `dist-${listings}${staticPages ? "" : "-server"}`);
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
  const env = { CONTENT_DIR: content, DIST_DIR: dist, BASE_URL: `http://localhost:${port}`, STATIC_PAGES: String(staticPages) };

  await settle(work, settleSeconds);
  const warm = warmPageCache(content);
  console.log(`  ${warm.files} content files read in ${warm.seconds.toFixed(1)} s before the build (not timed)`);
  // A full build: --clean leaves out what an earlier build of this content cached (bench/edits.ts times an incremental one).
  const build = await timed("build/cli.ts", ["--verbose", "--clean"], env);
  // The build's stages, for a figure that surprises.
  for (const line of build.stdout.split("\n")) if (/ ms {3}rss /.test(line)) console.log(`    ${line.trim()}`);
  const buildPeakMiB = Math.max(...[...build.stdout.matchAll(/peak (\d+) MiB/g)].map((match) => Number(match[1])));
  const approved = Number(/(\d+) approved listings/.exec(build.stdout)?.[1] ?? 0);
  const check = await timed("build/cli.ts", ["--check"], env);
  const distMiB = Number((await run("du", ["-sk", dist])).stdout.split("\t")[0]) / 1024;
  console.log(
    `  STATIC_PAGES=${staticPages}: build ${build.seconds.toFixed(1)} s (peak ${buildPeakMiB} MiB), check ${check.seconds.toFixed(1)} s, dist/ ${distMiB.toFixed(0)} MiB, ${approved} approved`,
  );
  return { dist, env, port, approved, buildSeconds: build.seconds, buildPeakMiB, checkSeconds: check.seconds, distMiB };
}

/** A file in the work folder written when the bench removes snapshots: its time is when it did. */
const removedMarker = (work: string) => join(work, ".snapshots-removed");

/**
 * Removes the snapshots in the work folder (they are not kept, the content is: a million
 * listings' is 9 GB), and notes when, for settle. The bench does this when a run ends and when
 * one starts (what an interrupted run left), never between sizes, so that removals happen at
 * known times, away from the builds.
 */
export async function removeSnapshots(work: string): Promise<void> {
  // Each snapshot's build cache (build/cache.ts) is beside it: `.dist-N-cache`.
  const snapshots = (await readdir(work)).filter((name) => /^\.?dist-\d+(-cache)?$/.test(name)).map((name) => join(work, name));
  if (snapshots.length === 0) return;
  await Promise.all(snapshots.map((dist) => rm(dist, { recursive: true, force: true })));
  await run("sync", []);
  await writeFile(removedMarker(work), `${new Date().toISOString()}\n`);
}

/**
 * Waits until the last removal of snapshots (by this run or the one before) is `seconds` old.
 * Some file systems are slow to allocate inodes for a while after many were freed (see
 * bench/README.md), which a build writing 100,000 files meets; off (0) by default.
 */
async function settle(work: string, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  const removed = (await stat(removedMarker(work)).catch(() => undefined))?.mtimeMs ?? Number.NEGATIVE_INFINITY;
  const wait = removed + seconds * 1000 - Date.now();
  if (wait <= 0) return;
  console.log(`  waiting ${(wait / 1000).toFixed(0)} s until the last removal of snapshots is ${seconds} s old (--settle)`);
  await sleep(wait);
}

/**
 * Reads every content file once, untimed, so that the build is measured on content in the page
 * cache, as a checkout or a pull leaves it, and not on content kept from an earlier run that the
 * system has since paged out (see bench/README.md).
 */
function warmPageCache(dir: string): { files: number; seconds: number } {
  const started = performance.now();
  const files = markdownFiles(dir);
  for (const file of files) readFileSync(file);
  return { files: files.length, seconds: (performance.now() - started) / 1000 };
}
