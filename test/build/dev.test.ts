import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import { generateContent } from "../../bench/generate.ts";
import { LogLines } from "../helpers/logs.ts";
import { freePort } from "../helpers/ports.ts";
import { TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";
import { edit, listingFilesOf } from "../helpers/snapshot-files.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * `npm run dev` as an editor runs it: every save is built in its process and served. Its builds
 * read again only the files its watcher saw change, so each step edits a file that an earlier
 * build read and cached, and waits for the server to say it serves a new snapshot. A file
 * changed within 2 s (RACY_MS) of a build's start is always read again, so the second edit tests
 * the watcher's word only when the build before it started over 2 s after the content was made:
 * starting dev, its first build and its server, then the first edit's build, take longer here.
 */
describe("npm run dev serves each save", () => {
  let work: { path: string; remove: () => Promise<void> };
  let content: string;
  let url: string;
  let dev: ChildProcess;
  let exited: Promise<number | null>;
  const logs = new LogLines();
  /** Approved listings' files, in order. */
  let approved: string[];

  before(async () => {
    work = await tempDir();
    content = join(work.path, "content");
    await generateContent(content, 40, 3);
    approved = [];
    for (const file of await listingFilesOf(content)) {
      if (/^status: approved$/m.test(await readFile(file, "utf8"))) approved.push(file);
    }
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dev = spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        CONTENT_DIR: content,
        DIST_DIR: join(work.path, "dist"),
        BASE_URL: TEST_BASE_URL,
        PORT: String(port),
        HOST: "127.0.0.1",
        RATE_LIMIT_MAX: "0",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    // pino-pretty colours the server's lines.
    dev.stdout?.setEncoding("utf8").on("data", (chunk: string) => logs.write(stripVTControlCharacters(chunk)));
    exited = new Promise((resolve) =>
      dev.on("close", (code) => {
        logs.end(`npm run dev exited (${code})`);
        resolve(code);
      }),
    );
    await logs.waitFor("the server listening", (line) => line.msg.includes(`Server listening at ${url}`));
  });
  after(async () => {
    dev.kill("SIGTERM");
    assert.equal(await exited, 0);
    await work.remove();
  });

  /** Makes a change, then waits for the server to say it serves the snapshot built after it. */
  async function served(change: () => Promise<void>): Promise<void> {
    const before = logs.lines.filter((line) => line.msg.includes("now served")).length;
    await change();
    await logs.waitFor("a new snapshot served", (line) => line.msg.includes("now served"), { count: before + 1 });
  }

  /** The listing's Markdown profile: its status and text. */
  async function profile(file: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${url}/businesses/${basename(file, ".md")}/index.md`);
    return { status: response.status, text: await response.text() };
  }

  const appended = (path: string, words: string) => edit(path, /\n+$/, ` ${words}\n`);

  test("edits of two listings, one after the other", async () => {
    const [first, second] = approved as [string, string];
    await served(() => appended(first, "First edit served."));
    assert.match((await profile(first)).text, /First edit served\./);
    await served(() => appended(second, "Second edit served."));
    assert.match((await profile(second)).text, /Second edit served\./);
    assert.match((await profile(first)).text, /First edit served\./);
  });

  test("a listing moved into a new folder under a new name, then edited there", async () => {
    const file = approved[2] as string;
    const moved = join(content, "businesses", "moved", `moved-${basename(file)}`);
    await served(async () => {
      await mkdir(join(content, "businesses", "moved"));
      await rename(file, moved);
    });
    assert.equal((await profile(moved)).status, 200);
    assert.equal((await profile(file)).status, 404);
    await served(() => appended(moved, "Edited in its new folder."));
    assert.match((await profile(moved)).text, /Edited in its new folder\./);
  });

  test("a listing removed", async () => {
    const file = approved[3] as string;
    assert.equal((await profile(file)).status, 200);
    await served(() => rm(file));
    assert.equal((await profile(file)).status, 404);
  });

  test("a listing added", async () => {
    const file = approved[4] as string;
    const text = await readFile(file, "utf8");
    const added = join(content, "businesses", "moved", "an-added-listing.md");
    await served(() => writeFile(added, text.replace(/^id: .*$/m, 'id: "0f8fad5b-d9cb-469f-a165-70867728950e"')));
    assert.equal((await profile(added)).status, 200);
  });
});
