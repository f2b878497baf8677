/**
 * What a full bench run leaves in the repository: its results file in bench/results/, a line of
 * bench/results/history.json and the table made from those lines (history.md), and the README's
 * performance table, rewritten between its markers from the newest results of each size. Nothing
 * else is written, and nothing by hand: `git diff` after a run shows these alone.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cpuMicrosPerRequest, type LoadResult } from "./load.ts";
import type { SizeResult } from "./report.ts";

/** The folder of the results and their history. */
export const RESULTS_DIR = new URL("results/", import.meta.url).pathname;
const README = new URL("../README.md", import.meta.url).pathname;
const HISTORY = join(RESULTS_DIR, "history.json");
const HISTORY_TABLE = join(RESULTS_DIR, "history.md");
/** Where the README's table goes: between these two lines, which the bench keeps. */
const TABLE_START = "<!-- bench:table:start (written by npm run bench: do not edit by hand) -->";
const TABLE_END = "<!-- bench:table:end -->";

/** A results file as report() writes it. */
interface ResultsFile {
  readonly date: string;
  readonly machine: string;
  readonly commit?: string;
  readonly results: readonly SizeResult[];
}

/** One run in the history: when, on what, and its headline figures at each size. */
interface HistoryEntry {
  readonly date: string;
  readonly commit: string;
  readonly machine: string;
  readonly file: string;
  readonly sizes: readonly {
    readonly listings: number;
    readonly buildSeconds: number;
    readonly readySeconds: number;
    /** Each scenario's rate over the bare route's in the same turns, and its server CPU a request over the bare route's. */
    readonly scenarios: Readonly<Record<string, { readonly xBare: number; readonly cpuXBare: number }>>;
  }[];
}

const ratio = (value: number, base: number) => (base > 0 && Number.isFinite(value) ? value / base : Number.NaN);
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "–");
const thousands = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString("en") : "–");

/** The figures of one scenario against its own yardstick (or, for the yardstick's row, the mean of every turn). */
function against(result: LoadResult, baseline: LoadResult | undefined) {
  return {
    xBare: ratio(result.perSecond, baseline?.perSecond ?? result.perSecond),
    cpuXBare: ratio(cpuMicrosPerRequest(result), cpuMicrosPerRequest(baseline ?? result)),
  };
}

function entryOf(file: string, run: ResultsFile): HistoryEntry {
  return {
    date: run.date,
    commit: run.commit ?? "",
    machine: run.machine,
    file,
    sizes: run.results.map((size) => ({
      listings: size.listings,
      buildSeconds: size.buildSeconds,
      readySeconds: size.readySeconds,
      scenarios: Object.fromEntries(size.rows.slice(1).map((row) => [row.scenario, against(row.result, row.baseline)])),
    })),
  };
}

