/**
 * What a bench run reports: a line per scenario as it is measured, then the tables (Markdown),
 * printed and written with every figure to the results file.
 */

import { writeFile } from "node:fs/promises";
import type { EditTimes } from "./edits.ts";
import type { LlmsWalk } from "./llms-crawl.ts";
import { cpuMicrosPerRequest, type LoadResult, type Pacing } from "./load.ts";

export interface Row {
  readonly scenario: string;
  readonly result: LoadResult;
  /** The bare fastify route measured in turns with this scenario: its yardstick. */
  readonly baseline?: LoadResult;
  /** The same scenario on the --against server, in the same rounds, set against the same yardstick. */
  readonly against?: LoadResult;
  /** The share of its answers the answer cache sent, when the cache was on. */
  readonly cacheHitRate?: number;
}

/** A server's start and memory: those of the cache-off single process every scenario but two runs on. */
export interface Serving {
  readonly readySeconds: number;
  readonly rssAfterLoadMiB: number;
  /** Its resident memory once every cache-off scenario (of those run) has run against it. */
  readonly rssAfterTrafficMiB: number;
}

/** The same content built with STATIC_PAGES=false, for the server alone (--static-pages both). */
export interface ServerOnly {
  readonly buildSeconds: number;
  readonly buildPeakMiB: number;
  readonly checkSeconds: number;
  readonly distMiB: number;
  readonly edits?: EditTimes;
}

export interface SizeResult extends Serving {
  readonly listings: number;
  readonly approved: number;
  readonly buildSeconds: number;
  readonly buildPeakMiB: number;
  readonly checkSeconds: number;
  readonly distMiB: number;
  /** The walk of the llms.txt indexes from /llms.txt, on the built files. */
  readonly llms: LlmsWalk;
  /** One listing edited: rebuilt, served under npm run dev; and npm run serve's start (not with --no-edits). */
  readonly edits?: EditTimes;
  /** The --against server's start and memory on the same snapshot. */
  readonly against?: Serving;
  readonly serverOnly?: ServerOnly;
  readonly rows: Row[];
}

/** What a run was: where, how hard, and what it compared. */
interface RunInfo extends Pacing {
  readonly machine: string;
  /** The commit measured (git's short name). */
  readonly commit: string;
  /** The --against server's folder. */
  readonly against?: string;
  /** The --only scenarios' names. */
  readonly only?: readonly string[];
}

/** A latency in milliseconds, to two decimals at most (the means of several turns have more). */
const ms = (value: number) => String(Number(value.toFixed(2)));
/** A figure not measured in this run (its scenarios left out by --only) is NaN, shown as "-". */
const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
const ratio = (value: number, base: number) => (base > 0 && Number.isFinite(value) ? `${(value / base).toFixed(2)}` : "-");
const rate = (result: LoadResult) => Math.round(result.perSecond).toLocaleString("en");

function loadLine(label: string, result: LoadResult, baseline: LoadResult | undefined): string {
  const base = baseline === undefined ? "" : `  ${ratio(result.perSecond, baseline.perSecond)} × ${Math.round(baseline.perSecond)}`;
  const cpuBase = baseline === undefined ? "" : ` (${ratio(cpuMicrosPerRequest(result), cpuMicrosPerRequest(baseline))} × bare's)`;
  const cpu = Number.isFinite(cpuMicrosPerRequest(result)) ? `  cpu ${cpuMicrosPerRequest(result).toFixed(1)} µs/req${cpuBase}` : "";
  return `    ${label.padEnd(44)} ${Math.round(result.perSecond).toString().padStart(7)} req/s  p50 ${ms(result.p50)} ms  p99 ${ms(result.p99)} ms${base}${cpu}`;
}

/** A scenario's figures as soon as it is measured: the current server's, and the --against server's beside them. */
export function printRow({ scenario, result, baseline, against }: Row): void {
  console.log(loadLine(scenario, result, baseline));
  if (against !== undefined) {
    const cpu = ratio(cpuMicrosPerRequest(result), cpuMicrosPerRequest(against));
    console.log(`${loadLine("  against", against, baseline)}  current / against ${ratio(result.perSecond, against.perSecond)}, cpu ${cpu}`);
  }
}

