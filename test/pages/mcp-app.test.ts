import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { after, before } from "node:test";
import { build } from "esbuild";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { browserForTests, browserTest as needingBrowser } from "../helpers/browser.ts";
import { FIXTURES } from "../helpers/snapshot.ts";
import { type McpTestServer, post, startMcpServer } from "../mcp/helpers.ts";

/**
 * The MCP App in a browser, as a chat client shows it: a host page using the ext-apps host side
 * (AppBridge, test/pages/mcp-app-host.ts) renders the app from the running server's
 * resources/read answer in a sandboxed iframe, under the CSP its metadata asks for, and hands it
 * a real search_businesses result. The app's requests reach the host's handlers, which record
 * them and forward tools/call to the server. SCREENSHOT=1 writes docs/images/mcp-app.png.
 */

const require = createRequire(import.meta.url);
const AXE = require.resolve("axe-core");
const HOST_URL = "http://host.test/";
const APP_URL = "http://sandbox.test/app.html";
const SCREENSHOT = new URL("../../docs/images/mcp-app.png", import.meta.url).pathname;
const APP_URI = "ui://directory/results.html";
const SEARCH = { q: "plumb", location: "Leeds", limit: 5 };

let mcp: McpTestServer | undefined;
let browser: Browser | undefined;
let context: BrowserContext;
let skipReason: string | undefined;
const browserTest = (name: string, body: () => Promise<void>) => needingBrowser(name, () => skipReason, body);

before(async () => {
  mcp = await startMcpServer({ content: `${FIXTURES}pages-hostile` });
  const launched = await browserForTests();
  if (typeof launched === "string") {
    skipReason = launched;
    return;
  }
  browser = launched;
  // CSP is enforced here (no bypassCSP): the app must run under what its metadata declares.
  context = await browser.newContext({ viewport: { width: 800, height: 900 } });
});
after(async () => {
  if (browser !== undefined) await context?.close();
  await browser?.close();
  await mcp?.close();
});

/** One MCP request in the 2025-11-25 era; returns its result. */
async function rpc(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await post(mcp as McpTestServer, { jsonrpc: "2.0", id: 1, method, params }, { "mcp-protocol-version": "2025-11-25" });
  assert.equal(response.status, 200, response.body);
  const body = JSON.parse(response.body) as { result?: Record<string, unknown> };
  assert.ok(body.result, response.body);
  return body.result;
}

