import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { serveContent } from "../helpers/server.ts";
import { SAMPLE_CONTENT, TEST_BASE_URL } from "../helpers/snapshot.ts";

/**
 * The Agent-Friendly Documentation checker (afdocs, pinned in package.json) run as an agent
 * would meet the site: from the server's root, on the sample content. Its pages are sampled in a
 * fixed order (`--sampling deterministic`) so a run is repeatable; `--canonical-origin` maps the
 * snapshot's BASE_URL to the test server.
 */

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** Its command line, beside its main module (the package exports no other path to it). */
const AFDOCS = join(dirname(require.resolve("afdocs")), "..", "bin", "afdocs.mjs");

interface CheckResult {
  id: string;
  status: "pass" | "warn" | "fail" | "skip" | "error";
  message: string;
}

const server = serveContent(SAMPLE_CONTENT);

test("AFDocs scores the sample content 100, with no check failing or warning", async () => {
  const args = [
    AFDOCS,
    "check",
    server.current.url,
    "--format",
    "json",
    "--score",
    "--quiet",
    "--sampling",
    "deterministic",
    "--canonical-origin",
    TEST_BASE_URL,
  ];
  // It exits 1 when a check fails; its report is on stdout either way.
  const stdout = await run(process.execPath, args, { maxBuffer: 256 * 2 ** 20 }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  const report = JSON.parse(stdout) as { results: CheckResult[]; scoring: { overall: number } };
  const notPassed = report.results.filter((result) => result.status !== "pass" && result.status !== "skip");
  assert.deepEqual(
    notPassed.map(({ id, status, message }) => `${id}: ${status}: ${message}`),
    [],
  );
  // Skipped only where the check does not apply: every page is public.
  assert.deepEqual(
    report.results.filter((result) => result.status === "skip").map((result) => result.id),
    ["auth-alternative-access"],
  );
  assert.equal(report.scoring.overall, 100);
  assert.equal(report.results.length, 28);
});
