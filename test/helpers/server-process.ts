import { type ChildProcess, spawn } from "node:child_process";
import { LogLines } from "./logs.ts";
import { freePort } from "./ports.ts";
import { TEST_BASE_URL } from "./snapshot.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Its stdout: pino's JSON lines, parsed as they come. */
  logs: LogLines;
  /** Its exit code (null when a signal killed it). */
  exited: Promise<number | null>;
}

/**
 * Runs src/server.ts as a process serving `distDir` on 127.0.0.1, and resolves once it logs that
 * it listens (its first worker's line with WORKERS=n). `env` overrides configuration variables;
 * with `ipc`, it is started with an IPC channel, as `npm run dev` starts it.
 */
export async function startServerProcess(distDir: string, env: Record<string, string> = {}, { ipc = false } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DIST_DIR: distDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: TEST_BASE_URL,
      LOG_LEVEL: "info",
      RATE_LIMIT_MAX: "0",
      ...env,
    },
    stdio: ipc ? ["ignore", "pipe", "pipe", "ipc"] : ["ignore", "pipe", "pipe"],
  });
  const logs = new LogLines();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => logs.write(chunk));
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  // 'close', not 'exit': the last lines written have been read by then.
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code, signal) => {
      logs.end(`the process exited (${signal ?? code})`);
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await logs.waitFor("saying it listens", (line) => line.msg === `Server listening at ${url}`);
  } catch (error) {
    child.kill("SIGKILL");
    await exited;
    // A configuration or snapshot error is on stderr.
    throw new Error(`${(error as Error).message}\nIts stderr:\n${stderr}`);
  }
  return { url, child, logs, exited };
}

export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
  await server.exited;
}
