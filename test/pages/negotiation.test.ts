import assert from "node:assert/strict";
import { test } from "node:test";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES, TEST_BASE_URL } from "../helpers/snapshot.ts";

const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const POINTER = `> For AI agents: the index of this site is ${TEST_BASE_URL}/llms.txt`;

/** Every page kind: its HTML URL and its explicit Markdown URL. */
const PAGE_KINDS = [
  { kind: "homepage", path: "/", markdown: "/index.md", h1: "# Pages Fixture Directory" },
  { kind: "guide", path: "/offerings/request-quotes", markdown: "/offerings/request-quotes/index.md", h1: "# Request quotes" },
  { kind: "directory", path: "/businesses", markdown: "/businesses/index.md", h1: "# Business directory" },
  { kind: "profile", path: "/businesses/abbott-plumbing", markdown: "/businesses/abbott-plumbing/index.md", h1: "# Abbott Plumbing" },
  { kind: "contact", path: "/contact", markdown: "/contact/index.md", h1: "# Contact" },
  { kind: "API documentation", path: "/docs/api", markdown: "/docs/api/index.md", h1: "# API, MCP and Markdown documentation" },
] as const;

const served = serveContent(`${FIXTURES}pages-hostile`);

const get = (path: string, accept?: string) => fetch(`${served.current.url}${path}`, { headers: accept === undefined ? {} : { accept } });

function assertPageHeaders(response: Response, markdownUrl: string): void {
  assert.equal(response.headers.get("vary"), "Accept");
  assert.equal(
    response.headers.get("link"),
    `<${markdownUrl}>; rel="alternate"; type="text/markdown", </llms.txt>; rel="describedby", </.well-known/api-catalog>; rel="api-catalog"`,
  );
  assert.equal(response.headers.get("cache-control"), "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400");
  assert.match(response.headers.get("etag") ?? "", /^"[^"]+"$/);
}

for (const { kind, path, markdown, h1 } of PAGE_KINDS) {
  test(`${kind}: Accept text/markdown gets the Markdown that ${markdown} serves, opening with the llms.txt pointer`, async () => {
    const response = await get(path, "text/markdown");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8");
    assertPageHeaders(response, markdown);
    const body = await response.text();
    assert.equal(body.split("\n")[0]?.startsWith(POINTER), true);
    assert.equal(body.split("\n")[2], h1);

    const explicit = await get(markdown);
    assert.equal(explicit.status, 200);
    assert.equal(explicit.headers.get("content-type"), "text/markdown; charset=utf-8");
    assert.equal(await explicit.text(), body);
  });

  test(`${kind}: a browser's Accept header gets HTML with the alternate link and the agents' note`, async () => {
    const response = await get(path, BROWSER_ACCEPT);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
    assertPageHeaders(response, markdown);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.match(response.headers.get("content-security-policy") ?? "", /^default-src 'none';style-src 'self';/);
    const html = await response.text();
    assert.ok(html.startsWith("<!doctype html>"));
    assert.ok(html.includes(`<link rel="alternate" type="text/markdown" href="${markdown}">`));
    assert.ok(
      html.includes(
        `">this page in Markdown</a><span class="visually-hidden" data-agent-note>. This page is also available as Markdown at ${TEST_BASE_URL}${markdown} (or send Accept: text/markdown)`,
      ),
    );
    assert.ok(html.includes(`${TEST_BASE_URL}/llms.txt`));
  });
}

const NEGOTIATION_CASES: [string | undefined, "html" | "markdown"][] = [
  [undefined, "html"],
  ["*/*", "html"],
  ["text/*", "html"],
  ["application/json", "html"],
  ["text/markdown", "markdown"],
  ["text/markdown, text/html", "markdown"],
  ["text/html, text/markdown", "html"],
  ["text/markdown;q=0.5, text/html", "html"],
  ["text/html;q=0.4, text/markdown;q=0.9", "markdown"],
  ["text/markdown;q=0, */*", "html"],
  ["text/markdown, */*;q=0.1", "markdown"],
  [BROWSER_ACCEPT, "html"],
  ["garbage;;;q=x", "html"],
];

