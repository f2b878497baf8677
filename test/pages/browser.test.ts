import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { after, before } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { violations } from "../helpers/axe.ts";
import { browserForTests, browserTest as needingBrowser } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, SAMPLE_CONTENT, tempDir } from "../helpers/snapshot.ts";

const SCREENSHOTS = new URL("../../test-output/pages/", import.meta.url).pathname;
const QUOTE_FORM = "https://fixture.example/quotes/new";

let server: RunningServer;
let browser: Browser | undefined;
let context: BrowserContext;
let cleanup: () => Promise<void>;
/** Why the browser tests are skipped, when no Chromium could be started. */
let skipReason: string | undefined;
const browserTest = (name: string, body: () => Promise<void>) => needingBrowser(name, () => skipReason, body);

before(async () => {
  const dist = await tempDir();
  cleanup = dist.remove;
  await buildSnapshot(`${FIXTURES}pages-hostile`, `${dist.path}/dist`);
  server = await startServer(`${dist.path}/dist`);
  await mkdir(`${SCREENSHOTS}screens`, { recursive: true });
  const launched = await browserForTests();
  if (typeof launched === "string") {
    skipReason = launched;
    return;
  }
  browser = launched;
  // bypassCSP lets axe-core be injected; it also means only the escaping keeps hostile text inert here.
  context = await browser.newContext({ bypassCSP: true, javaScriptEnabled: true });
  // The quote form lives on another site; answer it locally so the test never leaves the machine.
  await context.route(`${QUOTE_FORM}**`, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>Quote form</title><h1>Quote form</h1>" }),
  );
});
after(async () => {
  if (browser !== undefined) await context?.close();
  await browser?.close();
  await server.close();
  await cleanup();
});

/** A page that records dialogs, console errors and uncaught page errors. */
async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

async function check(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
  assert.deepEqual(await violations(page), [], `${name}: accessibility violations`);
}

browserTest(
  "homepage → directory search via the form → page 2 by its number → a profile → the quote link, accessible at every step",
  async () => {
    const { page, problems } = await watchedPage();
    await page.goto(`${server.url}/`);
    assert.equal(await page.locator("h1").innerText(), "Pages Fixture Directory");
    await check(page, "1-homepage");

    await page.getByLabel("Service or name").fill("plumb");
    await page.getByLabel("Town, region or postcode").fill("Leeds");
    await Promise.all([page.waitForURL(/\/businesses\?/), page.getByRole("button", { name: "Search the directory" }).click()]);
    assert.equal(new URL(page.url()).search, "?q=plumb&location=Leeds");
    assert.equal(await page.locator("#q").inputValue(), "plumb");
    assert.equal(await page.locator(".cards .card").count(), 10);
    await check(page, "2-directory-results");

    assert.equal(await page.locator('[role="status"]').first().innerText(), "Results 1 to 10 of 12, in name order.");
    await Promise.all([page.waitForURL(/offset=10/), page.getByRole("link", { name: "Page 2", exact: true }).click()]);
    assert.deepEqual(await page.locator(".cards .card h3").allInnerTexts(), ["Jarvis Plumbing", "Kerr Plumbing"]);
    assert.equal(await page.locator('.pager [aria-current="page"]').innerText(), "2");
    await check(page, "3-directory-next-page");

    await Promise.all([
      page.waitForURL(/\/businesses\/kerr-plumbing$/),
      page.getByRole("link", { name: "Kerr Plumbing", exact: true }).click(),
    ]);
    assert.equal(await page.locator("h1").innerText(), "Kerr Plumbing");
    await check(page, "4-profile");

    const quote = page.getByRole("link", { name: "Request a quote from Kerr Plumbing" });
    assert.equal(await quote.getAttribute("href"), `${QUOTE_FORM}?business=kerr-plumbing`);
    await Promise.all([page.waitForURL(`${QUOTE_FORM}?business=kerr-plumbing`), quote.click()]);
    assert.equal(await page.locator("h1").innerText(), "Quote form");

    assert.deepEqual(problems, []);
    await page.close();
  },
);

browserTest("every other page kind has no accessibility violation of any impact", async () => {
  const kinds: [string, string][] = [
    ["5-guide", "/offerings/request-quotes"],
    ["6-contact", "/contact"],
    ["7-api-docs", "/docs/api"],
    ["8-directory-invalid-input", "/businesses?country=GBR"],
    ["9-not-found", "/no-such-page"],
  ];
  for (const [name, path] of kinds) {
    const { page, problems } = await watchedPage();
    await page.goto(`${server.url}${path}`);
    await check(page, name);
    // The 400 and 404 pages log their status as a console error; nothing else may.
    assert.deepEqual(
      problems.filter((problem) => !/status of (400|404)/.test(problem)),
      [],
      name,
    );
    await page.close();
  }
});

