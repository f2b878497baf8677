/**
 * The scenarios a bench run measures on each snapshot, and how: every scenario on the server as
 * production runs it (and, with --against, on another compiled server started the same way), in
 * turns with the bare route (bench/baseline.ts), driven by autocannon in a process of its own
 * (bench/load.ts).
 */
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { freePort } from "../test/helpers/ports.ts";
import { random } from "./generate.ts";
import { combined, type LoadOutput, type Pacing, type Target } from "./load.ts";
import {
  cacheHitRate,
  type RunningServer,
  rssMiB,
  SERVER_ENTRY,
  type ServerSettings,
  type Snapshot,
  startBaseline,
  startServer,
  stop,
  timed,
} from "./processes.ts";
import { type DirectoryQuery, directoryQueries, distinctQueries, type ListingFacts, queryString } from "./queries.ts";
import { printRow, type Row, type Serving } from "./report.ts";

/** What the scenarios' requests are made from: a sample of the snapshot's listings and searches about them. */
interface Sample {
  readonly headers: Record<string, string>;
  readonly queries: readonly DirectoryQuery[];
  /** DEPLOYED_SEARCHES distinct searches, the most asked first: what the as-deployed scenarios draw from. */
  readonly distinct: readonly DirectoryQuery[];
  readonly slugs: readonly string[];
  /** The release before the one of FEED_CHANGES changes (bench/release.ts). */
  readonly since: string;
}

/** How many listings the change feed's release changes. */
export const FEED_CHANGES = 1_000;

/** How many distinct searches the as-deployed scenarios draw from, and the Zipf law they are drawn by (s = 1). */
const DEPLOYED_SEARCHES = 20_000;
const DEPLOYED_STREAM = { seed: 1234, exponent: 1 } as const;

/** One scenario: the server it needs and the requests it sends, cycled by every connection. */
interface Scenario {
  /** A short name for --only. */
  readonly key: string;
  readonly name: string;
  /** The server's settings: scenarios given the same object share a server, and an as-deployed one has a server of its own. */
  readonly server: ServerSettings;
  /**
   * A second server of this checkout's, with these settings, measured in the same turns (as
   * --against is, which takes its place when given): what one setting costs, with ÷ without.
   */
  readonly beside?: ServerSettings;
  readonly requests: (sample: Sample) => Omit<Target, "url">;
}

/** The server as production runs it: the result cache off, one process. Scenarios that share a setting share a server. */
const PRODUCTION: ServerSettings = { cacheSeconds: 0, workers: 1 };
const CACHE_ON: ServerSettings = { cacheSeconds: 60, workers: 1 };
const TWO_WORKERS: ServerSettings = { cacheSeconds: 0, workers: 2 };
const METRICS_ON: ServerSettings = { cacheSeconds: 0, workers: 1, metrics: true };

/** As an operator runs it: every setting at its default (the answer cache on for 60 s), but RATE_LIMIT_MAX=0 (the load comes from one address). */
const deployed = (): ServerSettings => ({ cacheSeconds: 60, workers: 1 });

const searches = ({ headers, queries }: Sample): Omit<Target, "url"> => ({
  headers,
  requests: queries.map((query) => ({ method: "GET", path: `/api/directory${queryString(query)}` })),
});

/** The search mix as a query string, without its paging (the facets take none). */
const facetsPath = ({ q, location, country }: DirectoryQuery) => `/api/facets${queryString({ q, location, country })}`;

const facets = ({ headers, queries }: Sample): Omit<Target, "url"> => ({
  headers,
  requests: queries.map((query) => ({ method: "GET", path: facetsPath(query) })),
});

const html = ({ headers, queries }: Sample): Omit<Target, "url"> => ({
  headers: { ...headers, accept: "text/html" },
  requests: queries.map((query) => ({ method: "GET", path: `/businesses${queryString(query)}` })),
});

const markdownPage = ({ headers, queries }: Sample): Omit<Target, "url"> => ({
  headers,
  requests: queries.map((query) => ({ method: "GET", path: `/businesses/index.md${queryString(query)}` })),
});

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
/** 2026-07-28 sends the version and capabilities in each request's _meta, and headers that mirror the body. */
const MCP_2026_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** The page size the 25-result MCP scenarios ask for, where the mix's own searches mostly take the tool's default (10). */
const MCP_FULL_PAGE = 25;

