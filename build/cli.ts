/**
 * `npm run build` (content → dist/) and `npm run check` (validate only). Exits 1 with every
 * content error listed at its `path:line:col`, writing nothing; warnings are listed too and never
 * change the exit code. `--format github` prints them as GitHub Actions annotations;
 * `--verbose` prints each stage's time and memory. A usage mistake exits 2.
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ConfigError, readConfig } from "../src/config.ts";
import { type ContentProblem, readContent } from "./content.ts";
import { deriveModel } from "./derive.ts";
import { writeSnapshot } from "./emit.ts";
import { withPositions } from "./positions.ts";
import { count, inFileOrder, REPORT_FORMATS, type ReportFormat, reportLine, type Severity } from "./report.ts";
import { validateContent } from "./validate.ts";
import { linkWarnings } from "./warnings.ts";

const MiB = 2 ** 20;

/**
 * This process's peak resident memory in MiB. On Linux, VmHWM: getrusage's maxRSS (Node.js's
 * resourceUsage) carries over from the parent across fork and exec, so a build started by a
 * process holding 1.3 GB reported a 1.3 GB peak of its own.
 */
function peakMiB(): number {
  try {
    const found = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "latin1"));
    if (found !== null) return (Number(found[1]) * 1024) / MiB;
  } catch {
    // Not Linux.
  }
  return (process.resourceUsage().maxRSS * 1024) / MiB;
}

/** Prints, per stage, its time, the resident memory now and the peak so far. */
function stageLogger(verbose: boolean): (name: string) => void {
  let last = performance.now();
  return (name) => {
    if (!verbose) return;
    const now = performance.now();
    const rss = process.memoryUsage().rss / MiB;
    const peak = peakMiB();
    console.log(
      `  ${name.padEnd(34)} ${`${Math.round(now - last)} ms`.padStart(9)}   rss ${rss.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB`,
    );
    last = now;
  };
}

class UsageError extends Error {}

function options(): { checkOnly: boolean; verbose: boolean; format: ReportFormat } {
  let values: { check?: boolean; verbose?: boolean; format?: string };
  try {
    ({ values } = parseArgs({
      options: { check: { type: "boolean" }, verbose: { type: "boolean" }, format: { type: "string" } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}. Options: --format text|github, --verbose.`);
  }
  const format = values.format ?? "text";
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(", ")}, not "${format}".`);
  }
  return { checkOnly: values.check === true, verbose: values.verbose === true, format: format as ReportFormat };
}

async function main(): Promise<number> {
  const started = performance.now();
  const { checkOnly, verbose, format } = options();
  const stage = stageLogger(verbose);
  const config = readConfig();

  /** Prints problems at their positions: annotations on stdout for GitHub, lines on stderr otherwise. */
  const report = (problems: readonly ContentProblem[], severity: Severity) => {
    if (problems.length === 0) return;
    const lines = inFileOrder(withPositions(config.contentDir, problems)).map((problem) =>
      reportLine(config.contentDir, problem, severity, format),
    );
    // One write, not one per line: a large directory can have thousands.
    (format === "github" ? process.stdout : process.stderr).write(`${lines.join("\n")}\n`);
  };

  const raw = readContent(config.contentDir);
  stage(`read ${raw.businesses.length + raw.offerings.length + 1} files`);
  const validation = validateContent(raw);
  stage("validate");
  if (!validation.ok) {
    report(validation.problems, "error");
    report(validation.warnings, "warning");
    const warned = validation.warnings.length === 0 ? "" : ` and ${count(validation.warnings.length, "warning")}`;
    console.error(`${config.contentDir}: ${count(validation.problems.length, "content error")}${warned}; nothing was written.`);
    return 1;
  }

  const model = deriveModel(validation.content, config.baseUrl);
  stage("derive");
  const warnings = [...validation.warnings, ...linkWarnings(model, validation.content.offerings, validation.content.site)];
  report(warnings, "warning");
  stage(`report ${count(warnings.length, "warning")}`);
  const warned = warnings.length === 0 ? "" : `; ${count(warnings.length, "warning")}`;
  const skipped =
    Object.entries(model.skipped)
      .map(([status, count]) => `${count} ${status}`)
      .join(", ") || "none";
  const counts = `${model.offerings.length} offerings, ${model.businesses.length} approved listings (left out: ${skipped})`;
  if (checkOnly) {
    console.log(`${config.contentDir}: valid: ${counts}${warned}.`);
    return 0;
  }
  const { version, files } = await writeSnapshot(config.distDir, model, { builtAt: new Date(), stage });
  const ms = Math.round(performance.now() - started);
  console.log(`Built ${config.distDir}/ for ${model.baseUrl}: ${counts}; ${files} files; version ${version}; ${ms} ms${warned}.`);
  return 0;
}

/**
 * A reader that stops early (`npm run build -- --verbose | head`) closes our stdout or stderr:
 * the build goes on without printing rather than dying half-way on EPIPE, and its exit code
 * still says whether it succeeded.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${process.argv.includes("--check") ? "npm run check" : "npm run build"}: ${error.message}`);
      process.exitCode = 2;
      return;
    }
    console.error(error instanceof ConfigError ? error.message : `build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
