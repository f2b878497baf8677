/**
 * `npm run dev`: builds content/ into dist/, serves it with readable logs (pino-pretty), and
 * rebuilds whenever a file under content/ changes. The server picks each new snapshot up by
 * itself (src/snapshot/reload.ts), so there is no restart; a build with content errors prints
 * them and leaves the last good snapshot served. Ctrl-C stops everything.
 */
import { type ChildProcess, spawn } from "node:child_process";
import PinoPretty from "pino-pretty";
import { watchTree } from "./watch-tree.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const CONTENT_DIR = process.env.CONTENT_DIR || "content";
const tsx = (script: string, stdio: "inherit" | "pipe") =>
  spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, env: process.env, stdio: ["ignore", stdio, "inherit"] });

function build(): Promise<boolean> {
  return new Promise((resolve) => tsx("build/cli.ts", "inherit").on("exit", (code) => resolve(code === 0)));
}

let server: ChildProcess | null = null;
function serve(): void {
  server = tsx("src/server.ts", "pipe");
  server.stdout?.pipe(PinoPretty({ colorize: true, ignore: "pid,hostname", translateTime: "SYS:HH:MM:ss" }));
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
      const ok = await build();
      if (ok && server === null && !stopping) serve();
    } while (again);
  })();
  await building;
  building = null;
}

let stopping = false;
function stop(): void {
  stopping = true;
  watcher.close();
  if (server === null) process.exit(0);
  server.on("exit", () => process.exit(0));
  server.kill("SIGTERM");
}

let timer: NodeJS.Timeout | undefined;
const watcher = watchTree(CONTENT_DIR, () => {
  clearTimeout(timer);
  timer = setTimeout(() => void rebuild(), 200);
});
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
console.log(`watching ${CONTENT_DIR}/ for changes`);
await rebuild();