/**
 * `tools/call search_businesses` with the search mix's arguments (with `limit` set to `limit`
 * when given), stateless: 2025-11-25 after its handshake, the version in a header only;
 * 2026-07-28 with the version and capabilities in each request's `_meta` and the headers that
 * mirror the body.
 */
const mcpSearches =
  (era: "2025-11-25" | "2026-07-28", limit?: number) =>
  ({ headers, queries }: Sample): Omit<Target, "url"> => {
    const modern = era === "2026-07-28";
    return {
      headers: {
        ...headers,
        ...MCP_HEADERS,
        "mcp-protocol-version": era,
        ...(modern ? { "mcp-method": "tools/call", "mcp-name": "search_businesses" } : {}),
      },
      requests: queries.map((query, id) => ({
        method: "POST",
        path: "/mcp",
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "search_businesses",
            arguments: limit === undefined ? query : { ...query, limit },
            ...(modern ? { _meta: MCP_2026_META } : {}),
          },
        }),
      })),
    };
  };

/** The as-deployed scenario of `requests`: the distinct searches, drawn by the Zipf law, on a server of its own. */
function asDeployed(key: string, name: string, requests: (sample: Sample) => Omit<Target, "url">): Scenario {
  return {
    key: `deployed-${key}`,
    name: `as deployed: ${name}, Zipf over ${DEPLOYED_SEARCHES.toLocaleString("en")} searches`,
    server: deployed(),
    requests: (sample) => ({ ...requests({ ...sample, queries: sample.distinct }), zipf: DEPLOYED_STREAM }),
  };
}

/**
 * Every scenario, in the order run: those of the production server, then the search mix again
 * with Prometheus metrics on (METRICS_PORT: what counting every request costs), with the result
 * cache on, and with WORKERS=2 (node:cluster) on a machine whose cores autocannon shares.
 */
export const SCENARIOS: readonly Scenario[] = [
  { key: "search", name: "directory search mix, cache off", server: PRODUCTION, requests: searches },
  {
    key: "business",
    name: "read a business",
    server: PRODUCTION,
    requests: ({ headers, slugs }) => ({ headers, requests: slugs.map((slug) => ({ method: "GET", path: `/api/directory/${slug}` })) }),
  },
  { key: "facets", name: "facets of the search mix, cache off", server: PRODUCTION, requests: facets },
  {
    key: "offerings",
    name: "offerings search",
    server: PRODUCTION,
    requests: ({ headers }) => ({
      headers,
      requests: ["quote", "guide", "cost", "directory api", "plumb", "x"].map((q) => ({
        method: "GET",
        path: `/api/offerings?q=${encodeURIComponent(q)}`,
      })),
    }),
  },
  { key: "html", name: "HTML directory page, cache off", server: PRODUCTION, requests: html },
  { key: "markdown-page", name: "Markdown directory page, cache off", server: PRODUCTION, requests: markdownPage },
  {
    key: "markdown",
    name: "Markdown profile",
    server: PRODUCTION,
    requests: ({ headers, slugs }) => ({
      headers,
      requests: slugs.map((slug) => ({ method: "GET", path: `/businesses/${slug}/index.md` })),
    }),
  },
  { key: "mcp-2025", name: "MCP 2025-11-25 tools/call search_businesses", server: PRODUCTION, requests: mcpSearches("2025-11-25") },
  { key: "mcp-2026", name: "MCP 2026-07-28 tools/call search_businesses", server: PRODUCTION, requests: mcpSearches("2026-07-28") },
  {
    key: "mcp-2025-25",
    name: "MCP 2025-11-25 search_businesses, 25 results",
    server: PRODUCTION,
    requests: mcpSearches("2025-11-25", MCP_FULL_PAGE),
  },
  {
    key: "mcp-2026-25",
    name: "MCP 2026-07-28 search_businesses, 25 results",
    server: PRODUCTION,
    requests: mcpSearches("2026-07-28", MCP_FULL_PAGE),
  },
  {
    key: "search-metrics",
    name: "directory search mix, cache off, METRICS_PORT set (against: without)",
    server: METRICS_ON,
    beside: PRODUCTION,
    requests: searches,
  },
  { key: "search-cache", name: "directory search mix, cache on (60 s)", server: CACHE_ON, requests: searches },
  { key: "search-workers", name: "directory search mix, cache off, WORKERS=2", server: TWO_WORKERS, requests: searches },
  {
    key: "changes",
    name: `change feed since a release of ${FEED_CHANGES.toLocaleString("en")} changes, cache off`,
    server: PRODUCTION,
    requests: ({ headers, since }) => ({ headers, requests: [{ method: "GET", path: `/api/changes?since=${since}` }] }),
  },
  asDeployed("json", "JSON search", searches),
  asDeployed("html", "HTML directory page", html),
  asDeployed("markdown", "Markdown directory page", markdownPage),
  asDeployed("mcp", "MCP 2025-11-25 search_businesses", mcpSearches("2025-11-25")),
  asDeployed("facets", "facets", facets),
];