/** The CSP a host builds from the resource's `_meta.ui.csp` (MCP Apps: Sandbox proxy): every list empty, the restrictive default. */
function hostCsp(csp: Record<string, unknown[]>): string {
  assert.deepEqual(csp, { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
  return "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; object-src 'none'; connect-src 'none'; frame-src 'none'; base-uri 'self'";
}

/** The host page's script: mcp-app-host.ts with the ext-apps host side, bundled for the browser. */
async function hostScript(): Promise<string> {
  const result = await build({
    entryPoints: [new URL("./mcp-app-host.ts", import.meta.url).pathname],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

interface HostEvent {
  readonly kind: string;
  readonly [key: string]: unknown;
}

/** The host page showing the app, with what the host's handlers received, and a wait for the next one. */
async function openHost(
  toolResult: unknown,
  theme: "light" | "dark",
): Promise<{ page: Page; frame: Frame; events: HostEvent[]; next: (kind: string) => Promise<HostEvent>; problems: string[] }> {
  const read = await rpc("resources/read", { uri: APP_URI });
  const [content] = read.contents as { text: string; _meta: { ui: { csp: Record<string, unknown[]> } } }[];
  assert.ok(content);
  const csp = hostCsp(content._meta.ui.csp);
  const script = await hostScript();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.route(HOST_URL, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><title>Host</title><style>body{margin:0}iframe{display:block;width:100%;border:0}</style><body><script>${script}</script></body></html>`,
    }),
  );
  await page.route(APP_URL, (route) =>
    route.fulfill({ contentType: "text/html", headers: { "content-security-policy": csp }, body: content.text }),
  );

  const events: HostEvent[] = [];
  const waiting: { kind: string; resolve: (event: HostEvent) => void }[] = [];
  let seen = 0;
  await page.exposeFunction("hostEvent", (event: HostEvent) => {
    events.push(event);
    const at = waiting.findIndex((waiter) => waiter.kind === event.kind);
    if (at >= 0) waiting.splice(at, 1)[0]?.resolve(event);
  });
  await page.exposeFunction("callServerTool", (params: Record<string, unknown>) => rpc("tools/call", params));
  const next = (kind: string) => {
    const found = events.slice(seen).find((event) => event.kind === kind);
    if (found !== undefined) {
      seen = events.indexOf(found) + 1;
      return Promise.resolve(found);
    }
    return new Promise<HostEvent>((resolve) =>
      waiting.push({
        kind,
        resolve: (event) => {
          seen = events.indexOf(event) + 1;
          resolve(event);
        },
      }),
    );
  };

  await page.goto(HOST_URL);
  const initialized = next("initialized");
  await page.evaluate((scenario) => (globalThis as unknown as { startHost: (s: unknown) => Promise<void> }).startHost(scenario), {
    appUrl: APP_URL,
    toolInput: SEARCH,
    toolResult,
    context: { theme, displayMode: "inline", platform: "web" },
  });
  await initialized;
  const frame = page.frame({ url: APP_URL });
  assert.ok(frame, "the app's frame");
  return { page, frame, events, next, problems };
}

async function axeViolations(frame: Frame): Promise<string[]> {
  await frame.addScriptTag({ path: AXE });
  const found = await frame.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } })
      .axe;
    return (await axe.run()).violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
  return found;
}

interface Listing {
  name: string;
  quoteUrl: string;
}

browserTest("the app shows a search_businesses result as cards, asks the host to open a quote page and to call the next page", async () => {
  const result = await rpc("tools/call", { name: "search_businesses", arguments: SEARCH });
  const firstPage = result.structuredContent as { items: Listing[]; nextOffset: number };
  assert.equal(firstPage.items.length, 5);
  const { page, frame, events, next, problems } = await openHost(result, "light");

  await frame.locator("#status", { hasText: "Listings 1 to 5, in name order." }).waitFor();
  assert.deepEqual(
    await frame.locator(".card h2").allTextContents(),
    firstPage.items.map((item) => item.name),
  );
  assert.deepEqual(await frame.locator("input[name=q]").inputValue(), "plumb");
  if (process.env.SCREENSHOT === "1") {
    await mkdir(new URL(".", `file://${SCREENSHOT}`).pathname, { recursive: true });
    await page.locator("iframe").screenshot({ path: SCREENSHOT });
  }
  assert.deepEqual(await axeViolations(frame), [], "light: accessibility violations");

  const chosen = firstPage.items[1];
  assert.ok(chosen);
  await frame.getByRole("button", { name: `Request a quote from ${chosen.name}` }).click();
  assert.deepEqual(await next("open-link"), { kind: "open-link", url: chosen.quoteUrl });

  await frame.getByRole("button", { name: "Next page" }).click();
  // The request's name and arguments, exactly (its _meta is the SDK's progress token).
  const { name, arguments: args } = (await next("tools/call")).params as { name: string; arguments: unknown };
  assert.deepEqual(
    { name, arguments: args },
    { name: "search_businesses", arguments: { q: "plumb", location: "Leeds", limit: 5, offset: 5 } },
  );
  assert.equal(firstPage.nextOffset, 5);
  await frame.locator("#status", { hasText: "Listings 6 to 10, in name order." }).waitFor();
  const secondPage = (await rpc("tools/call", { name: "search_businesses", arguments: { ...SEARCH, offset: 5 } })).structuredContent as {
    items: Listing[];
  };
  const names = secondPage.items.map((item) => item.name);
  assert.ok(names.includes("Hostile <i>Co</i> [x](javascript:alert(9))"), "page 2 holds the hostile listing");
  assert.deepEqual(await frame.locator(".card h2").allTextContents(), names);
  // Its text is text: no element came from it.
  assert.equal(await frame.locator(".card i, .card img, .card script, .card a").count(), 0);

  await page.evaluate(() => (globalThis as unknown as { setTheme: (theme: string) => void }).setTheme("dark"));
  await frame.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
  assert.deepEqual(await axeViolations(frame), [], "dark: accessibility violations");

  assert.deepEqual(
    events.map((event) => event.kind),
    ["initialized", "open-link", "tools/call"],
  );
  assert.deepEqual(problems, []);
  await page.close();
});

browserTest("the app shows get_business's one listing as a card, without paging", async () => {
  const first = (await rpc("tools/call", { name: "search_businesses", arguments: { limit: 1 } })).structuredContent as {
    items: { slug: string; name: string }[];
  };
  const slug = first.items[0]?.slug ?? "";
  const result = await rpc("tools/call", { name: "get_business", arguments: { identifier: slug } });
  const { page, frame, problems } = await openHost(result, "dark");
  await frame.locator("#status", { hasText: "One listing." }).waitFor();
  assert.deepEqual(await frame.locator(".card h2").allTextContents(), [first.items[0]?.name]);
  assert.equal(await frame.locator("nav button").count(), 0);
  assert.deepEqual(await axeViolations(frame), []);
  assert.deepEqual(problems, []);
  await page.close();
});
