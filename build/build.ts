/**
 * One build (content → dist/, or with `checkOnly` a check that writes nothing), as `npm run build`
 * and `npm run check` run it (build/cli.ts) and as `npm run dev` runs it on every save
 * (scripts/dev.ts), in its own process: there each build after the first starts from the cache
 * the one before saved, kept in memory (BuildCache.next), not from reading it back, and
 * no process, tsx or module is started for it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { ConfigError, readConfig } from "../src/config.ts";
import { BuildCache } from "./cache.ts";
import { type ContentProblem, readContent } from "./content.ts";
import { deriveModel } from "./derive.ts";
import { writeSnapshot } from "./emit.ts";
import type { ListingMemo } from "./listing-memo.ts";
import { mcpAppHtml } from "./mcp-app.ts";
import { count, errorLines, fileWarningLine, type ReportFormat, WARNINGS_PER_KIND, warningLines } from "./report.ts";
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

export interface BuildOptions {
  readonly checkOnly: boolean;
  readonly clean: boolean;
  readonly verbose: boolean;
  readonly allWarnings: boolean;
  readonly format: ReportFormat;
}

/** What a build in a series of builds in one process (`npm run dev`) starts from. */
export interface InProcess {
  /** An earlier build's cache, its next() (used by one build only); without it, the cache beside dist/. */
  readonly previous?: BuildCache;
  /** What the builds of the series remember of listings (build/listing-memo.ts). */
  readonly memo: ListingMemo;
  /** With `previous`: which files are known to be unchanged since its build started (see readContent). */
  readonly unchanged?: (file: string) => boolean;
  /** Called once the new snapshot is in place, before the cache is saved. */
  readonly written?: () => void;
}

/**
 * Builds (or checks) the content that the environment names (src/config.ts); its exit code, and
 * the cache it saved once it has written a snapshot (null otherwise), whose next() a later build
 * in this process may start from. It starts from `inProcess.previous`; without it, from the
 * cache beside dist/ (from none with `clean`).
 */
export async function build(
  { checkOnly, clean, verbose, allWarnings, format }: BuildOptions,
  inProcess?: InProcess,
): Promise<{ code: number; cache: BuildCache | null }> {
  const startedAt = performance.now();
  const started = Date.now();
  const stage = stageLogger(verbose);
  const config = readConfig();
  // Checked before the content is read: a typo must stop the build at once, as CONTENT_DIR's does.
  const previousSnapshot = checkOnly ? undefined : config.previousSnapshot;
  const staticPages = checkOnly || config.staticPages;
  const cache = inProcess?.previous ?? BuildCache.open(config.distDir, config.baseUrl, { clean });

  /** Prints errors and warnings: annotations on stdout for GitHub, lines on stderr otherwise. */
  const report = (errors: readonly ContentProblem[], warnings: readonly ContentWarning[]) => {
    const lines = [
      ...errorLines(config.contentDir, errors, format),
      ...warningLines(config.contentDir, warnings, format, allWarnings ? Number.POSITIVE_INFINITY : WARNINGS_PER_KIND),
    ];
    // One write, not one per line: a large directory can have thousands.
    if (lines.length > 0) (format === "github" ? process.stdout : process.stderr).write(`${lines.join("\n")}\n`);
  };

  // The watcher's word holds only against the previous build's cache, not the one on disk.
  const unchangedFiles = inProcess?.previous === undefined ? undefined : inProcess.unchanged;
  const raw = readContent(config.contentDir, { cache, started, ...(unchangedFiles === undefined ? {} : { unchanged: unchangedFiles }) });
  const sources = [...raw.businesses, ...raw.offerings, ...(raw.site === null ? [] : [raw.site])];
  const unchanged = sources.filter((source) => source.cached !== undefined).length;
  stage(`read ${sources.length} files, ${unchanged} unchanged${cache.unused === null ? "" : ` (${cache.unused})`}`);
  const validation = validateContent(raw, (file, own) => cache.keepOwn(file, own));
  stage("validate");
  if (!validation.ok) {
    report(validation.problems, validation.warnings);
    const warned = validation.warnings.length === 0 ? "" : ` and ${count(validation.warnings.length, "warning")}`;
    console.error(`${config.contentDir}: ${count(validation.problems.length, "content error")}${warned}; nothing was written.`);
    return { code: 1, cache: null };
  }

  const model = deriveModel(validation.content, config.baseUrl, inProcess?.memo);
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
    return { code: 0, cache: null };
  }
  const previousPages = cache.pageInputs(config.distDir);
  const { version, files, pages, lineHashes, history } = await writeSnapshot(config.distDir, model, {
    builtAt: new Date(),
    stage,
    previousPages,
    previousSnapshot,
    staticPages,
    mcpApp: () => cache.made(MCP_APP_FILE, mcpAppHtml),
    ...(inProcess === undefined ? {} : { memo: inProcess.memo }),
  });
  if (history.note !== undefined) console.log(`${history.note}: the release history starts anew with this build.`);
  if (history.warning !== undefined) {
    const { path, message } = history.warning;
    const line = fileWarningLine(resolve(path), "release history", `${message}; it starts anew with this build`, format);
    (format === "github" ? process.stdout : process.stderr).write(`${line}\n`);
  }
  inProcess?.written?.();
  for (const [rank, { file, cached, paging }] of model.listingSources.entries()) {
    const lineSha256 = lineHashes[rank] ?? "";
    if (cached?.lineSha256 !== lineSha256 || cached.paging !== paging) cache.keepListing(file, { lineSha256, paging });
  }
  await cache.save(pages);
  stage("save the cache");
  const ms = Math.round(performance.now() - startedAt);
  const release =
    history.made === null
      ? `no new release (the listings are release ${history.current.version}'s)`
      : history.made.previous === null
        ? "the first release of its history"
        : `a release of ${count(history.made.upserts, "upsert")} and ${count(history.made.removals, "removal")}`;
  console.log(
    `Built ${config.distDir}/ for ${model.baseUrl}: ${counts}; ${files} files; version ${version}, ${release}; ${ms} ms${warned}.`,
  );
  return { code: 0, cache };
}

/** What to say of a build that threw: a configuration mistake as it is, anything else as a failure. */
export function failure(error: unknown): string {
  return error instanceof ConfigError ? error.message : `build failed: ${error instanceof Error ? error.message : String(error)}`;
}
