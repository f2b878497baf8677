import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import { compileIfStale } from "../../scripts/compile.mjs";
import { LogLines } from "../helpers/logs.ts";
import { freePort } from "../helpers/ports.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * `npm start`, `npm run serve` and `npm run dev` as an operator or an editor stops them: SIGTERM
 * to npm (a supervisor knows npm's process, not the server's), or Ctrl-C in a terminal (SIGINT to
 * every process of the group, which npm also passes on to the process it runs). The server
 * answers the call it has in flight and stops, npm exits 0, and nothing is left listening on the port.
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** Whether 127.0.0.1:`port` can be listened on now. */
async function portFree(port: number): Promise<boolean> {
  const probe = createServer();
  const free = await new Promise<boolean>((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (free) await new Promise((resolve) => probe.close(resolve));
  return free;
}

/**
 * An MCP call whose body is half sent, which keeps the stopping server running until `sendRest`:
 * a stop that is not graceful, or a copy of the signal taken as a second one, cuts it off.
 */
function heldMcpCall(url: string): { sendRest: () => void; status: Promise<number> } {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_businesses", arguments: { q: "plumb" } },
  });
  const request = httpRequest(`${url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      "content-length": Buffer.byteLength(body),
    },
  });
  const status = new Promise<number>((resolve, reject) => {
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
  });
  request.write(body.slice(0, 20));
  return { sendRest: () => request.end(body.slice(20)), status };
}

const STOPS = [
  { how: "SIGTERM to npm", signal: "SIGTERM", group: false },
  { how: "Ctrl-C (SIGINT to the process group)", signal: "SIGINT", group: true },
] as const;

describe("npm scripts that serve stop with their server", { concurrency: true }, () => {
  before(() => {
    // Once, before the concurrent runs: each would otherwise compile the same server/ at once.
    assert.equal(compileIfStale(ROOT), 0);
  });

  for (const script of ["serve", "start", "dev"] as const) {
    for (const { how, signal, group } of STOPS) {
      test(`npm ${script === "start" ? "start" : `run ${script}`}: ${how} stops the server gracefully, npm exits 0 and the port is free`, async () => {
        const work = await tempDir("npm-scripts-");
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        const dist = join(work.path, "dist");
        // serve finds a snapshot built already; start and dev build their own.
        if (script === "serve") await buildSnapshot(`${FIXTURES}basic`, dist, url);
        // In a group of its own, so that the test can send the group a terminal's Ctrl-C, and
        // remove whatever is left of it (a server npm did not stop) at the end.
        const npm = spawn("npm", ["run", script], {
          cwd: ROOT,
          detached: true,
          env: {
            ...process.env,
            CONTENT_DIR: `${FIXTURES}basic`,
            DIST_DIR: dist,
            BASE_URL: url,
            PORT: String(port),
            HOST: "127.0.0.1",
            LOG_LEVEL: "info",
          },
          stdio: ["ignore", "pipe", "pipe"],
        });
        const pid = npm.pid as number;
        const logs = new LogLines();
        let stderr = "";
        // npm run dev's server writes through pino-pretty, in colour.
        npm.stdout.setEncoding("utf8").on("data", (chunk: string) => logs.write(stripVTControlCharacters(chunk)));
        npm.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
        });
        // 'exit', not 'close': a process npm leaves behind holds its output open, and 'close' waits for it.
        const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          npm.on("exit", (code, exitSignal) => resolve({ code, signal: exitSignal })),
        );
        const closed = new Promise<void>((resolve) =>
          npm.on("close", () => {
            logs.end("npm and every process holding its output exited");
            resolve();
          }),
        );
        const said = (what: string, text: string) =>
          logs
            .waitFor(what, (line) => line.msg.includes(text))
            .catch((error: Error) => {
              throw new Error(`${error.message}\nnpm's stderr:\n${stderr}`);
            });
        try {
          await said("saying the server listens", `Server listening at ${url}`);
          const call = heldMcpCall(url);
          // A later request answered: the server has taken in the held call's headers too.
          assert.equal((await fetch(`${url}/healthz`)).status, 200);
          process.kill(group ? -pid : pid, signal);
          await said("saying the server stops", `${signal} received, closing`);
          call.sendRest();
          const answer = await call.status;
          const ended = await exited;
          const free = await portFree(port);
          await closed;
          const stops = logs.lines.filter((line) => line.msg.includes("received, closing")).length;
          assert.deepEqual(
            { answer, ended, free, stops },
            { answer: 200, ended: { code: 0, signal: null }, free: true, stops: 1 },
            `the held call's status, npm's exit, whether the port is free, the server's lines saying it stops; npm's stderr:\n${stderr}`,
          );
        } finally {
          // Whatever is left of npm's group when the test failed: a server npm did not stop, say.
          try {
            process.kill(-pid, "SIGKILL");
          } catch {
            // None: what should be.
          }
          await closed;
          await work.remove();
        }
      });
    }
  }
});