function table(results: readonly SizeResult[]): string {
  const lines: string[] = [];
  lines.push(
    "| listings | scenario | req/s | × base | p50 ms | × base | p99 ms | × base | errors | server CPU µs/req | × base | cache hits |",
  );
  lines.push("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const size of results) {
    const mean = size.rows[0]?.result;
    for (const { scenario, result, baseline, cacheHitRate } of size.rows) {
      // Each scenario against the baseline measured in turns with it; the baseline's row is their mean.
      const base = baseline ?? mean;
      const cpu = cpuMicrosPerRequest(result);
      const hits = cacheHitRate === undefined ? "-" : `${(cacheHitRate * 100).toFixed(1)}%`;
      lines.push(
        `| ${size.listings.toLocaleString("en")} | ${scenario} | ${rate(result)} | ${ratio(result.perSecond, base?.perSecond ?? 0)} | ${ms(result.p50)} | ${ratio(result.p50, base?.p50 ?? 0)} | ${ms(result.p99)} | ${ratio(result.p99, base?.p99 ?? 0)} | ${result.non2xx + result.errors} | ${fixed(cpu, 1)} | ${base === undefined ? "-" : ratio(cpu, cpuMicrosPerRequest(base))} | ${hits} |`,
      );
    }
  }
  const compared = results.some((size) => size.against !== undefined);
  lines.push("");
  lines.push(
    `| listings | build s | build peak MiB | check s | dist/ MiB | ready s | RSS after load MiB | RSS after traffic MiB |${compared ? " against: ready s | RSS after load MiB | RSS after traffic MiB |" : ""}`,
  );
  lines.push(`| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |${compared ? " ---: | ---: | ---: |" : ""}`);
  const serving = (figures: Serving) =>
    `${fixed(figures.readySeconds, 2)} | ${fixed(figures.rssAfterLoadMiB, 0)} | ${fixed(figures.rssAfterTrafficMiB, 0)} |`;
  for (const size of results) {
    lines.push(
      `| ${size.listings.toLocaleString("en")} | ${size.buildSeconds.toFixed(1)} | ${size.buildPeakMiB} | ${size.checkSeconds.toFixed(1)} | ${size.distMiB.toFixed(0)} | ${serving(size)}${size.against === undefined ? "" : ` ${serving(size.against)}`}`,
    );
    const only = size.serverOnly;
    if (only !== undefined) {
      lines.push(
        `| ${size.listings.toLocaleString("en")}, STATIC_PAGES=false | ${only.buildSeconds.toFixed(1)} | ${only.buildPeakMiB} | ${only.checkSeconds.toFixed(1)} | ${only.distMiB.toFixed(0)} | - | - | - |`,
      );
    }
  }
  lines.push(
    "",
    "| listings | llms.txt walk: index files | longest characters | files of 50,000 or more | profiles reached | approved profiles | s |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map(
      ({ listings, llms }) =>
        `| ${listings.toLocaleString("en")} | ${llms.files} | ${llms.longestCharacters} | ${llms.tooLong} | ${llms.reached} | ${llms.profiles} | ${llms.seconds.toFixed(1)} |`,
    ),
  );
  const edited = results.flatMap((size) => [
    ...(size.edits === undefined ? [] : [{ listings: size.listings.toLocaleString("en"), edits: size.edits }]),
    ...(size.serverOnly?.edits === undefined
      ? []
      : [{ listings: `${size.listings.toLocaleString("en")}, STATIC_PAGES=false`, edits: size.serverOnly.edits }]),
  ]);
  if (edited.length > 0) {
    const both = (seconds: { readonly edit: number; readonly undo: number } | undefined) =>
      `${fixed(seconds?.edit ?? Number.NaN, 1)}, ${fixed(seconds?.undo ?? Number.NaN, 1)}`;
    lines.push(
      "",
      "| listings | one-edit rebuild s (edit, undo) | npm run dev: save to served s (edit, undo) | npm run serve: command to answer s |",
      "| ---: | ---: | ---: | ---: |",
      ...edited.map(
        ({ listings, edits }) =>
          `| ${listings} | ${both(edits?.rebuildSeconds)} | ${both(edits?.devServedSeconds)} | ${fixed(edits?.npmServeReadySeconds ?? Number.NaN, 2)} |`,
      ),
    );
  }
  if (results.some((size) => size.rows.some((row) => row.against !== undefined))) lines.push("", ...comparison(results));
  return lines.join("\n");
}

/** Each scenario on both servers (--against, or a scenario's own second server), measured in the same rounds against the same yardstick. */
function comparison(results: readonly SizeResult[]): string[] {
  const lines = [
    "| listings | scenario | req/s | × base | p99 ms | CPU µs/req | against req/s | × base | p99 ms | CPU µs/req | against errors | req/s current / against | CPU µs/req current / against |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const size of results) {
    for (const { scenario, result, baseline, against } of size.rows) {
      if (against === undefined) continue;
      const base = baseline?.perSecond ?? 0;
      lines.push(
        `| ${size.listings.toLocaleString("en")} | ${scenario} | ${rate(result)} | ${ratio(result.perSecond, base)} | ${ms(result.p99)} | ${fixed(cpuMicrosPerRequest(result), 1)} | ${rate(against)} | ${ratio(against.perSecond, base)} | ${ms(against.p99)} | ${fixed(cpuMicrosPerRequest(against), 1)} | ${against.non2xx + against.errors} | ${ratio(result.perSecond, against.perSecond)} | ${ratio(cpuMicrosPerRequest(result), cpuMicrosPerRequest(against))} |`,
      );
    }
  }
  return lines;
}

/** Prints the tables and writes them, with every figure, to `out`. */
export async function report(out: string, info: RunInfo, results: readonly SizeResult[]): Promise<void> {
  const markdown = table(results);
  console.log(`\n${markdown}`);
  const { machine, commit, connections, warmupSeconds, seconds, rounds, yardstickSeconds, against, only } = info;
  const written = {
    date: new Date().toISOString(),
    machine,
    commit,
    connections,
    warmupSeconds,
    seconds,
    rounds,
    yardstickSeconds,
    against,
    only,
  };
  await writeFile(out, `${JSON.stringify({ ...written, results, table: markdown }, null, 2)}\n`);
  console.log(`\nwritten to ${out}`);
}
