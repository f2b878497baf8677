import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { SAMPLE_CONTENT } from "../helpers/snapshot.ts";
import { raw } from "../mcp/helpers.ts";

/**
 * The words people use, on the sample content: each finds every approved listing of its service
 * (content/services.yml), the same through REST, MCP and the HTML and Markdown pages.
 */

const server = serveContent(SAMPLE_CONTENT);

/** The word, the services it names, and how many approved sample listings they have. */
const WORDS: readonly [string, readonly string[], number][] = [
  ["plumber", ["Plumbing"], 20],
  ["electrician", ["Electrical"], 16],
  ["roofer", ["Roofing"], 17],
  ["builder", ["Bricklaying"], 13],
  ["gardener", ["Landscaping"], 14],
  // A window cleaner is a cleaner too: House Cleaning (10) and Window Cleaning (14).
  ["cleaner", ["House Cleaning", "Window Cleaning"], 24],
];

interface Listing {
  slug: string;
  service: string;
}

/** Every listing REST finds for `q`, following nextOffset. */
async function restSearch(q: string): Promise<Listing[]> {
  const found: Listing[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const response = await fetch(`${server.current.url}/api/directory?q=${encodeURIComponent(q)}&limit=25&offset=${offset}`);
    assert.equal(response.status, 200);
    const page = (await response.json()) as { items: Listing[]; nextOffset: number | null };
    found.push(...page.items);
    offset = page.nextOffset;
  }
  return found;
}

/** Every listing slug MCP's search_businesses finds for `q` (2026-07-28), following nextOffset. */
async function mcpSearch(q: string): Promise<string[]> {
  const port = Number(new URL(server.current.url).port);
  const found: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "search_businesses",
        arguments: { q, limit: 25, offset },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      },
    });
    const headers = {
      host: "localhost:3000",
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "search_businesses",
    };
    const response = await raw({ port }, "POST", headers, body);
    assert.equal(response.status, 200, response.body);
    const page = (JSON.parse(response.body) as { result: { structuredContent: { items: Listing[]; nextOffset: number | null } } }).result
      .structuredContent;
    found.push(...page.items.map((item) => item.slug));
    offset = page.nextOffset;
  }
  return found;
}

/** Every listing slug the directory page links to for `q`, following its next-page links, as HTML or Markdown. */
async function pageSearch(q: string, accept: "text/html" | "text/markdown"): Promise<string[]> {
  const found: string[] = [];
  let path: string | undefined = `/businesses?q=${encodeURIComponent(q)}`;
  while (path !== undefined) {
    const response = await fetch(`${server.current.url}${path}`, { headers: { accept } });
    assert.equal(response.status, 200);
    const text = await response.text();
    const links = accept === "text/html" ? /href="\/businesses\/([a-z0-9-]+)"/g : /\/businesses\/([a-z0-9-]+)\/index\.md/g;
    found.push(...[...text.matchAll(links)].map((match) => match[1] ?? ""));
    const next: string | undefined =
      accept === "text/html"
        ? /<a rel="next" href="([^"]+)"/.exec(text)?.[1]?.replaceAll("&amp;", "&")
        : /Next page: https?:\/\/[^/]+(\S+)/.exec(text)?.[1];
    path = next;
  }
  return found;
}

describe("the service vocabulary on the sample content", () => {
  for (const [word, services, count] of WORDS) {
    test(`${word} finds the ${count} approved listings of ${services.join(" and ")} through REST, MCP and both pages`, async () => {
      const listings = await restSearch(word);
      assert.equal(listings.length, count);
      assert.deepEqual([...new Set(listings.map((listing) => listing.service))].sort(), [...services].sort());
      const slugs = listings.map((listing) => listing.slug);
      assert.deepEqual(await mcpSearch(word), slugs);
      assert.deepEqual(await pageSearch(word, "text/html"), slugs);
      assert.deepEqual(await pageSearch(word, "text/markdown"), slugs);
    });
  }

  test("every listing of each of those services is found: the counts are the services' whole approved listings", async () => {
    const all: Listing[] = JSON.parse(await (await fetch(`${server.current.url}/data/businesses.json`)).text()) as Listing[];
    for (const [word, services, count] of WORDS) {
      assert.equal(all.filter((listing) => services.includes(listing.service)).length, count, word);
    }
  });
});

