/**
 * `npm run compile`: compiles the server (src/ → server/, tsconfig.build.json) and marks when,
 * in server/.compiled. `npm run serve` (scripts/serve.mjs) calls compileIfStale first, which
 * compiles only when a source is newer than that mark (or there is no compiled server), so that a
 * current server is started at once: a check of the sources' times takes milliseconds, where tsc,
 * even with nothing to do, took seconds. Without TypeScript (a production install:
 * `npm ci --omit=dev`) or without src/ (the container's runtime stage) there is nothing to compile
 * from, and compileIfStale does nothing. Plain JavaScript, so that it starts without tsx.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
/** What the compiled server is made from. */
const SOURCES = ["src", "tsconfig.json", "tsconfig.build.json"];
const MARK = join("server", ".compiled");

/**
 * The newest modification time (ms) among `paths` under `root`, folders walked.
 * @param {string} root
 * @param {readonly string[]} paths
 * @returns {number}
 */
function newest(root, paths) {
  let latest = 0;
  for (const path of paths) {
    const full = join(root, path);
    const stats = statSync(full, { throwIfNoEntry: false });
    if (stats === undefined) continue;
    if (stats.isDirectory()) latest = Math.max(latest, newest(full, readdirSync(full)));
    else latest = Math.max(latest, stats.mtimeMs);
  }
  return latest;
}

/**
 * Whether the compiled server in `root` was compiled after its sources last changed.
 * @param {string} root
 */
export function compiledIsCurrent(root) {
  const mark = statSync(join(root, MARK), { throwIfNoEntry: false });
  if (mark === undefined || !existsSync(join(root, "server", "server.js"))) return false;
  return newest(root, SOURCES) <= mark.mtimeMs;
}

/**
 * Runs tsc; on success marks the compiled server with the time it started (a source saved during
 * the compile stays newer); its exit code.
 * @param {string} root
 * @returns {number}
 */
function compile(root) {
  let tsc;
  try {
    tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  } catch {
    console.error("npm run compile needs TypeScript, a dev dependency: run npm ci (not npm ci --omit=dev).");
    return 1;
  }
  const started = new Date();
  const { status } = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  if (status !== 0) return status ?? 1;
  writeFileSync(join(root, MARK), "");
  utimesSync(join(root, MARK), started, started);
  return 0;
}

/**
 * Compiles the server in `root` when it can and a source is newer than the compiled server; the
 * exit code (0 when there was nothing to do).
 * @param {string} root
 * @returns {number}
 */
export function compileIfStale(root) {
  const canCompile = existsSync(join(root, "src")) && existsSync(join(root, "node_modules", "typescript"));
  if (!canCompile || compiledIsCurrent(root)) return 0;
  return compile(root);
}

if (process.argv[1] === new URL(import.meta.url).pathname) process.exitCode = compile(ROOT);
