import assert from "node:assert/strict";
import type { IncomingHttpHeaders } from "node:http";
import { after, before, describe, test } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { type DirectoryQuery, directoryQueries, type ListingFacts, queryString } from "../../bench/queries.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, SAMPLE_CONTENT, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

/**
 * The answer cache (interface §7): an answer kept is the answer made, byte for byte, with the
 * same entity tag and headers, in every representation: a first answer (made and kept), a second
 * (sent from the cache) and one from a server with the cache off, for 1,000 seeded searches.
 */

const SEARCHES = 1000;
/** Requests in flight at once: enough to keep both servers busy, few enough to stay well under load shedding. */
const IN_FLIGHT = 8;

interface Answered {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The headers that say nothing of the answer itself: when it was sent, and how the connection goes on. */
const PER_RESPONSE = new Set(["date", "connection", "keep-alive", "ratelimit", "ratelimit-policy"]);

function answered(status: number, headers: IncomingHttpHeaders, body: string): Answered {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!PER_RESPONSE.has(name) && value !== undefined) kept[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return { status, headers: kept, body };
}

/** One representation of a search: how it is asked for. */
interface Representation {
  readonly name: string;
  ask(server: RunningServer, query: DirectoryQuery): Promise<Answered>;
}

const port = (server: RunningServer) => Number(new URL(server.url).port);

function get(path: (query: DirectoryQuery) => string, accept: string): Representation["ask"] {
  return async (server, query) => {
    const response = await raw({ port: port(server) }, "GET", { host: new URL(TEST_BASE_URL).host, accept }, undefined, path(query));
    return answered(response.status, response.headers, response.body);
  };
}

/** tools/call of `tool` with the search's arguments, in `version`'s era. */
function mcp(tool: string, version: string, args: (query: DirectoryQuery) => Record<string, unknown>): Representation["ask"] {
  return async (server, query) => {
    const modern = version === "2026-07-28";
    const params = {
      name: tool,
      arguments: args(query),
      ...(modern
        ? { _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} } }
        : {}),
    };
    const headers = {
      host: new URL(TEST_BASE_URL).host,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": version,
      ...(modern ? { "mcp-method": "tools/call", "mcp-name": tool } : {}),
    };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params });
    const response = await raw({ port: port(server) }, "POST", headers, body);
    return answered(response.status, response.headers, response.body);
  };
}

const withoutPaging = ({ limit: _limit, offset: _offset, ...query }: DirectoryQuery) => query;

const REPRESENTATIONS: readonly Representation[] = [
  { name: "JSON search", ask: get((query) => `/api/directory${queryString(query)}`, "application/json") },
  { name: "JSON facets", ask: get((query) => `/api/facets${queryString(withoutPaging(query))}`, "application/json") },
  { name: "HTML directory page", ask: get((query) => `/businesses${queryString(query)}`, "text/html") },
  { name: "Markdown directory page", ask: get((query) => `/businesses${queryString(query)}`, "text/markdown") },
  { name: "Markdown URL of the page", ask: get((query) => `/businesses/index.md${queryString(query)}`, "*/*") },
  { name: "MCP search_businesses, 2025-06-18", ask: mcp("search_businesses", "2025-06-18", (query) => ({ ...query })) },
  { name: "MCP search_businesses, 2026-07-28", ask: mcp("search_businesses", "2026-07-28", (query) => ({ ...query })) },
  { name: "MCP directory_facets, 2026-07-28", ask: mcp("directory_facets", "2026-07-28", withoutPaging) },
];

/** `work` for each item, IN_FLIGHT at a time, in order. */
async function inTurn<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
    }),
  );
  return results;
}

describe("cached answers are the answers made, for 1,000 seeded searches", () => {
  let cached: RunningServer;
  let uncached: RunningServer;
  let searches: DirectoryQuery[];
  let remove: () => Promise<void>;

  before(async () => {
    const work = await tempDir("answer-cache-");
    remove = work.remove;
    const dist = `${work.path}/dist`;
    await buildSnapshot(SAMPLE_CONTENT, dist);
    cached = await startServer(dist, { CACHE_SECONDS: "60" });
    uncached = await startServer(dist, { CACHE_SECONDS: "0" });
    const listings = (await (await fetch(`${cached.url}/data/businesses.json`)).json()) as ListingFacts[];
    searches = directoryQueries(SEARCHES, 40, listings);
  });
  after(async () => {
    await cached?.close();
    await uncached?.close();
    await remove?.();
  });

  for (const representation of REPRESENTATIONS) {
    test(`${representation.name}: the first answer, a second one from the cache and one with the cache off are identical`, async () => {
      const hitsBefore = cached.answerStats.hits;
      const first = await inTurn(searches, (query) => representation.ask(cached, query));
      const second = await inTurn(searches, (query) => representation.ask(cached, query));
      const off = await inTurn(searches, (query) => representation.ask(uncached, query));
      const differing = searches.flatMap((query, i) => {
        const made = first[i] as Answered;
        const problems = [];
        if (made.status !== 200) problems.push(`status ${made.status}`);
        if (!isDeepStrictEqual(second[i], made)) problems.push("the second answer differs");
        if (!isDeepStrictEqual(off[i], made)) problems.push("the answer with the cache off differs");
        return problems.length === 0 ? [] : [`${queryString(query)}: ${problems.join(", ")}`];
      });
      assert.deepEqual(differing, []);
      // Every second answer was a hit (a search asked twice in the first round was one already).
      assert.ok(cached.answerStats.hits - hitsBefore >= SEARCHES, `${cached.answerStats.hits - hitsBefore} hits`);
      assert.equal(uncached.answerStats.hits + uncached.answerStats.misses, 0, "the cache off counts nothing");
    });
  }
});
