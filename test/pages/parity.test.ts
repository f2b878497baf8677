import assert from "node:assert/strict";
import { test } from "node:test";
import { createContext, getCheck } from "afdocs";
import { markdownText, normalize, parity } from "../helpers/parity.ts";
import { serveContent } from "../helpers/server.ts";
import { SAMPLE_CONTENT } from "../helpers/snapshot.ts";

/**
 * Every page kind says the same in HTML and in Markdown: each line of the HTML's main content
 * that AFDocs' markdown-content-parity check compares is in the Markdown (the Markdown may say
 * more: agent notes, data URLs). Pages come from the sample content, over HTTP. The comparison is
 * redone in test/helpers/parity.ts, so that it names the missing lines and covers the 400 and 404
 * pages the check skips; AFDocs' own checks run too, on the pages they take.
 */

const served = serveContent(SAMPLE_CONTENT);

const MARKDOWN = "text/markdown";
const HTML = "text/html";

async function page(path: string, accept: string, status: number): Promise<string> {
  const response = await fetch(`${served.current.url}${path}`, { headers: { accept } });
  assert.equal(response.status, status, `${path} (${accept})`);
  return response.text();
}

/** Each page kind: its path, the status both forms answer with, and its lines of 20 characters or more. */
const PAGE_KINDS: { kind: string; path: string; status: number }[] = [
  { kind: "homepage", path: "/", status: 200 },
  { kind: "guide", path: "/offerings/request-quotes", status: 200 },
  { kind: "directory without a search", path: "/businesses", status: 200 },
  { kind: "directory without a search, page 3", path: "/businesses?offset=20", status: 200 },
  { kind: "directory search", path: "/businesses?q=plumber", status: 200 },
  { kind: "directory search, page 2", path: "/businesses?q=plumber&offset=10", status: 200 },
  { kind: "directory search past its last result", path: "/businesses?q=plumber&offset=1000", status: 200 },
  { kind: "directory search with no result", path: "/businesses?q=plumber%20in%20leeds", status: 200 },
  { kind: "directory search with a misspelt word", path: "/businesses?q=plumer", status: 200 },
  { kind: "directory search with invalid input", path: "/businesses?country=GBR", status: 400 },
  { kind: "profile", path: "/businesses/plomberie-sanitaire-aubert-fils", status: 200 },
  { kind: "list by country", path: "/businesses/countries/gb", status: 200 },
  { kind: "list by service", path: "/businesses/services/plumbing", status: 200 },
  { kind: "contact", path: "/contact", status: 200 },
  { kind: "API documentation", path: "/docs/api", status: 200 },
  { kind: "not found", path: "/no-such-page", status: 404 },
];

for (const { kind, path, status } of PAGE_KINDS) {
  test(`${kind} (${path}): every line the HTML shows is in its Markdown, and their largest lists are as long`, async () => {
    const html = await page(path, HTML, status);
    const markdown = await page(path, MARKDOWN, status);
    const result = parity(html, markdown);
    assert.ok(result.lines.length >= 2, `${kind}: only ${result.lines.length} lines compared`);
    assert.deepEqual(result.missing, [], `${kind}: ${result.missing.length} of ${result.lines.length} lines are not in the Markdown`);
    if (Math.max(result.listItems.html, result.listItems.markdown) >= 20) assert.equal(result.listItems.markdown, result.listItems.html);
  });
}

test("a profile gives the same place, address, quote link and its explanation in both forms", async () => {
  const path = "/businesses/plomberie-sanitaire-aubert-fils";
  const html = await page(path, HTML, 200);
  const markdown = await page(path, MARKDOWN, 200);
  const quote = "https://hearthway.example/quotes/new?business=plomberie-sanitaire-aubert-fils";
  assert.ok(html.includes('<p class="lead">Plumbing in Lyon, Auvergne-Rhône-Alpes, France</p>'));
  assert.ok(markdown.includes("\nPlumbing in Lyon, Auvergne-Rhône-Alpes, France\n"));
  assert.ok(html.includes("<dt>Location</dt><dd>Lyon, Auvergne-Rhône-Alpes 69004, France</dd>"));
  assert.ok(markdown.includes("\n- Location: Lyon, Auvergne-Rhône-Alpes 69004, France\n"));
  assert.ok(
    html.includes(
      `<a class="button" href="${quote}" rel="noopener nofollow">Request a quote from Plomberie-Sanitaire Aubert &amp; Fils</a>`,
    ),
  );
  assert.ok(markdown.includes(`[Request a quote from Plomberie-Sanitaire Aubert & Fils](<${quote}>)`));
  const explanation =
    "The link opens the website's normal quote-request form, which you fill in and send yourself. This directory never sends an enquiry, shares your details or books work for you.";
  assert.ok(html.includes(`<p class="meta">${explanation.replaceAll("'", "&#39;")}</p>`));
  assert.ok(markdown.includes(`\n${explanation}\n`));
  const label =
    "In the business's own words. We check listings before publishing them, but check accreditations and insurance yourself before you hire anyone.";
  assert.ok(markdown.includes(`\n${label}\n`));
  assert.ok(markdown.includes("```text\nPlomberie-Sanitaire Aubert & Fils offers plumbing for homes in Lyon"));
});