for (const [accept, expected] of NEGOTIATION_CASES) {
  test(`Accept ${accept === undefined ? "(none)" : JSON.stringify(accept)} gets ${expected}`, async () => {
    const response = await get("/offerings/request-quotes", accept);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), expected === "html" ? "text/html; charset=utf-8" : "text/markdown; charset=utf-8");
    assert.equal(response.headers.get("vary"), "Accept");
  });
}

test("unknown path with Accept text/markdown gets a 404 Markdown recovery page that does not echo the path", async () => {
  const response = await get("/no-such-page/<b>x</b>", "text/markdown");
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8");
  assert.equal(response.headers.get("vary"), "Accept");
  assert.equal(response.headers.get("cache-control"), "no-store");
  assert.equal(response.headers.get("link"), '</llms.txt>; rel="describedby", </.well-known/api-catalog>; rel="api-catalog"');
  const body = await response.text();
  assert.ok(body.startsWith(POINTER));
  assert.ok(body.includes("# Page not found (404)"));
  assert.ok(body.includes(`- [llms.txt](<${TEST_BASE_URL}/llms.txt>): the index of this site for agents`));
  assert.ok(body.includes(`- [Request quotes](<${TEST_BASE_URL}/offerings/request-quotes/index.md>)`));
  assert.equal(body.includes("<b>"), false);
});

test("unknown path from a browser gets a 404 HTML page", async () => {
  const response = await get("/no-such-page", BROWSER_ACCEPT);
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
  assert.ok((await response.text()).includes("<h1>Page not found</h1>"));
});

test("unknown offering and unknown profile get the 404 page, Markdown for their .md URLs", async () => {
  for (const path of ["/offerings/nope", "/businesses/nope", "/businesses/-bad-", "/businesses/a%20b"]) {
    const response = await get(path);
    assert.equal(response.status, 404, path);
    assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8", path);
  }
  for (const path of ["/offerings/nope/index.md", "/businesses/nope/index.md", "/businesses/pending-listing/index.md"]) {
    const response = await get(path);
    assert.equal(response.status, 404, path);
    assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8", path);
  }
});

test("a page URL with a name too long for the router gets the 404 page, Markdown when asked for, not an API error", async () => {
  const long = "a".repeat(1001);
  for (const [path, accept, type] of [
    [`/businesses/${long}`, BROWSER_ACCEPT, "text/html; charset=utf-8"],
    [`/offerings/${long}`, "text/markdown", "text/markdown; charset=utf-8"],
  ] as const) {
    const response = await get(path, accept);
    assert.equal(response.status, 404, path);
    assert.equal(response.headers.get("content-type"), type, path);
    assert.ok(!(await response.text()).includes(long), "the path is echoed");
  }
});

test("unknown API path gets a JSON error even when Markdown is asked for", async () => {
  const response = await get("/api/nope", "text/markdown");
  assert.equal(response.status, 404);
  assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(((await response.json()) as { error: { code: string } }).error.code, "not_found");
});

test("a profile addressed by its UUID redirects to its slug", async () => {
  const response = await fetch(`${served.current.url}/businesses/00000000-0000-4000-8000-000000000001`, { redirect: "manual" });
  assert.equal(response.status, 301);
  assert.equal(response.headers.get("location"), "/businesses/abbott-plumbing");
  const markdown = await fetch(`${served.current.url}/businesses/00000000-0000-4000-8000-000000000001/index.md`, { redirect: "manual" });
  assert.equal(markdown.status, 301);
  assert.equal(markdown.headers.get("location"), "/businesses/abbott-plumbing/index.md");
});

test("If-None-Match with the page's ETag gets 304 for the same representation only", async () => {
  const html = await get("/contact");
  const markdown = await get("/contact", "text/markdown");
  const htmlTag = html.headers.get("etag") ?? "";
  assert.notEqual(htmlTag, markdown.headers.get("etag"));
  const again = await fetch(`${served.current.url}/contact`, { headers: { "if-none-match": `W/${htmlTag}, "other"` } });
  assert.equal(again.status, 304);
  const other = await fetch(`${served.current.url}/contact`, { headers: { "if-none-match": htmlTag, accept: "text/markdown" } });
  assert.equal(other.status, 200);
});

test("pages ignore parameters they do not use, such as tracking tags", async () => {
  const plain = await (await get("/offerings/request-quotes")).text();
  const tagged = await get("/offerings/request-quotes?utm_source=newsletter&fbclid=x&utm_source=again");
  assert.equal(tagged.status, 200);
  assert.equal(await tagged.text(), plain);
});

