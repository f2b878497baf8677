import assert from "node:assert/strict";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "node-html-parser";
import type { DirectoryFacets } from "../../src/schemas/responses.ts";
import { type RunningServer, serveContent, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, SAMPLE_CONTENT, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/**
 * A search page's own counts by service and by country (the facets of GET /api/facets), each a
 * link to the search narrowed to that value: the page it opens holds exactly the listings counted,
 * in HTML and in Markdown.
 */

const served = serveContent(SAMPLE_CONTENT);
const get = async (path: string, accept = "text/html") => {
  const response = await fetch(`${served.current.url}${path}`, { headers: { accept } });
  assert.equal(response.status, 200, path);
  return response.text();
};

interface Narrowing {
  readonly label: string;
  readonly href: string;
  readonly count: number;
}

/** The narrowing links of an HTML search page, per heading ("By service", "By country"). */
function narrowingOf(html: string): Record<string, Narrowing[]> {
  const section = parse(html).querySelector("#narrow")?.parentNode;
  const found: Record<string, Narrowing[]> = {};
  for (const column of section?.querySelectorAll(".browse-columns > div") ?? []) {
    const heading = column.querySelector("h3")?.text ?? "";
    found[heading] = column.querySelectorAll("li").map((item) => {
      const anchor = item.querySelector("a");
      const count = /\(([\d,]+)\)$/.exec(item.text.trim())?.[1] ?? "";
      return { label: anchor?.text ?? "", href: anchor?.getAttribute("href") ?? "", count: Number(count.replaceAll(",", "")) };
    });
  }
  return found;
}

/** The total a search page states: "Results 1 to 10 of 44", or "Results 1 to 3 of 3". */
function totalOf(text: string): number {
  const match = /Results [\d,]+ to [\d,]+ of ([\d,]+)/.exec(text);
  assert.ok(match, text.slice(0, 400));
  return Number((match[1] ?? "").replaceAll(",", ""));
}

describe("a search page's counts by service and by country", () => {
  for (const search of ["q=plumb", "q=e&country=GB", "location=leeds", "q=clean", "country=FR"]) {
    test(`?${search}: the counts are the API's facets, and each link opens a page of exactly that many listings, in HTML and Markdown`, async () => {
      const html = await get(`/businesses?${search}`);
      const narrowing = narrowingOf(html);
      const facets = (await (await fetch(`${served.current.url}/api/facets?${search}`)).json()) as DirectoryFacets;
      assert.equal(totalOf(html), facets.total);
      const expected: Record<string, { value: string; count: number }[]> = {};
      if (facets.service.length > 1) expected["By service"] = facets.service;
      if (facets.country.length > 1) expected["By country"] = facets.country;
      assert.deepEqual(
        Object.fromEntries(Object.entries(narrowing).map(([heading, links]) => [heading, links.map(({ count }) => count)])),
        Object.fromEntries(Object.entries(expected).map(([heading, values]) => [heading, values.map(({ count }) => count)])),
      );
      assert.deepEqual(
        narrowing["By service"]?.map(({ label }) => label),
        expected["By service"]?.map(({ value }) => value),
      );
      for (const { href, count } of Object.values(narrowing).flat()) {
        assert.match(href, /^\/businesses\?/);
        assert.equal(totalOf(await get(href)), count, href);
        assert.equal(totalOf(await get(href, "text/markdown")), count, `${href} (Markdown)`);
      }
    });
  }

  test("the Markdown page lists the same counts as links to the narrowed Markdown searches", async () => {
    const markdown = await get("/businesses/index.md?q=plumb");
    const html = narrowingOf(await get("/businesses?q=plumb"));
    for (const { label, href, count } of Object.values(html).flat()) {
      const url = `${TEST_BASE_URL}${href.replace("/businesses?", "/businesses/index.md?")}`;
      assert.ok(markdown.includes(`- [${label}](<${url}>) (${count})`), `${label}: ${url}`);
    }
  });

  test("a page narrowed to a service says so and links the search without it; the form starts a new search", async () => {
    const html = await get("/businesses?q=e&country=GB&service=Electrical");
    assert.ok(
      html.includes('<p>Only listings of Electrical are shown. <a href="/businesses?q=e&amp;country=GB">Show every service</a>.</p>'),
    );
    assert.equal(parse(html).querySelector('form.search-form input[name="service"]'), null);
    const markdown = await get("/businesses/index.md?q=e&country=GB&service=Electrical");
    assert.ok(markdown.includes("Search: q = e; country = GB; service = Electrical."));
  });

  test("an unsearched page shows the directory's lists, not a narrowing", async () => {
    assert.deepEqual(narrowingOf(await get("/businesses?offset=10")), {});
  });

  test("a service name that is not one line is a 400 page naming the field; a long one is searched like any other", async () => {
    for (const value of ["a%0Ab", "a%0Db"]) {
      const response = await fetch(`${served.current.url}/businesses?service=${value}`);
      assert.equal(response.status, 400);
      assert.ok((await response.text()).includes("Service must be a service name on one line."));
    }
    const long = await fetch(`${served.current.url}/businesses?service=${"a".repeat(300)}`);
    assert.equal(long.status, 200);
    assert.ok((await long.text()).includes("No approved listing matches this search."));
  });
});

describe("service and city names supplied by a listing, in the narrowing", () => {
  let server: RunningServer;
  let remove: () => Promise<void>;
  const hostile = "<img src=x onerror=alert(1)> [x](javascript:alert(2))";
  before(async () => {
    const work = await tempDir();
    remove = work.remove;
    await cp(`${FIXTURES}basic`, join(work.path, "content"), { recursive: true });
    await writeFile(
      join(work.path, "content", "businesses", "gb", "hostile-tiles.md"),
      `---\nid: 0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a99\nname: "Hostile Tiles"\nservice: "${hostile}"\ncategory: Repairs & maintenance\nlocation:\n  city: Leeds\n  region: West Yorkshire\n  postalCode: "LS1 4DT"\n  country: GB\nquoteUrl: https://fixture.example/quotes/new?business=hostile-tiles\nstatus: approved\n---\nTiles.\n`,
    );
    await buildSnapshot(join(work.path, "content"), join(work.path, "dist"));
    server = await startServer(join(work.path, "dist"));
  });
  after(async () => {
    await server.close();
    await remove();
  });

  test("are escaped in the HTML and set apart in the Markdown, and their link narrows to exactly that listing", async () => {
    const html = await (await fetch(`${server.url}/businesses?location=leeds`)).text();
    assert.ok(!html.includes("<img src=x"));
    const link = narrowingOf(html)["By service"]?.find(({ label }) => label === hostile);
    assert.ok(link, "the hostile service is a narrowing link, as text");
    assert.equal(link.count, 1);
    assert.equal(totalOf(await (await fetch(`${server.url}${link.href}`)).text()), 1);
    const markdown = await (await fetch(`${server.url}/businesses/index.md?location=leeds`)).text();
    assert.ok(!markdown.includes("](javascript:"));
  });
});