/**
 * The scenarios `only` names, in the order they run: a comma-separated list of keys or names,
 * any case. A name may itself hold commas ("directory search mix, cache off, WORKERS=2"), so
 * each item is the longest run of the list's parts that names a scenario.
 */
export function selectScenarios(only: string | undefined): Scenario[] {
  if (only === undefined) return [...SCENARIOS];
  const named = (item: string) =>
    SCENARIOS.find((scenario) => [scenario.key, scenario.name].some((name) => name.toLowerCase() === item.trim().toLowerCase()));
  const parts = only.split(",");
  const chosen = new Set<Scenario>();
  for (let at = 0; at < parts.length; ) {
    const longestFirst = parts.map((_, index) => parts.length - index).filter((end) => end > at);
    const match = longestFirst
      .map((end) => ({ end, scenario: named(parts.slice(at, end).join(",")) }))
      .find(({ scenario }) => scenario !== undefined);
    if (match?.scenario === undefined) {
      throw new Error(
        `--only ${only}: no scenario "${parts[at]?.trim()}"; the scenarios are ${SCENARIOS.map(({ key }) => key).join(", ")}`,
      );
    }
    chosen.add(match.scenario);
    at = match.end;
  }
  return SCENARIOS.filter((scenario) => chosen.has(scenario));
}

/** A seeded sample of `count` listings of a built snapshot (reservoir sampling over its NDJSON). */
async function sampleListings(dist: string, count: number): Promise<(ListingFacts & { slug: string })[]> {
  const lines = createInterface({ input: createReadStream(join(dist, "data", "businesses.ndjson")), crlfDelay: Number.POSITIVE_INFINITY });
  const next = random(11);
  const sample: string[] = [];
  let seen = 0;
  for await (const line of lines) {
    if (line === "") continue;
    seen += 1;
    if (sample.length < count) sample.push(line);
    else {
      const at = Math.floor(next() * seen);
      if (at < count) sample[at] = line;
    }
  }
  return sample.map((line) => JSON.parse(line) as ListingFacts & { slug: string });
}

/** How a size's scenarios are run. */
interface Measuring {
  readonly pacing: Pacing;
  /** Where the load spec is written for bench/load.ts. */
  readonly work: string;
  readonly scenarios: readonly Scenario[];
  /** The entry of the server compared with this checkout's (--against). */
  readonly against?: string;
  readonly since?: string;
}

/**
 * One scenario on each server, in turns with the yardstick: autocannon in its own process,
 * warmed up unmeasured, then measured in rounds (bench/load.ts).
 */
async function load(name: string, targets: readonly Target[], yardstick: Target, { pacing, work }: Measuring): Promise<Row> {
  const file = join(work, "load-spec.json");
  await writeFile(file, JSON.stringify({ ...pacing, targets, yardstick }));
  const { stdout } = await timed("bench/load.ts", [file], {});
  const output = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as LoadOutput;
  const [result, against] = output.results;
  if (result === undefined) throw new Error(`bench/load.ts gave no result for ${name}`);
  const row: Row = {
    scenario: name,
    result,
    ...(output.yardstick === undefined ? {} : { baseline: output.yardstick }),
    ...(against === undefined ? {} : { against }),
  };
  printRow(row);
  return row;
}

/** The servers' start and memory, and the rows of the scenarios run. */
interface Measured {
  readonly serving: Serving;
  readonly against?: Serving;
  /** The baseline's row first: all its turns, with every scenario, as one. */
  readonly rows: Row[];
}

type Loaded = Omit<Serving, "rssAfterTrafficMiB">;
const NOT_MEASURED: Serving = { readySeconds: Number.NaN, rssAfterLoadMiB: Number.NaN, rssAfterTrafficMiB: Number.NaN };