describe("a page search that finds nothing offers the next step", () => {
  const html = async (path: string) => {
    const response = await fetch(`${server.current.url}${path}`, { headers: { accept: "text/html" } });
    return { status: response.status, text: await response.text() };
  };

  test("plumber in leeds offers Plumbing in Leeds, which lands on the plumbing listings in Leeds, in HTML and Markdown", async () => {
    const expected = await restSearch("plumber");
    const inLeeds = await fetch(`${server.current.url}/api/directory?q=plumber&location=Leeds&limit=25`);
    const leeds = ((await inLeeds.json()) as { items: (Listing & { location: { city: string } })[] }).items;
    assert.ok(leeds.length > 0 && leeds.every((listing) => listing.service === "Plumbing" && listing.location.city === "Leeds"));
    assert.ok(expected.length > leeds.length);

    const page = await html("/businesses?q=plumber%20in%20leeds");
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('<p role="status">No approved listing matches this search.</p>'));
    assert.ok(page.text.includes('<li><a href="/businesses?q=plumber&amp;location=Leeds">Plumbing in Leeds</a></li>'), page.text);
    const landed = await html("/businesses?q=plumber&location=Leeds");
    const slugs = [...landed.text.matchAll(/href="\/businesses\/([a-z0-9-]+)"/g)].map((match) => match[1]);
    assert.deepEqual(
      slugs,
      leeds.map((listing) => listing.slug),
    );

    const markdown = await (await fetch(`${server.current.url}/businesses/index.md?q=plumber%20in%20leeds`)).text();
    assert.ok(markdown.includes("- [Plumbing in Leeds](<http://localhost:3000/businesses/index.md?q=plumber&location=Leeds>)"), markdown);
  });

  test("punctuation the API refuses is read as a space on the pages: plumber, leeds and 24/7 search instead of failing", async () => {
    const comma = await html("/businesses?q=plumber,%20leeds");
    assert.equal(comma.status, 200);
    assert.ok(comma.text.includes("Plumbing in Leeds"));
    assert.ok(comma.text.includes('value="plumber, leeds"'), "the form keeps what was typed");
    const hours = await html("/businesses?q=24/7");
    assert.equal(hours.status, 200);
    assert.ok(hours.text.includes('<p role="status">Results 1 to 1 of 1, in name order.</p>'), hours.text);
    // The API stays strict (interface §7): the same q is a 400 there.
    assert.equal((await fetch(`${server.current.url}/api/directory?q=plumber,%20leeds`)).status, 400);
  });

  test("a misspelt word gets the closest word the directory has, and every service is offered with its count and its list", async () => {
    const page = await html("/businesses?q=plumer");
    assert.ok(page.text.includes('<li><a href="/businesses?q=plumber">plumber</a> instead of “plumer”</li>'), page.text);
    assert.ok(page.text.includes('<li><a href="/businesses/services/plumbing">Plumbing</a> (20)</li>'));
    assert.ok(page.text.includes('<li><a href="/businesses/services/carpentry-joinery">Carpentry &amp; Joinery</a> (11)</li>'));
    const both = await (await fetch(`${server.current.url}/businesses/index.md?q=electrican%20dublin`)).text();
    assert.ok(both.includes("instead of “electrican”"), both);
    assert.match(both, /- \[Electrical in Dublin\]\(<http:\/\/localhost:3000\/businesses\/index\.md\?q=electrical&location=Dublin>\)/);
  });
});

describe("the HTML and Markdown pages of one search are twins", () => {
  /** The listings and the total a page shows. */
  async function shown(path: string, accept: "text/html" | "text/markdown"): Promise<{ slugs: string[]; total: number | null }> {
    const response = await fetch(`${server.current.url}${path}`, { headers: { accept } });
    assert.equal(response.status, 200, path);
    const text = await response.text();
    if (accept === "text/html") {
      return {
        slugs: [...text.matchAll(/<li class="card">\n<h3><a href="\/businesses\/([a-z0-9-]+)"/g)].map((match) => match[1] ?? ""),
        total: Number(
          (/<p role="status">Results [\d,]+ to [\d,]+ of ([\d,]+), in name order\./.exec(text)?.[1] ?? "0").replaceAll(",", ""),
        ),
      };
    }
    return {
      slugs: [...text.matchAll(/^- \[[^\n]*\]\(<[^>]*\/businesses\/([a-z0-9-]+)\/index\.md>\)/gm)].map((match) => match[1] ?? ""),
      total: Number((/^Results [\d,]+ to [\d,]+ of ([\d,]+), in name order\./m.exec(text)?.[1] ?? "0").replaceAll(",", "")),
    };
  }

  for (const path of [
    "/businesses?q=plumber",
    "/businesses?q=e&country=GB&offset=20",
    "/businesses?location=leeds",
    "/businesses?country=DE&offset=10",
    "/businesses?q=cleaner&offset=10",
    "/businesses?q=plumber%20in%20leeds",
  ]) {
    test(`${path} shows the same listings and total in HTML and Markdown, and the total is the API's`, async () => {
      const html = await shown(path, "text/html");
      const markdown = await shown(path, "text/markdown");
      assert.deepEqual(markdown, html);
      const query = new URL(path, "http://x").searchParams;
      query.delete("offset");
      query.set("limit", "25");
      let count = 0;
      let offset: number | null = 0;
      while (offset !== null) {
        query.set("offset", String(offset));
        const page = (await (await fetch(`${server.current.url}/api/directory?${query}`)).json()) as {
          items: unknown[];
          nextOffset: number | null;
        };
        count += page.items.length;
        offset = page.nextOffset;
      }
      assert.equal(html.total, count);
    });
  }
});

test("the pages list the services in the order of services.yml, with their counts", async () => {
  const vocabulary = (await readFile(new URL("../../content/services.yml", import.meta.url), "utf8"))
    .split("\n")
    .filter((line) => line.startsWith("- name: "))
    .map((line) => line.slice("- name: ".length));
  assert.equal(vocabulary.length, 27);
  const html = await (await fetch(`${server.current.url}/businesses`, { headers: { accept: "text/html" } })).text();
  const byService = html.slice(html.indexOf("<h3>By service</h3>"), html.indexOf("<h3>By country</h3>"));
  assert.deepEqual(
    [...byService.matchAll(/<li><a href="[^"]+">([^<]+)<\/a> \(\d+\)<\/li>/g)].map((match) => match[1]?.replaceAll("&amp;", "&")),
    vocabulary,
  );
  const markdown = await (await fetch(`${server.current.url}/businesses/index.md`)).text();
  const section = markdown.slice(markdown.indexOf("### By service"), markdown.indexOf("### By country"));
  assert.deepEqual(
    [...section.matchAll(/^- \[([^\]]+)\]/gm)].map((match) => match[1]?.replaceAll("\\&", "&")),
    vocabulary,
  );
});
