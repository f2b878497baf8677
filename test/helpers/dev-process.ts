import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";
import { LogLines } from "./logs.ts";
import { freePort } from "./ports.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

export interface DevProcess {
  /** The site's address: http://127.0.0.1:<PORT>. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Its output (stdout): the server's log through pino-pretty, and npm run dev's own lines. */
  readonly logs: LogLines;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

/** `npm run dev` (scripts/dev.ts) on `contentDir`, once the site's server says it listens. */
export async function startDev(contentDir: string, distDir: string, env: Record<string, string> = {}): Promise<DevProcess> {
  const port = await freePort();
  const dev = spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts"], {
    cwd: ROOT,
    env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: distDir, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const logs = new LogLines();
  // pino-pretty colours the server's lines.
  dev.stdout.setEncoding("utf8").on("data", (chunk: string) => logs.write(stripVTControlCharacters(chunk)));
  const exited = new Promise<number | null>((resolve) =>
    dev.on("close", (code) => {
      logs.end(`npm run dev exited (${code})`);
      resolve(code);
    }),
  );
  await logs.waitFor("the server listening", (line) => line.msg.includes("Server listening at"));
  assert.ok(dev.pid !== undefined);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: dev.pid,
    logs,
    stop: () => {
      dev.kill("SIGTERM");
      return exited;
    },
  };
}
