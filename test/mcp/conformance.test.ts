import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { tempDir } from "../helpers/snapshot.ts";
import { type McpTestServer, startMcpServer } from "./helpers.ts";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the endpoint, for
 * each era's requirement set. Its exit code is 0 only when every failing scenario or check is in
 * test/mcp/conformance-expected-failures.yml and no listed one passes. The suite needs Node.js 22
 * or newer (it imports fs.globSync); .ci/run runs the tests under Node.js 24 too.
 */

const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
const SKIP = NODE_MAJOR < 22 ? `the conformance suite needs Node.js 22 or newer (this is ${process.version})` : false;
/** The package's `conformance` command (it has no main entry to resolve). */
const require = createRequire(import.meta.url);
const CLI = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist/index.js");
const BASELINE = new URL("./conformance-expected-failures.yml", import.meta.url).pathname;

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
}

/** Runs the suite's server scenarios of one requirement set; returns its exit code, output and checks by scenario. */
async function runSuite(url: string, requirements: string, outputDir: string) {
  const args = [CLI, "server", "--url", url, "--requirements", requirements, "--expected-failures", BASELINE, "-o", outputDir];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(timer);
  const checks = new Map<string, Check[]>();
  for (const entry of await readdir(outputDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
    if (scenario === undefined) continue;
    checks.set(scenario, JSON.parse(await readFile(`${outputDir}/${entry}/checks.json`, "utf8")) as Check[]);
  }
  return { code, output, checks };
}

/** The scenarios of a run in which no check failed or warned, and that passed at least one check. */
function passing(checks: Map<string, Check[]>): string[] {
  return [...checks]
    .filter(
      ([, list]) =>
        list.some((check) => check.status === "SUCCESS") && list.every((check) => check.status !== "FAILURE" && check.status !== "WARNING"),
    )
    .map(([scenario]) => scenario)
    .sort();
}

describe("the MCP conformance suite", { skip: SKIP }, () => {
  let server: McpTestServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;

  before(async () => {
    server = await startMcpServer();
    dir = await tempDir("mcp-conformance-");
  });
  after(async () => {
    await server?.close();
    await dir?.remove();
  });

  test("passes 2026-07-28's requirements but for the listed fixture scenarios", async () => {
    const { code, output, checks } = await runSuite(`${server.baseUrl}/mcp`, "2026-07-28", `${dir.path}/modern`);
    assert.equal(code, 0, output);
    const passed = passing(checks);
    for (const scenario of [
      "dns-rebinding-protection",
      "http-header-validation",
      "resources-list",
      "sep-2164-resource-not-found",
      "server-sse-multiple-streams",
      "tools-list",
    ]) {
      assert.ok(passed.includes(scenario), `${scenario} did not pass:\n${output}`);
    }
    // Caching hints: every check passes but the one on prompts/list (this server has no prompts).
    const caching = (checks.get("caching") ?? []).filter((check) => check.status !== "INFO");
    assert.deepEqual(
      caching.filter((check) => check.status !== "SUCCESS").map((check) => check.id),
      ["sep-2549-prompts-list-caching-hints"],
    );
    assert.ok(caching.length >= 8, output);
    // The stateless scenario runs every 2026-07-28 request rule; only its fixture-tool checks may fail.
    const stateless = checks.get("server-stateless") ?? [];
    assert.ok(stateless.filter((check) => check.status === "SUCCESS").length >= 20, output);
  });

  test("passes 2025-11-25's requirements but for the listed fixture scenarios", async () => {
    const { code, output, checks } = await runSuite(`${server.baseUrl}/mcp`, "2025-11-25", `${dir.path}/legacy`);
    assert.equal(code, 0, output);
    const passed = passing(checks);
    for (const scenario of ["dns-rebinding-protection", "ping", "resources-list", "server-initialize", "tools-list"]) {
      assert.ok(passed.includes(scenario), `${scenario} did not pass:\n${output}`);
    }
  });
});
