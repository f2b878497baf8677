import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import { promisify } from "node:util";
import matter from "gray-matter";
import type { Browser, Page } from "playwright-core";
import { markdownFiles } from "../../build/content.ts";
import { violations } from "../helpers/axe.ts";
import { browserForTests, browserTest as needingBrowser } from "../helpers/browser.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { type DevProcess, startDev } from "../helpers/dev-process.ts";
import type { LogLine } from "../helpers/logs.ts";
import { SAMPLE_CONTENT, tempDir } from "../helpers/snapshot.ts";

/**
 * An editor's walk through the form at /admin/ under `npm run dev`, on a copy of the sample
 * content: a new listing, saved where `npm run new` would write it and served within seconds; its
 * description edited; a required field left empty; the preview, which is the page itself.
 * Screenshots go to test-output/admin/; with SCREENSHOTS=docs/images, to the guide's folder
 * (content/README.md shows them).
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const SHOTS = join(ROOT, process.env.SCREENSHOTS ?? "test-output/admin");
const run = promisify(execFile);
/** The profile's "About this business": the business's own words. */
const ABOUT_SECTION = 'section[aria-labelledby="about"]';
const ABOUT = `${ABOUT_SECTION} p`;

/** The listing the editor adds: "24-7 Locksmiths Leeds" (24-7-locksmiths-leeds) is there already. */
const LISTING = {
  name: "24-7 Locksmiths",
  service: "Locksmith",
  city: "Leeds",
  region: "West Yorkshire",
  postcode: "LS2 7HY",
  country: "GB",
  quoteUrl: "https://hearthway.example/quotes/new?business=24-7-locksmiths-leeds-2",
  description: "Lock changes and emergency entry across Leeds, day and night.",
};

let work: { path: string; remove: () => Promise<void> };
let content: string;
let dev: DevProcess;
let browser: Browser | undefined;
let page: Page;
/** What the editor's page threw. */
const pageErrors: string[] = [];
/** Why the browser tests are skipped, when no Chromium could be started. */
let skipReason: string | undefined;
const browserTest = (name: string, body: () => Promise<void>) => needingBrowser(name, () => skipReason, body);

/** The path `npm run new` gives the listing, run on a copy of the content as it was before the form saved anything. */
async function pathNpmRunNewChooses(): Promise<string> {
  const copy = join(work.path, "copy-for-new");
  await cp(content, copy, { recursive: true });
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "build/new.ts",
      "listing",
      LISTING.name,
      "--service",
      LISTING.service,
      "--city",
      LISTING.city,
      "--country",
      LISTING.country,
    ],
    { cwd: ROOT, env: { ...process.env, CONTENT_DIR: copy } },
  );
  return stdout.trim().slice(copy.length + 1);
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Chooses an option of a Decap select by typing its start, as an editor does. */
async function choose(label: string, text: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(text);
  await page.keyboard.press("Enter");
}

/** npm run dev's line (through pino-pretty, so not JSON) saying the server serves a new snapshot. */
const snapshotServed = (line: LogLine) => line.msg.includes(" now served, replacing ");

/** Publishes the entry open in the form; resolves when the form says it is saved and the site serves the build that followed. */
async function publish(): Promise<number> {
  const served = dev.logs.lines.filter(snapshotServed).length;
  await page.getByRole("button", { name: "Publish" }).click();
  const saved = Date.now();
  await page.getByRole("menuitem", { name: "Publish now" }).click();
  await page.getByText("Entry saved").waitFor();
  await dev.logs.waitFor("the save served", snapshotServed, { count: served + 1 });
  return saved;
}

/** The listing files under businesses/, relative to the content folder. */
const listingFiles = () => markdownFiles(join(content, "businesses")).map((file) => file.slice(content.length + 1));