/**
 * Runs the scenarios on `snapshot`, those of one server setting together on one server (and one
 * --against server beside it), started once the previous setting's are stopped.
 */
export async function measureScenarios(snapshot: Snapshot, measuring: Measuring): Promise<Measured> {
  const listings = await sampleListings(snapshot.dist, 500);
  const sample: Sample = {
    headers: { host: `localhost:${snapshot.port}` },
    queries: directoryQueries(500, 7, listings),
    distinct: measuring.scenarios.some((scenario) => scenario.key.startsWith("deployed-"))
      ? distinctQueries(DEPLOYED_SEARCHES, listings)
      : [],
    slugs: listings.map((listing) => listing.slug),
    since: measuring.since ?? "",
  };
  const entries = [SERVER_ENTRY, ...(measuring.against === undefined ? [] : [measuring.against])];
  const serving = entries.map(() => NOT_MEASURED);
  const rows: Row[] = [];
  const yardstick = await startBaseline();
  const bare: Target = {
    url: yardstick.url,
    headers: {},
    requests: [{ method: "GET", path: "/" }],
    ...(yardstick.child.pid === undefined ? {} : { pid: yardstick.child.pid }),
  };
  for (const settings of new Set(measuring.scenarios.map((scenario) => scenario.server))) {
    // Start and memory are those of the production server's.
    const production = settings === PRODUCTION;
    const running: { server: RunningServer; loaded?: Loaded }[] = [];
    for (const entry of entries) {
      const against = running.length > 0;
      const server = await startServer(entry, snapshot, settings, against ? await freePort() : snapshot.port);
      running.push({ server, ...(production ? { loaded: await ready(server, against) } : {}) });
    }
    const beside = measuring.scenarios.find((scenario) => scenario.server === settings && scenario.beside !== undefined)?.beside;
    if (beside !== undefined && measuring.against === undefined) {
      running.push({ server: await startServer(SERVER_ENTRY, snapshot, beside, await freePort()) });
    }
    const measured: Row[] = [];
    for (const scenario of measuring.scenarios.filter((each) => each.server === settings)) {
      const requests = scenario.requests(sample);
      // With WORKERS=2 the process started only supervises: its own CPU time says nothing of the answers.
      const targets = running.map(({ server }) => ({
        url: server.url,
        ...requests,
        ...(settings.workers === 1 && server.child.pid !== undefined ? { pid: server.child.pid } : {}),
      }));
      measured.push(await load(scenario.name, targets, bare, measuring));
    }
    for (const [index, { server, loaded }] of running.entries()) {
      if (loaded !== undefined) serving[index] = await afterTraffic(server, loaded, index > 0);
      await stop(server.child);
    }
    // The answer cache's share of the answers, as the server counted them (warm-up included): one scenario a server when it is on.
    const hitRate = settings.cacheSeconds > 0 && running[0] !== undefined ? cacheHitRate(running[0].server) : Number.NaN;
    if (Number.isFinite(hitRate)) console.log(`    answer cache hits: ${(hitRate * 100).toFixed(1)}% of the answers`);
    rows.push(...measured.map((row) => (Number.isFinite(hitRate) ? { ...row, cacheHitRate: hitRate } : row)));
  }
  await stop(yardstick.child);
  const baselines = rows.flatMap((row) => (row.baseline === undefined ? [] : [row.baseline]));
  rows.unshift({ scenario: "baseline: bare fastify, constant 6 KB", result: combined(baselines) });
  const [current = NOT_MEASURED, against] = serving;
  return { serving: current, ...(against === undefined ? {} : { against }), rows };
}

async function ready(server: RunningServer, against: boolean): Promise<Loaded> {
  const rss = await rssMiB(server.child.pid);
  console.log(
    `  ${against ? "against server" : "server"} ready in ${server.seconds.toFixed(2)} s, ${rss.toFixed(0)} MiB resident after load`,
  );
  return { readySeconds: server.seconds, rssAfterLoadMiB: rss };
}

/** Caches filled and the heap grown to what the traffic asks of it. */
async function afterTraffic(server: RunningServer, loaded: Loaded, against: boolean): Promise<Serving> {
  const rssAfterTrafficMiB = await rssMiB(server.child.pid);
  console.log(`  ${rssAfterTrafficMiB.toFixed(0)} MiB resident after these scenarios${against ? " (against server)" : ""}`);
  return { ...loaded, rssAfterTrafficMiB };
}
