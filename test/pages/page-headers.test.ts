import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildCli } from "../helpers/build-cli.ts";
import { type RunningServer, serveContent, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * The headers of Markdown and HTML answers besides Link and Vary: `x-markdown-tokens`, an estimate
 * of a Markdown body's size in tokens (its characters, as Unicode code points, divided by four and
 * rounded up), and `Content-Signal`, what site.md allows done with the content (contentsignals.org).
 */

const served = serveContent(`${FIXTURES}basic`);
const MARKDOWN = { accept: "text/markdown" };
const DEFAULT_SIGNAL = "search=yes, ai-input=yes, ai-train=no";
/** Four characters of two UTF-16 units each. */
const TOOLS = "🏠🔧🪜🧰";

/** The estimate, worked out here from the body the client received. */
const tokensOf = (body: string) => String(Math.ceil([...body].length / 4));

async function get(path: string, headers: Record<string, string> = {}, server: RunningServer = served.current) {
  const response = await fetch(`${server.url}${path}`, { headers });
  return { response, body: await response.text() };
}

describe("x-markdown-tokens", () => {
  test("a Markdown page carries the token estimate of its body", async () => {
    const { response, body } = await get("/offerings/cost-guides/index.md");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("x-markdown-tokens"), tokensOf(body));
  });

  test("the homepage asked for as Markdown carries the estimate of the body its Markdown URL answers", async () => {
    const { body } = await get("/index.md");
    const { response } = await get("/", MARKDOWN);
    assert.equal(response.headers.get("content-type"), "text/markdown; charset=utf-8");
    assert.equal(response.headers.get("x-markdown-tokens"), tokensOf(body));
  });

  test("the directory page refusing its input in Markdown carries the estimate of its body", async () => {
    const { response, body } = await get("/businesses/index.md?country=GBR");
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("x-markdown-tokens"), tokensOf(body));
  });

  test("a Markdown search result page, rendered for the request, carries the estimate of its body", async () => {
    const { response, body } = await get("/businesses/index.md?q=plumb");
    assert.equal(response.status, 200);
    assert.ok(body.length > 0);
    assert.equal(response.headers.get("x-markdown-tokens"), tokensOf(body));
    const negotiated = await get("/businesses?q=handyman", MARKDOWN);
    assert.equal(negotiated.response.headers.get("x-markdown-tokens"), tokensOf(negotiated.body));
  });

  test("the Markdown 404 page and a Markdown list carry the estimate of their bodies", async () => {
    for (const [path, headers, status] of [
      ["/no-such-page", MARKDOWN, 404],
      ["/no-such-page/index.md", {}, 404],
      ["/businesses/countries/gb/index.md", {}, 200],
      ["/businesses/joes-handyman/index.md", {}, 200],
    ] as const) {
      const { response, body } = await get(path, headers);
      assert.equal(response.status, status, path);
      assert.equal(response.headers.get("x-markdown-tokens"), tokensOf(body), path);
    }
  });

  test("HTML, JSON and plain text answers carry no token estimate", async () => {
    for (const path of ["/", "/no-such-page", "/businesses?q=plumb", "/api/offerings", "/openapi.json", "/llms.txt", "/api/nothing"]) {
      const { response } = await get(path);
      assert.equal(response.headers.get("x-markdown-tokens"), null, path);
    }
  });

  test("a web app on another origin may read the estimate and the content signal", async () => {
    const { response } = await get("/index.md", { origin: "https://app.example" });
    assert.equal(
      response.headers.get("access-control-expose-headers"),
      "ETag, Link, Retry-After, RateLimit, RateLimit-Policy, Content-Signal, x-markdown-tokens",
    );
  });
});

describe("Content-Signal", () => {
  test("HTML and Markdown pages, the 404 pages and the directory's search pages carry site.md's default", async () => {
    for (const [path, headers] of [
      ["/", {}],
      ["/", MARKDOWN],
      ["/offerings/cost-guides/index.md", {}],
      ["/businesses/joes-handyman", {}],
      ["/businesses?q=plumb", {}],
      ["/businesses/index.md?q=plumb", {}],
      ["/businesses?country=GBR", {}],
      ["/no-such-page", {}],
      ["/no-such-page", MARKDOWN],
      ["/businesses/countries/gb/index.md", {}],
    ] as const) {
      const { response } = await get(path, headers);
      assert.equal(response.headers.get("content-signal"), DEFAULT_SIGNAL, `${path} ${JSON.stringify(headers)}`);
    }
  });

  test("JSON and plain text answers carry none", async () => {
    for (const path of ["/api/offerings", "/openapi.json", "/llms.txt", "/api/nothing", "/.well-known/api-catalog"]) {
      const { response } = await get(path);
      assert.equal(response.headers.get("content-signal"), null, path);
    }
  });

  describe("set in site.md (whose homepage text has four emoji)", () => {
    let server: RunningServer;
    let remove: () => Promise<void>;
    before(async () => {
      const work = await tempDir();
      remove = work.remove;
      const content = join(work.path, "content");
      await cp(`${FIXTURES}basic`, content, { recursive: true });
      const site = await readFile(join(content, "site.md"), "utf8");
      await writeFile(
        join(content, "site.md"),
        site.replace("---\nThe fixture homepage.", `contentSignal:\n  ai-train: yes\n  search: no\n---\nThe fixture homepage. ${TOOLS}`),
      );
      await buildSnapshot(content, join(work.path, "dist"));
      server = await startServer(join(work.path, "dist"));
    });
    after(async () => {
      await server?.close();
      await remove();
    });

    test("changes the header of every page and the line in robots.txt, in the proposal's order, leaving out a use it does not name", async () => {
      for (const [path, headers] of [
        ["/", {}],
        ["/index.md", {}],
        ["/no-such-page", MARKDOWN],
        ["/businesses/index.md?q=plumb", {}],
      ] as const) {
        const { response } = await get(path, headers, server);
        assert.equal(response.headers.get("content-signal"), "search=no, ai-train=yes", path);
      }
      const { body } = await get("/robots.txt", {}, server);
      assert.ok(body.includes("User-agent: *\nContent-Signal: search=no, ai-train=yes\nAllow: /\n"), body);
    });

    test("a character written in two UTF-16 units (an emoji) counts once in the token estimate", async () => {
      const { response, body } = await get("/index.md", {}, server);
      assert.ok(body.includes(TOOLS));
      assert.equal(response.headers.get("x-markdown-tokens"), tokensOf(body));
      assert.notEqual(tokensOf(body), String(Math.ceil(body.length / 4)));
    });
  });

  test("a value other than yes or no, or an unknown use, is a build error at its place in site.md", async () => {
    const work = await tempDir();
    const content = join(work.path, "content");
    await cp(`${FIXTURES}basic`, content, { recursive: true });
    const site = await readFile(join(content, "site.md"), "utf8");
    await writeFile(
      join(content, "site.md"),
      site.replace("---\nThe fixture", "contentSignal:\n  ai-train: maybe\n  ai_input: yes\n---\nThe fixture"),
    );
    const result = await buildCli([], content, join(work.path, "dist"));
    assert.equal(result.code, 1);
    assert.deepEqual(result.stderr.trimEnd().split("\n"), [
      `${content}/site.md:9:13: contentSignal.ai-train: must be one of yes, no`,
      `${content}/site.md:10:3: contentSignal.ai_input: is not a known key; did you mean "ai-input"?`,
      `${content}: 2 content errors; nothing was written.`,
    ]);
    await work.remove();
  });
});
