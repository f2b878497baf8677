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
 * fixed order (`--sampling deterministic`) so a run is repeatable, and at random, as an agent's
 * crawl would, five times; `--canonical-origin` maps the snapshot's BASE_URL to the test server.
 */

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** Its command line, beside its main module (the package exports no other path to it). */
const AFDOCS = join(dirname(require.resolve("afdocs")), "..", "bin", "afdocs.mjs");

interface CheckResult {
  id: string;
  status: "pass" | "warn" | "fail" | "skip" | "error";
  message: string;
  details?: { pageResults?: { url: string; status?: string }[] };
}

const server = serveContent(SAMPLE_CONTENT);

/** AFDocs' report on the server, its pages sampled by `sampling`. */
async function check(sampling: "deterministic" | "random"): Promise<{ results: CheckResult[]; scoring: { overall: number } }> {
  const args = [
    AFDOCS,
    "check",
    server.current.url,
    "--format",
    "json",
    "--score",
    "--quiet",
    "--sampling",
    sampling,
    "--canonical-origin",
    TEST_BASE_URL,
    // Its pause between requests is politeness towards a public site: this one is the test's own.
    "--request-delay",
    "0",
  ];
  // It exits 1 when a check fails; its report is on stdout either way.
  const stdout = await run(process.execPath, args, { maxBuffer: 256 * 2 ** 20 }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? "",
  );
  return JSON.parse(stdout) as { results: CheckResult[]; scoring: { overall: number } };
}

/** What did not pass, with the pages it names: a failure says which page kind to look at. */
function notPassed(results: readonly CheckResult[]): string[] {
  return results
    .filter((result) => result.status !== "pass" && result.status !== "skip")
    .map(({ id, status, message, details }) => {
      const pages = (details?.pageResults ?? []).filter((page) => page.status !== undefined && page.status !== "pass");
      return `${id}: ${status}: ${message}${pages.map((page) => `\n  ${page.url}`).join("")}`;
    });
}

test("AFDocs scores the sample content 100, with no check failing or warning", async () => {
  const report = await check("deterministic");
  assert.deepEqual(notPassed(report.results), []);
  // Skipped only where the check does not apply: every page is public.
  assert.deepEqual(
    report.results.filter((result) => result.status === "skip").map((result) => result.id),
    ["auth-alternative-access"],
  );
  assert.equal(report.scoring.overall, 100);
  assert.equal(report.results.length, 28);
});

test("AFDocs with random sampling, five runs: no check fails or warns on any page it picks", async () => {
  // Each run samples other pages (a deterministic run always sees the same ones). One after the
  // other: side by side, they load the server enough for it to shed requests (503).
  const reports = [];
  for (let run = 0; run < 5; run += 1) reports.push(await check("random"));
  assert.deepEqual(
    reports.flatMap((report, i) => notPassed(report.results).map((line) => `run ${i + 1}: ${line}`)),
    [],
  );
});
