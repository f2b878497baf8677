/**
 * `npm run build` (content → dist/) and `npm run check` (validate only). Exits 1 with every
 * content error listed at its `path:line:col`, writing nothing; warnings are listed too and never
 * change the exit code: the first few of each kind (WARNINGS_PER_KIND), then how many more there
 * are of it, since a large directory can warn about thousands of files; `--all-warnings` lists every one.
 * `--format github` prints them as GitHub Actions annotations; `--verbose` prints each stage's
 * time and memory. A usage mistake exits 2.
 *
 * A build is incremental (build/cache.ts): files unchanged since the last build are not parsed
 * or checked again, and pages whose inputs did not change are kept from the previous snapshot.
 * `--clean` builds from nothing (and writes a new cache); its data files and pages are the same,
 * byte for byte (test/build/incremental.test.ts).
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { ConfigError, readConfig } from "../src/config.ts";
import { BuildCache } from "./cache.ts";
import { type ContentProblem, readContent } from "./content.ts";
import { deriveModel } from "./derive.ts";
import { writeSnapshot } from "./emit.ts";
import { mcpAppHtml } from "./mcp-app.ts";
import { ALL_WARNINGS_OPTION, count, errorLines, REPORT_FORMATS, type ReportFormat, WARNINGS_PER_KIND, warningLines } from "./report.ts";
import { validateContent } from "./validate.ts";
import { type ContentWarning, linkWarnings } from "./warnings.ts";

const MiB = 2 ** 20;

/** The MCP App's document in the cache (it depends on the code alone). */
const MCP_APP_FILE = "mcp-app.html";

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

interface Options {
  readonly checkOnly: boolean;
  readonly clean: boolean;
  readonly verbose: boolean;
  readonly allWarnings: boolean;
  readonly format: ReportFormat;
}

function options(): Options {
  let values: { check?: boolean; clean?: boolean; verbose?: boolean; format?: string; [ALL_WARNINGS_OPTION]?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        check: { type: "boolean" },
        clean: { type: "boolean" },
        verbose: { type: "boolean" },
        format: { type: "string" },
        [ALL_WARNINGS_OPTION]: { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message}. Options: --clean, --format text|github, --${ALL_WARNINGS_OPTION}, --verbose.`);
  }
  const format = values.format ?? "text";
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(", ")}, not "${format}".`);
  }
  return {
    checkOnly: values.check === true,
    clean: values.clean === true,
    verbose: values.verbose === true,
    allWarnings: values[ALL_WARNINGS_OPTION] === true,
    format: format as ReportFormat,
  };
}

async function main(): Promise<number> {
  const startedAt = performance.now();
  const started = Date.now();
  const { checkOnly, clean, verbose, allWarnings, format } = options();
  const stage = stageLogger(verbose);
  const config = readConfig();
  const cache = BuildCache.open(config.distDir, config.baseUrl, { clean });

  /** Prints errors and warnings: annotations on stdout for GitHub, lines on stderr otherwise. */
  const report = (errors: readonly ContentProblem[], warnings: readonly ContentWarning[]) => {
    const lines = [
      ...errorLines(config.contentDir, errors, format),
      ...warningLines(config.contentDir, warnings, format, allWarnings ? Number.POSITIVE_INFINITY : WARNINGS_PER_KIND),
    ];
    // One write, not one per line: a large directory can have thousands.
    if (lines.length > 0) (format === "github" ? process.stdout : process.stderr).write(`${lines.join("\n")}\n`);
  };

  const raw = readContent(config.contentDir, { cache, started });
  const sources = [...raw.businesses, ...raw.offerings, ...(raw.site === null ? [] : [raw.site])];
  const unchanged = sources.filter((source) => source.checked === true).length;
  stage(`read ${sources.length} files, ${unchanged} unchanged${cache.unused === null ? "" : ` (${cache.unused})`}`);
  const validation = validateContent(raw);
  stage("validate");
  if (!validation.ok) {
    report(validation.problems, validation.warnings);
    const warned = validation.warnings.length === 0 ? "" : ` and ${count(validation.warnings.length, "warning")}`;
    console.error(`${config.contentDir}: ${count(validation.problems.length, "content error")}${warned}; nothing was written.`);
    return 1;
  }

  const model = deriveModel(validation.content, config.baseUrl);
  stage("derive");
  const warnings = [...validation.warnings, ...linkWarnings(model, validation.content.offerings, validation.content.site)];
  report([], warnings);
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
  const previousPages = cache.pageInputs(config.distDir);
  const { version, files, pages, lineHashes } = await writeSnapshot(config.distDir, model, {
    builtAt: new Date(),
    stage,
    previousPages,
    mcpApp: () => cache.made(MCP_APP_FILE, mcpAppHtml),
  });
  for (const [rank, { file, cached, paging }] of model.listingSources.entries()) {
    const lineSha256 = lineHashes[rank] ?? "";
    if (cached?.lineSha256 !== lineSha256 || cached.paging !== paging) cache.keepListing(file, { lineSha256, paging });
  }
  await cache.save(pages);
  stage("save the cache");
  const ms = Math.round(performance.now() - startedAt);
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