test("POST to a page gets 405 with Allow: GET, HEAD", async () => {
  for (const path of ["/", "/businesses", "/offerings/request-quotes/index.md", "/llms.txt"]) {
    const response = await fetch(`${served.current.url}${path}`, { method: "POST", body: "x" });
    assert.equal(response.status, 405, path);
    assert.equal(response.headers.get("allow"), "GET, HEAD", path);
  }
});

test("HEAD on a page answers the GET's status and headers without a body", async () => {
  const getResponse = await get("/docs/api", "text/markdown");
  const head = await fetch(`${served.current.url}/docs/api`, { method: "HEAD", headers: { accept: "text/markdown" } });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-type"), getResponse.headers.get("content-type"));
  assert.equal(head.headers.get("etag"), getResponse.headers.get("etag"));
  assert.equal(await head.text(), "");
});

test("llms.txt, sitemap.xml, robots.txt and the stylesheet are served with their types", async () => {
  const cases: [string, string][] = [
    ["/llms.txt", "text/plain; charset=utf-8"],
    ["/llms-full.txt", "text/plain; charset=utf-8"],
    ["/sitemap.xml", "application/xml; charset=utf-8"],
    ["/robots.txt", "text/plain; charset=utf-8"],
    ["/assets/site.css", "text/css; charset=utf-8"],
  ];
  for (const [path, type] of cases) {
    const response = await get(path);
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get("content-type"), type, path);
  }
  assert.equal(
    await (await get("/robots.txt")).text(),
    `# Free, read-only public catalog. Please cache results and avoid bulk scraping.\nUser-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n\nSitemap: ${TEST_BASE_URL}/sitemap.xml\n`,
  );
});

test("llms.txt follows the llmstxt.org layout: H1, blockquote summary, H2 sections of links with notes", async () => {
  const lines = (await (await get("/llms.txt")).text()).split("\n");
  assert.equal(lines[0], "# Pages Fixture Directory");
  assert.equal(lines[2], "> A small directory for the page tests.");
  const sections = lines.filter((line) => line.startsWith("## "));
  assert.deepEqual(sections, [
    "## Guides",
    "## API",
    "## Directory",
    "## Listings by service",
    "## Listings by country",
    "## Contact",
    "## Optional",
  ]);
  const links = lines.filter((line) => line.startsWith("- "));
  // Every link is a Markdown page or an llms.txt index: data files and endpoints are named as text.
  for (const line of links) assert.match(line, /^- \[[^\]]+\]\(<?http:\/\/localhost:3000\/[^)]*(\.md(#[a-z-]+)?|\.txt)>?\)(: \S|$)/);
  assert.ok(
    links.includes(
      `- [Request quotes](${TEST_BASE_URL}/offerings/request-quotes/index.md): Describe a job once and hear back from local trades.`,
    ),
  );
  assert.ok(links.some((line) => line.startsWith(`- [MCP endpoint](${TEST_BASE_URL}/docs/api/index.md#mcp-endpoint): how to call it.`)));
  assert.ok(links.some((line) => line.includes(`The OpenAPI 3.1 document is \`${TEST_BASE_URL}/openapi.json\``)));
  assert.ok(links.includes(`- [Plumbing, 12 listings](<${TEST_BASE_URL}/businesses/services/plumbing/llms.txt>)`), links.join("\n"));
});

test("a page URL that does not decode gets the 404 page in the kind asked for; an API URL gets a JSON 400", async () => {
  const answers = [];
  for (const [path, accept] of [
    ["/businesses/%E0%A4%A", BROWSER_ACCEPT],
    ["/offerings/%E0%A4%A/index.md", "text/markdown"],
    ["/api/directory/%E0%A4%A", undefined],
  ] as const) {
    const response = await get(path, accept);
    await response.arrayBuffer();
    answers.push([path, response.status, response.headers.get("content-type")]);
  }
  assert.deepEqual(answers, [
    ["/businesses/%E0%A4%A", 404, "text/html; charset=utf-8"],
    ["/offerings/%E0%A4%A/index.md", 404, "text/markdown; charset=utf-8"],
    ["/api/directory/%E0%A4%A", 400, "application/json; charset=utf-8"],
  ]);
});
