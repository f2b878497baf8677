import { access, constants } from "node:fs/promises";
import { arch, platform } from "node:os";
import { type TestContext, test } from "node:test";
import { type Browser, chromium } from "playwright-core";

/**
 * A Chromium for the browser tests, found without any download: CHROME_PATH when set, else
 * Debian's chromium, else the Chromium that the dev dependency @sparticuz/chromium ships inside
 * its npm package (Linux x64), so `npm ci && npm test` runs them on a machine with only Node.js
 * and npm. When none starts, the tests are skipped with the reason printed, unless
 * REQUIRE_BROWSER_TESTS=1 (set by .ci/run), which makes that a failure.
 */

/** Flags for headless Chromium on a machine with a closed network. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const DEBIAN_CHROMIUM = "/usr/bin/chromium";

interface Candidate {
  readonly source: string;
  readonly executablePath: () => Promise<string>;
  readonly args: () => Promise<string[]>;
}

async function executable(path: string): Promise<string> {
  await access(path, constants.X_OK);
  return path;
}

function candidates(): Candidate[] {
  const explicit = process.env.CHROME_PATH;
  if (explicit !== undefined && explicit !== "") {
    return [{ source: `CHROME_PATH (${explicit})`, executablePath: () => executable(explicit), args: async () => FLAGS }];
  }
  const found: Candidate[] = [
    { source: `Debian's chromium (${DEBIAN_CHROMIUM})`, executablePath: () => executable(DEBIAN_CHROMIUM), args: async () => FLAGS },
  ];
  if (platform() === "linux" && arch() === "x64") {
    found.push({
      source: "@sparticuz/chromium (shipped in its npm package)",
      executablePath: async () => (await import("@sparticuz/chromium")).default.executablePath(),
      // Its flags are for serverless rendering, and one of them turns the same-origin policy and
      // CORS off: the tests need a browser that enforces them, as every reader's does.
      args: async () => [
        ...(await import("@sparticuz/chromium")).default.args.filter((flag) => flag !== "--disable-web-security"),
        ...FLAGS,
      ],
    });
  }
  return found;
}

export type BrowserLaunch = { browser: Browser; source: string } | { browser: null; reasons: string[] };

/** Starts the first Chromium that works; says why each one that did not failed. */
export async function launchChromium(): Promise<BrowserLaunch> {
  const reasons: string[] = [];
  for (const candidate of candidates()) {
    try {
      const browser = await chromium.launch({ executablePath: await candidate.executablePath(), args: await candidate.args() });
      return { browser, source: candidate.source };
    } catch (error) {
      reasons.push(`${candidate.source}: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`);
    }
  }
  return { browser: null, reasons };
}

/** True when a missing browser must fail the run instead of skipping the browser tests. */
export function browserRequired(): boolean {
  return process.env.REQUIRE_BROWSER_TESTS === "1";
}

/**
 * Chromium for a file's browser tests, or why they are skipped: said once on stderr, and an
 * error instead when REQUIRE_BROWSER_TESTS=1.
 */
export async function browserForTests(): Promise<Browser | string> {
  const launched = await launchChromium();
  if (launched.browser !== null) return launched.browser;
  const reason = `no Chromium could be started: ${launched.reasons.join("; ")}`;
  if (browserRequired()) throw new Error(`REQUIRE_BROWSER_TESTS=1, but ${reason}`);
  console.warn(`\n*** BROWSER TESTS SKIPPED: ${reason}. Set CHROME_PATH to a Chromium to run them. ***\n`);
  return reason;
}

/** A test that needs the browser: skipped, with the reason `skipReason()` gives, when none could be started. */
export function browserTest(name: string, skipReason: () => string | undefined, body: () => Promise<void>): void {
  test(name, async (t: TestContext) => {
    const reason = skipReason();
    if (reason !== undefined) {
      t.skip(reason);
      return;
    }
    await body();
  });
}