before(async () => {
  work = await tempDir("admin-editor-");
  content = join(work.path, "content");
  await cp(SAMPLE_CONTENT, content, { recursive: true });
  await mkdir(SHOTS, { recursive: true });
  dev = await startDev(content, join(work.path, "dist"), { RATE_LIMIT_MAX: "0" });
  const launched = await browserForTests();
  if (typeof launched === "string") {
    skipReason = launched;
    return;
  }
  browser = launched;
  page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  page.on("pageerror", (error) => {
    // Decap rejects a save the form refused with no reason, and leaves it unhandled.
    if (error.message !== "undefined") pageErrors.push(error.message);
  });
  await page.goto(`${dev.url}/admin/#/collections/listings`);
  // The local backend's login: a button, no password (only this machine can reach it).
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByRole("link", { name: "24-7 Locksmiths Leeds: Leeds, GB (approved)" }).waitFor();
});
after(async () => {
  assert.deepEqual(pageErrors, []);
  await browser?.close();
  assert.equal(await dev.stop(), 0);
  await work.remove();
});

describe("the editors' form at /admin/", () => {
  let slug: string;

  browserTest(
    "a listing made in the form is saved where npm run new writes it, passes npm run check, and is served at its page and in the search within 5 s",
    async () => {
      const expected = await pathNpmRunNewChooses();
      assert.equal(expected, "businesses/gb/24-7-locksmiths-leeds-2.md");
      await shot("editor-1-listings");

      await page.getByRole("link", { name: /Business listing$/ }).click();
      await page.getByLabel("Name", { exact: true }).fill(LISTING.name);
      await choose("Service", LISTING.service);
      await page.getByLabel("City", { exact: true }).fill(LISTING.city);
      await page.getByLabel("Region", { exact: true }).fill(LISTING.region);
      await page.getByLabel("Postal code", { exact: true }).fill(LISTING.postcode);
      await choose("Country", "United Kingdom");
      await page.getByLabel("Quote URL", { exact: true }).fill(LISTING.quoteUrl);
      await choose("Status", "approved");
      await page.getByLabel("Description", { exact: true }).fill(LISTING.description);
      // The category follows the service, from services.yml.
      assert.equal(await page.getByLabel("Category", { exact: true }).inputValue(), "Repairs & maintenance");
      assert.equal(await page.frameLocator("#preview-pane").locator("h1").innerText(), LISTING.name);
      await shot("editor-2-new-listing");

      const saved = await publish();
      slug = expected.replace(/^.*\//, "").replace(/\.md$/, "");
      const [profile, search] = await Promise.all([
        fetch(`${dev.url}/businesses/${slug}`),
        fetch(`${dev.url}/api/directory?q=${encodeURIComponent(LISTING.name)}&location=leeds`),
      ]);
      const elapsed = Date.now() - saved;
      assert.equal(profile.status, 200);
      assert.match(await profile.text(), /<h1>24-7 Locksmiths<\/h1>/);
      const found = ((await search.json()) as { items: { slug: string }[] }).items.map((item) => item.slug);
      assert.deepEqual(found.sort(), ["24-7-locksmiths-leeds", slug]);
      assert.ok(elapsed < 5000, `served ${elapsed} ms after the save`);
      await shot("editor-3-saved");

      assert.ok(listingFiles().includes(expected), `${expected} is not among the listings`);
      const file = matter(await readFile(join(content, expected), "utf8"));
      const { id, ...data } = file.data as { id: string };
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(data, {
        name: LISTING.name,
        service: LISTING.service,
        category: "Repairs & maintenance",
        location: { city: LISTING.city, region: LISTING.region, postalCode: LISTING.postcode, country: LISTING.country },
        quoteUrl: LISTING.quoteUrl,
        status: "approved",
      });
      assert.equal(file.content.trim(), LISTING.description);
      const newsFile = matter(await readFile(join(work.path, "copy-for-new", expected), "utf8"));
      assert.deepEqual(Object.keys(file.data), Object.keys(newsFile.data), "the keys in npm run new's order");
      const check = await buildCli(["--check"], content, join(work.path, "check-dist"));
      assert.deepEqual([check.code, check.stderr], [0, ""]);

      await page.goto(`${dev.url}/businesses/${slug}`);
      await shot("editor-4-live");
    },
  );

  browserTest(
    "an edit of the description is served; its <script> is text in the preview and on the page; Private is saved, not published",
    async () => {
      const hostile = 'Emergency entry. <script>window.hostileRan = true</script> <img src=x onerror="window.hostileRan = true">';
      await page.goto(`${dev.url}/admin/#/collections/listings/entries/gb/${slug}`);
      await page.getByLabel("Description", { exact: true }).fill(hostile);
      await page.getByLabel("Private (optional)", { exact: true }).fill('contactName: Dana Whitlock\nphone: "+44 113 496 0000"');
      const preview = page.frameLocator("#preview-pane");
      assert.equal(await preview.locator(ABOUT).last().innerText(), hostile);
      assert.deepEqual(await preview.locator(`${ABOUT_SECTION} :is(script, img)`).count(), 0);

      await publish();
      const saved = matter(await readFile(join(content, "businesses/gb", `${slug}.md`), "utf8"));
      assert.deepEqual((saved.data as { private?: unknown }).private, { contactName: "Dana Whitlock", phone: "+44 113 496 0000" });
      assert.equal(saved.content.trim(), hostile);
      const html = await (await fetch(`${dev.url}/businesses/${slug}`)).text();
      assert.ok(!html.includes("Dana Whitlock"), "private details are not published");
      assert.ok(
        html.includes("Emergency entry. &lt;script&gt;window.hostileRan = true&lt;/script&gt; &lt;img src=x"),
        "the page escapes the description",
      );
      // As a visitor sees it: this browser has the page from before the edit in its cache (max-age).
      const visitor = await (browser as Browser).newPage();
      await visitor.goto(`${dev.url}/businesses/${slug}`);
      assert.equal(await visitor.locator(ABOUT).last().innerText(), hostile);
      assert.equal(await visitor.evaluate(() => (globalThis as { hostileRan?: boolean }).hostileRan), undefined);
      await visitor.close();
      // The form's page itself ran none of it either.
      await page.goto(`${dev.url}/admin/#/collections/listings/entries/gb/${slug}`);
      await page.getByLabel("Description", { exact: true }).waitFor();
      assert.equal(await page.evaluate(() => (globalThis as { hostileRan?: boolean }).hostileRan), undefined);
    },
  );

  browserTest("a required field left empty is refused by the form, and nothing is written", async () => {
    const before = listingFiles();
    const saves: string[] = [];
    page.on("request", (request) => {
      if ((request.postData() ?? "").includes('"persistEntry"')) saves.push(request.url());
    });
    await page.goto(`${dev.url}/admin/#/collections/listings/new`);
    await page.getByLabel("Name", { exact: true }).fill("Left Out Joinery");
    await choose("Service", "Carpentry & Joinery");
    await page.getByLabel("Region", { exact: true }).fill(LISTING.region);
    await page.getByLabel("Postal code", { exact: true }).fill(LISTING.postcode);
    await choose("Country", "United Kingdom");
    await page.getByLabel("Quote URL", { exact: true }).fill(LISTING.quoteUrl);
    await page.getByLabel("Description", { exact: true }).fill(LISTING.description);
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByRole("menuitem", { name: "Publish now" }).click();
    await page.getByText("City is required.").waitFor();
    await page.getByText("Oops, you've missed a required field. Please complete before saving.").waitFor();
    assert.deepEqual(saves, []);
    assert.deepEqual(listingFiles(), before);
  });

  browserTest("axe finds nothing on the preview of a listing", async () => {
    // In a page of its own: the one the test before left holds a form with unsaved changes, which
    // keeps the editor from leaving it.
    const tab = await (browser as Browser).newPage({ viewport: { width: 1100, height: 700 } });
    try {
      await tab.goto(`${dev.url}/admin/#/collections/listings/entries/gb/${slug}`);
      await tab.getByRole("button", { name: "Login" }).click();
      await tab.frameLocator("#preview-pane").locator("h1", { hasText: LISTING.name }).waitFor();
      const frame = tab.frame({ name: "preview-pane" });
      assert.ok(frame !== null);
      assert.deepEqual(await violations(frame), []);
    } finally {
      await tab.close();
    }
  });
});
