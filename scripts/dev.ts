/**
 * `npm run dev`: builds content/ into dist/, serves it with readable logs (pino-pretty), and
 * rebuilds whenever a file under content/ changes. The server picks each new snapshot up by
 * itself (src/snapshot/reload.ts), so there is no restart; a build with content errors prints
 * them and leaves the last good snapshot served. Ctrl-C stops everything.
 *
 * The builds run in this process, each after the first from the cache the one before left in
 * memory (build/build.ts): at 100,000 listings a build as a process of its own spent about 1.2 s
 * starting (Node.js, tsx, the build's modules) and 0.6 s reading the cache back. They remember
 * what they made of listings (build/listing-memo.ts), and read again only the files the watcher
 * saw change, not every file's stat.
 *
 * It also serves the editors' form at /admin/ (scripts/dev-admin/) when HOST is a loopback
 * address: it then listens on HOST:PORT itself and passes every other request to the server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { relative, sep } from "node:path";
import PinoPretty from "pino-pretty";
import { type BuildOptions, build, failure } from "../build/build.ts";
import type { BuildCache } from "../build/cache.ts";
import { unchangedBut } from "../build/content.ts";
import { ListingMemo } from "../build/listing-memo.ts";
import { type Config, ConfigError, contentDirOf, readConfig } from "../src/config.ts";
import { SNAPSHOT_BUILT_MESSAGE } from "../src/snapshot/reload.ts";
import { type Editor, startEditor } from "./dev-admin/editor.ts";
import { watchTree } from "./watch-tree.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/** A mistaken variable is said in one line, and exit code 1, before anything starts. */
function orExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
/** The content folder to watch. */
const CONTENT_DIR = orExit(contentDirOf);
const CONFIG: Config = orExit(readConfig);
/** The editors' form, when HOST lets it be on; the public address cannot be listened on: one line, exit code 1. */
const editor: Editor | null = await startEditor(CONFIG, CONTENT_DIR).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
const tsx = (script: string) =>
  spawn(process.execPath, ["--import", "tsx", script], {
    cwd: ROOT,
    env: { ...process.env, ...editor?.serverEnv },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });

/** A build as `npm run build` makes it. */
const BUILD: BuildOptions = { checkOnly: false, clean: false, verbose: false, allWarnings: false, format: "text" };
/** The cache the last build that wrote a snapshot saved; null before the first, or after a build that did not. */
let saved: BuildCache | null = null;
/** What the builds remember of listings from one build to the next. */
const memo = new ListingMemo();

/**
 * What the watcher said changed since the last build started, as paths relative to the content
 * folder; null after more than MAX_EVENTS events: every file's stat is then compared, as `npm run
 * build` does. An inotify queue that overflows drops events unsaid, and only once it holds more
 * than fs.inotify.max_queued_events events (16,384 by default).
 */
let changed: Set<string> | null = new Set();
let events = 0;
const MAX_EVENTS = 1000;

async function buildOnce(): Promise<boolean> {
  const since = changed;
  changed = new Set();
  events = 0;
  try {
    const built = await build(
      BUILD,
      saved === null
        ? { memo, written: tellServer }
        : { previous: saved.next(), memo, written: tellServer, ...(since === null ? {} : { unchanged: unchangedBut(since) }) },
    );
    saved = built.cache;
    return built.code === 0;
  } catch (error) {
    saved = null;
    console.error(failure(error));
    return false;
  }
}

let server: ChildProcess | null = null;
/**
 * Tells the server a snapshot was written, as soon as it is in place: the server looks at once,
 * not at its next second's check, while the build saves its cache. (A server that has just
 * stopped cannot be told: the callback takes that error.)
 */
function tellServer(): void {
  server?.send(SNAPSHOT_BUILT_MESSAGE, () => {});
}
function serve(): void {
  server = tsx("src/server.ts");
  const log = editor === null ? server.stdout : server.stdout?.pipe(editor.publicLog());
  log?.pipe(PinoPretty({ colorize: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss" }));
  server.on("exit", (code) => {
    server = null;
    if (!stopping) console.error(`the server stopped (exit code ${code}); fix the problem, then save a content file to try again`);
  });
}

let building: Promise<void> | null = null;
let again = false;
async function rebuild(): Promise<void> {
  if (building !== null) {
    again = true;
    return;
  }
  building = (async () => {
    do {
      again = false;
      const ok = await buildOnce();
      if (ok && server === null && !stopping) serve();
    } while (again);
  })();
  await building;
  building = null;
}

let stopping = false;
/**
 * Passes the signal on to the server and exits as it does: 0 once it has stopped gracefully. The
 * same signal, not SIGTERM: a terminal's Ctrl-C has sent the server a SIGINT too, and the server
 * takes a second signal of another kind as a demand to exit at once. Only the first signal counts:
 * npm sends this process a copy of the terminal's.
 */
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  watcher.close();
  // The form's backend is stopped with the server, and waited for: nothing is left running.
  const editorStopped = editor?.stop();
  if (server === null) {
    void Promise.resolve(editorStopped).then(() => process.exit(0));
    return;
  }
  server.on("exit", (code) => void Promise.resolve(editorStopped).then(() => process.exit(code ?? 1)));
  server.kill(signal);
}

/**
 * How long the watcher waits for the changes of one save (an editor's write and rename, a few
 * milliseconds apart) before a build starts. A burst longer than this (a checkout) may start a
 * build before it ends; the changes after it start another (`again`).
 */
const SETTLE_MS = 50;
let timer: NodeJS.Timeout | undefined;
const watcher = watchTree(CONTENT_DIR, (path) => {
  events += 1;
  changed?.add(relative(CONTENT_DIR, path).split(sep).join("/"));
  if (events > MAX_EVENTS) changed = null;
  clearTimeout(timer);
  timer = setTimeout(() => void rebuild(), SETTLE_MS);
});
// SIGHUP too: the server takes it as a stop, and a closed terminal sends it to both.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
console.log(`watching ${CONTENT_DIR}/ for changes`);
await rebuild();
