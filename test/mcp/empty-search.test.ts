import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { SAMPLE_CONTENT } from "../helpers/snapshot.ts";
import { raw } from "./helpers.ts";

/**
 * A directory search that finds nothing, on the sample content: MCP's search_businesses says
 * what to try in a text item of its own, after the JSON copy (structuredContent stays the REST
 * body), as the directory page offers people the same next steps.
 */

const server = serveContent(SAMPLE_CONTENT);

const NOTICE_START = "The JSON above is a directory answer.";

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent: unknown;
  isError?: boolean;
}

/** search_businesses with `args`, in the 2025-06-18 era (no handshake needed on a stateless server). */
async function search(args: Record<string, unknown>): Promise<ToolResult> {
  const port = Number(new URL(server.current.url).port);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "search_businesses", arguments: args } });
  const headers = {
    host: "localhost:3000",
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-06-18",
  };
  const response = await raw({ port }, "POST", headers, body);
  assert.equal(response.status, 200, response.body);
  return (JSON.parse(response.body) as { result: ToolResult }).result;
}

const COMPLETE = "No listing matches these arguments: a complete answer, not an error.";

const SUGGESTIONS: readonly [Record<string, unknown>, string][] = [
  [{ q: "plumber in leeds" }, 'call search_businesses again with {"q":"plumber","location":"Leeds"} (Plumbing in Leeds).'],
  [{ q: "plumber leeds" }, 'call search_businesses again with {"q":"plumber","location":"Leeds"} (Plumbing in Leeds).'],
  [{ q: "roofer manchester" }, 'call search_businesses again with {"q":"roofer","location":"Manchester"} (Roofing in Manchester).'],
  [{ country: "UK" }, `call search_businesses again with {"country":"GB"} (GB instead of UK, which is no country's code).`],
  [
    { q: "plumber", country: "uk", limit: 5 },
    `call search_businesses again with {"q":"plumber","country":"GB","limit":5} (GB instead of UK, which is no country's code).`,
  ],
  [
    { q: "plumber in leeds", country: "UK" },
    'call search_businesses again with {"q":"plumber","location":"Leeds","country":"GB"} (Plumbing in Leeds).',
  ],
  [{ q: "plumer" }, `call search_businesses again with {"q":"plumber"} ("plumber" instead of "plumer").`],
];

describe("search_businesses after a search that found nothing", () => {
  for (const [args, calls] of SUGGESTIONS) {
    test(`${JSON.stringify(args)} gets the REST body, then a second text item naming the arguments to try`, async () => {
      const result = await search(args);
      assert.equal(result.isError, undefined);
      const [copy, note, notice, ...rest] = result.content;
      assert.deepEqual(result.structuredContent, { items: [], limit: args.limit ?? 10, offset: 0, nextOffset: null });
      assert.equal(copy?.text, JSON.stringify(result.structuredContent));
      assert.deepEqual(note, { type: "text", text: `${COMPLETE} Did you mean: ${calls}` });
      assert.ok(notice?.text.startsWith(NOTICE_START));
      assert.deepEqual(rest, []);
    });
  }

  test("the arguments it names find listings", async () => {
    for (const args of [
      { q: "plumber", location: "Leeds" },
      { q: "roofer", location: "Manchester" },
      { country: "GB" },
      { q: "plumber", location: "Leeds", country: "GB" },
    ]) {
      const result = await search(args);
      assert.ok((result.structuredContent as { items: unknown[] }).items.length > 0, JSON.stringify(args));
      assert.equal(result.content.length, 2, "a search that finds listings has no note");
    }
  });

  test("a search with nothing closer to offer says how a search matches", async () => {
    const [, note] = (await search({ q: "zzzz qqqq" })).content;
    assert.equal(
      note?.text,
      `${COMPLETE} Every q term must start a word of a listing's name or service, or a word people use for the service; try fewer or shorter terms, put a town in location rather than q, or leave location or country out. directory_facets counts what a search holds.`,
    );
  });

  test("a page past the last result is not an empty search: no note", async () => {
    const result = await search({ q: "plumber", offset: 1000 });
    assert.deepEqual((result.structuredContent as { items: unknown[] }).items, []);
    assert.equal(result.content.length, 2);
  });
});

describe("the directory page offers GB for UK", () => {
  const page = async (path: string, accept = "text/html") => (await fetch(`${server.current.url}${path}`, { headers: { accept } })).text();

  test("country=UK offers the United Kingdom's listings, in HTML and Markdown", async () => {
    const html = await page("/businesses?country=UK");
    assert.ok(html.includes('<h2 id="results">0 listings in UK</h2>'), html);
    assert.ok(html.includes('<li><a href="/businesses?country=GB">United Kingdom (GB)</a> instead of “UK”</li>'), html);
    const markdown = await page("/businesses/index.md?country=UK", "text/markdown");
    assert.ok(
      markdown.includes(
        "- [United Kingdom (GB)](<http://localhost:3000/businesses/index.md?country=GB>) instead of “UK”: UK is no country's code",
      ),
      markdown,
    );
  });

  test("plumber in leeds with country UK offers Plumbing in Leeds in GB", async () => {
    const html = await page("/businesses?q=plumber+in+leeds&country=UK");
    assert.ok(html.includes('<li><a href="/businesses?q=plumber&amp;location=Leeds&amp;country=GB">Plumbing in Leeds</a></li>'), html);
  });
});