/** The history as a table: a row per run and size, the scenarios users meet most as columns. */
function historyTable(history: readonly HistoryEntry[]): string {
  const columns = [
    "directory search mix, cache off",
    "HTML directory page, cache off",
    "MCP 2025-11-25 tools/call search_businesses",
    "facets of the search mix, cache off",
    "as deployed: JSON search, Zipf over 20,000 searches",
  ];
  const lines = [
    "# Bench history",
    "",
    "Written by `npm run bench` from `history.json`, a line per full run: each scenario's requests a second over the bare route's in the same turns (× bare), and in brackets its server CPU time a request over the bare route's.",
    "",
    `| date | commit | listings | build s | ready s | ${columns.join(" | ")} |`,
    `| --- | --- | ---: | ---: | ---: | ${columns.map(() => "---:").join(" | ")} |`,
  ];
  for (const entry of history) {
    for (const size of entry.sizes) {
      const cells = columns.map((name) => {
        const figures = size.scenarios[name];
        return figures === undefined ? "–" : `${fixed(figures.xBare, 2)} (${fixed(figures.cpuXBare, 2)})`;
      });
      lines.push(
        `| ${entry.date.slice(0, 16).replace("T", " ")} | ${entry.commit} | ${thousands(size.listings)} | ${fixed(size.buildSeconds, 1)} | ${fixed(size.readySeconds, 2)} | ${cells.join(" | ")} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** The newest results of each size among the results files, with the run they come from. */
async function newestBySize(): Promise<Map<number, { size: SizeResult; run: ResultsFile }>> {
  const newest = new Map<number, { size: SizeResult; run: ResultsFile }>();
  for (const name of (await readdir(RESULTS_DIR)).filter((file) => file.endsWith(".json"))) {
    const run = JSON.parse(await readFile(join(RESULTS_DIR, name), "utf8")) as Partial<ResultsFile>;
    if (!Array.isArray(run.results) || typeof run.date !== "string") continue;
    for (const size of run.results) {
      const kept = newest.get(size.listings);
      if (kept === undefined || kept.run.date < run.date) newest.set(size.listings, { size, run: run as ResultsFile });
    }
  }
  return newest;
}

/** The README's tables: the newest figures at 100,000 and 1,000,000 listings side by side, each scenario against the bare route. */
function readmeTable(newest: Map<number, { size: SizeResult; run: ResultsFile }>): string {
  const sizes = [100_000, 1_000_000].flatMap((listings) => {
    const found = newest.get(listings);
    return found === undefined ? [] : [found];
  });
  const scenarios = [...new Set(sizes.flatMap(({ size }) => size.rows.map((row) => row.scenario)))];
  const lines = sizes.map(
    ({ size, run }) =>
      `${thousands(size.listings)} listings: ${run.date.slice(0, 16).replace("T", " ")} UTC${run.commit === undefined ? "" : `, ${run.commit}`}, ${run.machine}.`,
  );
  lines.push(
    "",
    `| scenario | ${sizes.map(({ size }) => `${thousands(size.listings)}: req/s | × bare | p99 ms | CPU × bare | cache hits`).join(" | ")} |`,
    `| --- | ${sizes.map(() => "---: | ---: | ---: | ---: | ---:").join(" | ")} |`,
  );
  for (const scenario of scenarios) {
    const cells = sizes.map(({ size }) => {
      const row = size.rows.find((candidate) => candidate.scenario === scenario);
      if (row === undefined) return "– | – | – | – | –";
      const { xBare, cpuXBare } = against(row.result, row.baseline ?? size.rows[0]?.result);
      const hits = row.cacheHitRate === undefined ? "" : `${(row.cacheHitRate * 100).toFixed(0)}%`;
      return `${thousands(row.result.perSecond)} | ${fixed(xBare, 2)} | ${row.result.p99} | ${fixed(cpuXBare, 2)} | ${hits}`;
    });
    lines.push(`| ${scenario} | ${cells.join(" | ")} |`);
  }
  lines.push(
    "",
    "| listings | build s | build peak MiB | check s | `dist/` MiB | ready s | one edit rebuilt s | `npm run dev`: save to served s |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const { size } of sizes) {
    lines.push(
      `| ${thousands(size.listings)} | ${fixed(size.buildSeconds, 1)} | ${thousands(size.buildPeakMiB)} | ${fixed(size.checkSeconds, 1)} | ${thousands(size.distMiB)} | ${fixed(size.readySeconds, 2)} | ${fixed(size.edits?.rebuildSeconds.edit ?? Number.NaN, 1)} | ${fixed(size.edits?.devServedSeconds.edit ?? Number.NaN, 1)} |`,
    );
    const only = size.serverOnly;
    if (only !== undefined) {
      lines.push(
        `| ${thousands(size.listings)}, \`STATIC_PAGES=false\` | ${fixed(only.buildSeconds, 1)} | ${thousands(only.buildPeakMiB)} | ${fixed(only.checkSeconds, 1)} | ${thousands(only.distMiB)} | ${fixed(only.edits?.npmServeReadySeconds ?? Number.NaN, 2)} | ${fixed(only.edits?.rebuildSeconds.edit ?? Number.NaN, 1)} | ${fixed(only.edits?.devServedSeconds.edit ?? Number.NaN, 1)} |`,
      );
    }
  }
  return lines.join("\n");
}

/** The README's tables as they stand in the results files now, without recording a run. */
async function rewriteReadme(): Promise<void> {
  await writeFile(README, betweenMarkers(await readFile(README, "utf8"), readmeTable(await newestBySize())));
}

/** `text` with what stands between the markers replaced by `table`. */
export function betweenMarkers(text: string, table: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`README.md has lost the bench's markers (${TABLE_START} … ${TABLE_END})`);
  return `${text.slice(0, start + TABLE_START.length)}\n${table}\n${text.slice(end)}`;
}

/** Records the run written to `file` (in bench/results/) in the history and rewrites the history table and the README's. */
export async function publish(file: string): Promise<void> {
  const run = JSON.parse(await readFile(join(RESULTS_DIR, file), "utf8")) as ResultsFile;
  const history = JSON.parse(await readFile(HISTORY, "utf8").catch(() => "[]")) as HistoryEntry[];
  history.push(entryOf(file, run));
  await writeFile(HISTORY, `${JSON.stringify(history, null, 2)}\n`);
  await writeFile(HISTORY_TABLE, historyTable(history));
  await rewriteReadme();
  console.log(`bench/results/${file}, its history and the README's table written`);
}