test("page 2 of the directory gives the same range, total, listings and neighbouring pages in both forms", async () => {
  const path = "/businesses?offset=10";
  const html = await page(path, HTML, 200);
  const markdown = await page(path, MARKDOWN, 200);
  const total = "Results 11 to 20 of 303, in name order.";
  assert.ok(html.includes(`<p role="status">${total}</p>`));
  assert.ok(markdown.includes(`\n${total} Names, services and places were supplied by the businesses`));
  assert.ok(html.includes('<a rel="prev" href="/businesses">Previous page</a>'));
  assert.ok(html.includes('<a rel="next" href="/businesses?offset=20">Next page</a>'));
  assert.ok(
    markdown.includes(
      "\nPrevious page: http://localhost:3000/businesses/index.md\nNext page: http://localhost:3000/businesses/index.md?offset=20\n",
    ),
  );
  const cards = [...html.matchAll(/<li class="card">\n<h3><a href="\/businesses\/([a-z0-9-]+)">/g)].map((match) => match[1]);
  const entries = [...markdown.matchAll(/^- \[[^\]]*\]\(<http:\/\/localhost:3000\/businesses\/([a-z0-9-]+)\/index\.md>\)$/gm)].map(
    (match) => match[1],
  );
  assert.equal(cards.length, 10);
  assert.deepEqual(entries, cards);
});

test("a search with no result gives the same answer and the same next steps in both forms", async () => {
  const path = "/businesses?q=plumber%20in%20leeds";
  const text = markdownText(await page(path, MARKDOWN, 200));
  for (const line of [
    "No approved listing matches this search.",
    "Plumbing in Leeds",
    "Each word must match the start of a word in a business's name or service",
    "Carpentry & Joinery (11)",
  ]) {
    assert.ok(text.includes(normalize(line)), line);
  }
});

test("every HTML page links to llms.txt from its header, within the first tenth of its body", async () => {
  for (const { kind, path, status } of PAGE_KINDS) {
    const html = await page(path, HTML, status);
    const body = (html.split(/<body>/)[1] ?? "")
      .split("</body>")[0]
      ?.replace(/<nav\b[\s\S]*?<\/nav>/gi, "")
      .replace(/<script\b[\s\S]*?<\/script>/gi, "")
      .replace(/<style\b[\s\S]*?<\/style>/gi, "");
    assert.ok(body !== undefined);
    const position = /<a\s[^>]*href\s*=\s*["']([^"']*\/llms\.txt(?:[?#][^"']*)?)["'][^>]*>/i.exec(body)?.index ?? -1;
    assert.ok(position >= 0 && position / body.length <= 0.1, `${kind}: the first link to llms.txt is at ${position} of ${body.length}`);
    assert.ok(
      body.slice(0, body.indexOf("</header>")).includes('<p class="agent-links">For AI agents: <a href="/llms.txt">llms.txt</a>'),
      kind,
    );
  }
});

/** Runs one of AFDocs' own checks against the server, with the pages given. */
async function afdocs(id: string, pages: Map<string, string> | string[]): Promise<Record<string, unknown>> {
  const base = served.current.url;
  const context = Array.isArray(pages)
    ? createContext(base, { maxConcurrency: 2, samplingStrategy: "curated", curatedPages: pages.map((path) => `${base}${path}`) })
    : createContext(base, { maxConcurrency: 2 });
  if (!Array.isArray(pages)) {
    for (const [path, content] of pages)
      context.pageCache.set(`${base}${path}`, { url: `${base}${path}`, markdown: { content, source: "content-negotiation" } });
  }
  const check = getCheck(id);
  assert.ok(check !== undefined, id);
  const result = await check.run(context);
  return { status: result.status, ...result.details };
}

const SERVED = PAGE_KINDS.filter(({ status }) => status === 200).map(({ path }) => path);

test("AFDocs' markdown-content-parity check finds no line missing on any page kind that answers 200", async () => {
  const pages = new Map<string, string>();
  for (const path of SERVED) pages.set(path, await page(path, MARKDOWN, 200));
  const result = await afdocs("markdown-content-parity", pages);
  const results = result.pageResults as { url: string; missingSegments: number; sampleDiffs: string[] }[];
  assert.deepEqual(
    results.filter(({ missingSegments }) => missingSegments > 0).map(({ url, sampleDiffs }) => [url, sampleDiffs]),
    [],
  );
  assert.deepEqual([result.status, result.pagesCompared, result.fetchErrors], ["pass", SERVED.length, 0]);
});

test("AFDocs' llms-txt-directive-html check finds the llms.txt link near the top of every page kind that answers 200", async () => {
  const result = await afdocs("llms-txt-directive-html", SERVED);
  assert.deepEqual([result.status, result.testedPages, result.nearTopCount], ["pass", SERVED.length, SERVED.length]);
});
