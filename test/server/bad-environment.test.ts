import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LogLines } from "../helpers/logs.ts";
import { freePort } from "../helpers/ports.ts";
import { TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/**
 * Every variable of the README's Configuration table, given a value that cannot be used: the
 * command that reads it (the server, or the build for CONTENT_DIR) exits 1 with one line naming
 * it, and a server never listens. The names come from the README itself, so a row added there
 * without a case here fails. Then the addresses a server cannot listen on, alone and with
 * WORKERS=2: one line naming the variables, and exit code 1, which a supervisor takes for a failure.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const SERVER = ["--import", "tsx", "src/server.ts"];
const BUILD = ["--import", "tsx", "build/cli.ts"];

/** The variables the README's Configuration section lists in its table, in order. */
function readmeVariables(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Configuration\n")).split(/\n## (?!Configuration)/)[0] ?? "";
  return [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map(([, name]) => name as string);
}

interface BadValue {
  value: string;
  /** All the command writes on stderr. */
  line: string;
  /** The build reads it; the server does not. */
  build?: true;
  /** Other variables the case needs. */
  env?: Record<string, string>;
}

/** What a command did: its exit code, its stderr lines, and whether it said it listens (its stdout). */
interface Ending {
  code: number | null;
  stderr: string[];
  listened: boolean;
}

/** Runs `args` until it exits; one that says it listens is stopped at once (and its ending says so). */
async function ending(args: string[], env: Record<string, string>): Promise<Ending> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const logs = new LogLines();
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => logs.write(chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = new Promise<number | null>((resolve) =>
    child.on("close", (exitCode) => {
      logs.end(`the process exited (${exitCode})`);
      resolve(exitCode);
    }),
  );
  const listening = (line: { msg: string }) => line.msg.startsWith("Server listening at ");
  logs.waitFor("saying it listens", listening).then(
    () => child.kill("SIGKILL"),
    () => child.kill("SIGKILL"),
  );
  return { code: await code, stderr: stderr.split("\n").filter((line) => line !== ""), listened: logs.lines.some(listening) };
}

/** Runs the jobs, `width` at a time: each is a Node.js start with tsx, and the machine may have two cores. */
async function inTurns<T>(jobs: (() => Promise<T>)[], width = 4): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < jobs.length; index = next++) results[index] = await (jobs[index] as () => Promise<T>)();
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

describe("a value that cannot be used", () => {
  let work: { path: string; remove: () => Promise<void> };
  /** A port this test holds: nothing else can listen on it. */
  let busy: Server;
  let busyPort: number;

  before(async () => {
    work = await tempDir("bad-environment-");
    await writeFile(join(work.path, "a-file"), "");
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  after(async () => {
    await new Promise((resolve) => busy.close(resolve));
    await work.remove();
  });

  /** A configuration a server starts with, on a port of its own; every variable under test is blanked (unset). */
  async function validEnv(): Promise<Record<string, string>> {
    const blanks = Object.fromEntries(readmeVariables().map((name) => [name, ""]));
    return {
      ...blanks,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
      DIST_DIR: join(work.path, "dist"),
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      BASE_URL: TEST_BASE_URL,
      // info: the line saying it listens, which no case may reach, is at that level.
      LOG_LEVEL: "info",
    };
  }

  /** The addresses a server cannot listen on: cases for PORT, METRICS_PORT and HOST, run alone and with WORKERS=2. */
  const unusableAddresses = (port: number): Record<string, BadValue[]> => ({
    PORT: [{ value: String(busyPort), line: `cannot listen on 127.0.0.1:${busyPort} (HOST, PORT): the address is already in use` }],
    METRICS_PORT: [
      { value: String(busyPort), line: `cannot listen on 127.0.0.1:${busyPort} (HOST, METRICS_PORT): the address is already in use` },
    ],
    HOST: [
      {
        value: "nonexistent.invalid",
        line: `cannot listen on nonexistent.invalid:${port}: HOST does not resolve to an address of this machine`,
      },
      // TEST-NET-1 (RFC 5737): an address, but none of this machine's.
      { value: "192.0.2.1", line: `cannot listen on 192.0.2.1:${port}: HOST is not an address of this machine` },
    ],
  });

  /** Each variable's cases; `port` is PORT's value in the configuration they are given in. */
  const badValues = (port: number): Record<string, BadValue[]> => {
    const missing = join(work.path, "missing");
    const file = join(work.path, "a-file");
    const whole = (name: string, value: string, range: string) => ({
      value,
      line: `config: ${name} must be a whole number from ${range}.`,
    });
    const addresses = unusableAddresses(port);
    return {
      CONTENT_DIR: [
        { value: missing, build: true, line: `config: CONTENT_DIR must name the folder of editors' files; ${missing} does not exist.` },
        { value: file, build: true, line: `config: CONTENT_DIR must name the folder of editors' files; ${file} is a file.` },
      ],
      STATIC_PAGES: [
        {
          value: "no",
          build: true,
          line: "config: STATIC_PAGES must be true (write every profile's page files, for a static host) or false (the snapshot the server reads).",
        },
      ],
      PREVIOUS_SNAPSHOT: [
        {
          value: missing,
          build: true,
          line: `config: PREVIOUS_SNAPSHOT must name the folder of an earlier snapshot (or its data/); ${missing} does not exist.`,
        },
        {
          value: file,
          build: true,
          line: `config: PREVIOUS_SNAPSHOT must name the folder of an earlier snapshot (or its data/); ${file} is a file.`,
        },
      ],
      DIST_DIR: [{ value: file, line: `config: DIST_DIR must name a folder (or where to make one); ${file} is a file.` }],
      BASE_URL: [
        { value: "directory.example", line: "config: BASE_URL must be an absolute http: or https: URL such as https://directory.example." },
      ],
      PORT: [whole("PORT", "65536", "0 to 65535"), ...(addresses.PORT ?? [])],
      HOST: [
        {
          value: "local host",
          line: 'config: HOST must be an IP address or a host name such as 0.0.0.0, 127.0.0.1 or localhost, not "local host".',
        },
        ...(addresses.HOST ?? []),
      ],
      CACHE_SECONDS: [whole("CACHE_SECONDS", "-1", "0 to 86400")],
      CACHE_MAX_MB: [whole("CACHE_MAX_MB", "0", "1 to 65536")],
      STALE_WHILE_REVALIDATE_SECONDS: [whole("STALE_WHILE_REVALIDATE_SECONDS", "1m", "0 to 31536000")],
      STALE_IF_ERROR_SECONDS: [whole("STALE_IF_ERROR_SECONDS", "1.5", "0 to 31536000")],
      RATE_LIMIT_MAX: [whole("RATE_LIMIT_MAX", "unlimited", "0 to 1000000")],
      TRUST_PROXY: [
        {
          value: "yes",
          line: "config: TRUST_PROXY must be true, false, a hop count, or a comma-separated list of IP addresses or CIDR ranges.",
        },
      ],
      METRICS_PORT: [
        whole("METRICS_PORT", "0", "1 to 65535"),
        {
          value: String(port),
          line: `config: METRICS_PORT must differ from PORT (both are ${port}): metrics are never served on the public port.`,
        },
        ...(addresses.METRICS_PORT ?? []),
      ],
      WORKERS: [whole("WORKERS", "0", "1 to 64")],
      LISTINGS_IN_MEMORY_MB: [whole("LISTINGS_IN_MEMORY_MB", "2048", "0 to 2047")],
      MCP_ALLOWED_ORIGINS: [
        {
          value: "https://app.example,app.example",
          line: 'config: MCP_ALLOWED_ORIGINS must be origins such as https://app.example or http://localhost:5173, separated by commas; "app.example" is not one.',
        },
        {
          value: "https://app.example/",
          line: 'config: MCP_ALLOWED_ORIGINS must be origins such as https://app.example or http://localhost:5173, separated by commas; "https://app.example/" is not one.',
        },
      ],
      MCP_ALLOWED_HOSTS: [
        {
          value: "mcp.example/mcp",
          line: 'config: MCP_ALLOWED_HOSTS must be Host values such as mcp.example or mcp.example:8443, separated by commas; "mcp.example/mcp" is not one.',
        },
        {
          value: "mcp.example, mcp .example",
          line: 'config: MCP_ALLOWED_HOSTS must be Host values such as mcp.example or mcp.example:8443, separated by commas; "mcp .example" is not one.',
        },
      ],
      LOG_LEVEL: [
        { value: "verbose", line: 'config: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose".' },
      ],
      OTEL_EXPORTER_OTLP_ENDPOINT: [
        {
          value: "collector:4318",
          line: "config: OTEL_EXPORTER_OTLP_ENDPOINT must be an http: or https: URL such as http://collector:4318.",
        },
      ],
    };
  };

  /** Runs each case of `cases` in its own process; the endings, with what was expected of each. */
  async function run(cases: Record<string, BadValue[]>, env: Record<string, string>, extra: Record<string, string> = {}) {
    const jobs = Object.entries(cases).flatMap(([name, values]) =>
      values.map((bad) => async () => {
        const given = { ...env, ...extra, ...bad.env, [name]: bad.value };
        const got = await ending(bad.build === true ? BUILD : SERVER, given);
        const expected: Ending = { code: 1, stderr: [bad.line], listened: false };
        return { name, value: bad.value, got, expected };
      }),
    );
    return inTurns(jobs);
  }

  test("every variable in the README's Configuration table has a case, and no case is for a variable it lacks", () => {
    assert.deepEqual(Object.keys(badValues(3000)).sort(), readmeVariables().sort());
  });

  test("each stops its command with exit code 1 and one line on stderr that names the variable", async () => {
    const env = await validEnv();
    const results = await run(badValues(Number(env.PORT)), env);
    // All at once, so that a failure lists every case that failed.
    assert.deepEqual(
      results.map(({ name, value, got }) => ({ name, value, ...got })),
      results.map(({ name, value, expected }) => ({ name, value, ...expected })),
    );
    for (const { name, value, got } of results) assert.match(got.stderr[0] ?? "", new RegExp(`\\b${name}\\b`), `${name}=${value}`);
  });

  test("with WORKERS=2, an address the server cannot listen on stops the supervising process with exit code 1 and one line", async () => {
    const env = await validEnv();
    const results = await run(unusableAddresses(Number(env.PORT)), env, { WORKERS: "2" });
    assert.equal(results.length, 4);
    assert.deepEqual(
      results.map(({ name, value, got }) => ({ name, value, ...got })),
      results.map(({ name, value, expected }) => ({ name, value, ...expected })),
    );
  });
});
