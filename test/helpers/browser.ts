import { access, constants, mkdtemp, rename, rm } from "node:fs/promises";
import { arch, platform, tmpdir } from "node:os";
import { join } from "node:path";
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

/** @sparticuz/chromium's flags the tests leave out (see candidates). */
const UNWANTED_FLAGS = ["--disable-web-security", "--single-process"];

interface Candidate {
  readonly source: string;
  readonly executablePath: () => Promise<string>;
  readonly args: () => Promise<string[]>;
}

async function executable(path: string): Promise<string> {
  await access(path, constants.X_OK);
  return path;
}

/**
 * @sparticuz/chromium's browser, inflated once per machine into a folder of the temporary folder.
 * The package inflates into the temporary folder itself and takes a `chromium` file there as
 * complete, so test files starting at once would launch one another's half-written binary: each
 * inflates into a folder of its own instead, and the first to finish renames it into place whole.
 */
async function sparticuzExecutable(): Promise<string> {
  const system = tmpdir();
  const shared = join(system, "catalog-test-chromium");
  const binary = join(shared, "chromium");
  try {
    return await executable(binary);
  } catch {
    // Not inflated yet on this machine.
  }
  const own = await mkdtemp(join(system, "catalog-test-chromium-"));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = own;
  try {
    await (await import("@sparticuz/chromium")).default.executablePath();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  // Another test file may have put its own in place meanwhile: then this one is not needed.
  await rename(own, shared).catch(() => rm(own, { recursive: true, force: true }));
  return executable(binary);
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
      executablePath: sparticuzExecutable,
      // Its flags are for serverless rendering: one turns the same-origin policy and CORS off (the
      // tests need a browser that enforces them, as every reader's does), and with
      // --single-process the browser dies (SIGTRAP) once a test opens a page after closing one.
      args: async () => [...(await import("@sparticuz/chromium")).default.args.filter((flag) => !UNWANTED_FLAGS.includes(flag)), ...FLAGS],
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
