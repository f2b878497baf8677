/**
 * decap-server, the editors' form's backend (its local file-system mode): it reads and writes the
 * files the form saves, in the folder that holds the content folder, so the paths config.yml
 * names (`content/businesses`) are the ones a git repository's root would give. It listens on
 * 127.0.0.1 alone, on a port that was free a moment before, and has no login: only this machine
 * may reach it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";

const require = createRequire(import.meta.url);
const PACKAGE = dirname(require.resolve("decap-server/package.json"));

export interface Backend {
  /** Its API, as config.yml's `local_backend.url` names it. */
  readonly url: string;
  /** Stops it; resolves once it has exited. */
  stop(): Promise<void>;
}

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", resolve);
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no TCP address on 127.0.0.1");
  return address.port;
}

/** Starts decap-server writing under `folder`; resolves once it says it listens, rejects with what it said when it stops first. */
export async function startBackend(folder: string): Promise<Backend> {
  const port = await freeLoopbackPort();
  // Only what it reads (and PATH): an ORIGIN or a .env of the user's would change its CORS rule.
  // Its own folder as the working directory, where there is no .env for its dotenv to read.
  const child: ChildProcess = spawn(process.execPath, [join(PACKAGE, "dist/index.js")], {
    cwd: PACKAGE,
    env: {
      PATH: process.env.PATH ?? "",
      MODE: "fs",
      GIT_REPO_DIRECTORY: folder,
      BIND_HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const said: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let pending = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines.map((text) => stripVTControlCharacters(text).trim())) {
        if (line.includes(`listening on 127.0.0.1:${port}`)) resolve();
        // Its requests are logged at debug; at info only its start, at warn and error what went wrong.
        else if (/^(warn|error)\b/.test(line)) console.error(`the editor's backend: ${line}`);
        said.push(line);
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => said.push(chunk.trim()));
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`decap-server stopped (${signal ?? `exit code ${code}`}): ${said.join(" ").slice(-300)}`)),
    );
  });
  child.removeAllListeners("exit");
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      // A stop signal is a terminal's Ctrl-C (sent to every process of npm run dev) or this process's own.
      if (!stopping && signal === null)
        console.error(`the editor's backend stopped (exit code ${code}); saves fail until npm run dev starts again`);
      resolve();
    }),
  );
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    stop: () => {
      stopping = true;
      child.kill("SIGTERM");
      return exited;
    },
  };
}