browserTest(
  "a listing with script, an onerror image, a javascript: link and Markdown headings shows them as text and runs nothing",
  async () => {
    const { page, problems } = await watchedPage();
    await page.goto(`${server.url}/businesses/hostile-listing`);
    await page.waitForLoadState("load");
    const about = await page.locator("section.untrusted").innerText();
    assert.ok(about.includes("<script>alert(1)</script>"));
    assert.ok(about.includes("<img src=x onerror=alert(2)>"));
    assert.ok(about.includes("[click](javascript:alert(3))"));
    assert.ok(about.includes("# Heading"));
    assert.equal(await page.locator("h1").innerText(), "Hostile <i>Co</i> [x](javascript:alert(9))");
    assert.equal(await page.locator("main img").count(), 0);
    assert.equal(await page.locator("main script").count(), 0);
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.equal(await page.locator("section.untrusted h1, section.untrusted h2 + h1").count(), 0);
    await check(page, "10-hostile-profile");
    assert.deepEqual(problems, []);
    await page.close();
  },
);

browserTest("on every page kind a page may read /robots.txt and the favicon, and logs no console error but its own status", async () => {
  const kinds: [string, string, number][] = [
    ["homepage", "/", 200],
    ["directory", "/businesses?q=plumb", 200],
    ["profile", "/businesses/kerr-plumbing", 200],
    ["guide", "/offerings/request-quotes", 200],
    ["contact", "/contact", 200],
    ["API documentation", "/docs/api", 200],
    ["directory refusing its input", "/businesses?country=GBR", 400],
    ["not found", "/no-such-page", 404],
  ];
  // A context of its own that enforces the pages' CSP, as a visitor's browser does.
  const enforcing = await (browser as Browser).newContext();
  for (const [name, path, status] of kinds) {
    const page = await enforcing.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    const response = await page.goto(`${server.url}${path}`);
    assert.equal(response?.status(), status, name);
    // What Lighthouse does from the page: read robots.txt, and the favicon a browser asks for by itself.
    const fetched = await page.evaluate(async () => {
      const robots = await fetch("/robots.txt");
      const icon = await fetch("/favicon.ico");
      return {
        robots: robots.status,
        sitemap: (await robots.text()).includes("Sitemap: "),
        icon: icon.status,
        type: icon.headers.get("content-type"),
      };
    });
    assert.deepEqual(fetched, { robots: 200, sitemap: true, icon: 200, type: "image/x-icon" }, name);
    assert.deepEqual(
      problems.filter((problem) => !(status !== 200 && problem.includes(`status of ${status}`))),
      [],
      name,
    );
    await page.close();
  }
  // Left open: the browser closes it in after(). With the one-process Chromium of
  // @sparticuz/chromium, closing a context closes the whole browser, and tests follow.
});

browserTest(
  "on a phone (390 × 844) and a desktop (1280 × 800) the search form is in the first screen; screenshots of the main page kinds",
  async () => {
    // The sample content: a long directory (303 listings) whose words people use are in services.yml.
    const work = await tempDir("screens-");
    await buildSnapshot(SAMPLE_CONTENT, `${work.path}/dist`);
    const sample = await startServer(`${work.path}/dist`);
    const kinds: [string, string][] = [
      ["homepage", "/"],
      ["search", "/businesses?q=plumber"],
      // Its counts by service and by country (the narrowing) as well.
      ["search-by-service-and-country", "/businesses?q=e"],
      ["empty-search", "/businesses?q=plumber%20in%20leeds"],
      ["long-result-page-3", "/businesses?offset=20"],
      ["profile", "/businesses/beacon-roofing"],
    ];
    try {
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ] as const) {
        for (const [name, path] of kinds) {
          // A page of the shared context sized to the device: with the Chromium of @sparticuz/chromium
          // (one process), closing a context of its own would close the browser.
          const page = await context.newPage();
          await page.setViewportSize({ width, height });
          const response = await page.goto(`${sample.url}${path}`);
          assert.equal(response?.status(), 200, `${name} at ${width} px`);
          await page.screenshot({ path: `${SCREENSHOTS}screens/${name}-${width}.png`, fullPage: true });
          if (name !== "profile") {
            const form = await page.locator('form[role="search"]').boundingBox();
            assert.ok(form !== null, `${name} at ${width} px: no search form`);
            assert.ok(
              form.y + form.height <= height,
              `${name} at ${width} px: the search form ends at ${form.y + form.height} px, below the first ${height} px`,
            );
          }
          assert.deepEqual(await violations(page), [], `${name} at ${width} px: accessibility violations`);
          await page.close();
        }
      }
    } finally {
      await sample.close();
      await work.remove();
    }
  },
);
