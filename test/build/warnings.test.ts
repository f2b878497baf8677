import assert from "node:assert/strict";
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { readContent } from "../../build/content.ts";
import { deriveModel } from "../../build/derive.ts";
import { validateContent } from "../../build/validate.ts";
import { linkWarnings, placeholderWarnings } from "../../build/warnings.ts";
import { buildCli, type CliResult } from "../helpers/build-cli.ts";
import { tempDir } from "../helpers/snapshot.ts";

/**
 * Warnings: valid content that is almost certainly a mistake. test/fixtures/warnings holds one or
 * more of each kind; they are printed at their `path:line:col`, counted, and never change the exit code.
 */

const FIXTURE = "test/fixtures/warnings";

let work: { path: string; remove: () => Promise<void> };
let check: CliResult;
let build: CliResult;
before(async () => {
  work = await tempDir("warnings-");
  check = await buildCli(["--check"], FIXTURE, join(work.path, "check-dist"));
  build = await buildCli([], FIXTURE, join(work.path, "dist"));
});
after(async () => {
  await work.remove();
});

/** The warning lines `npm run check` printed about `file`, from the fixture's folder. */
function warningsOf(file: string): string[] {
  return check.stderr
    .split("\n")
    .filter((line) => line.startsWith(`${FIXTURE}/${file}:`))
    .map((line) => line.slice(FIXTURE.length + 1));
}

describe("warnings", () => {
  test("two approved listings with the same name in the same city (case and spacing aside): the second file is warned", () => {
    assert.deepEqual(warningsOf("businesses/leeds-plumbing-heating.md"), [
      'businesses/leeds-plumbing-heating.md:3:7: warning: name: "Leeds Plumbing & Heating" in Leeds is also the name of businesses/leeds-plumbing-heating-2.md: people cannot tell the two apart (merge them, or make the names differ)',
    ]);
    // The same name in another city, and a pending listing of the same name in the same city, are not warned.
    assert.deepEqual(warningsOf("businesses/leeds-plumbing-heating-bradford.md"), []);
    assert.deepEqual(warningsOf("businesses/pending-plumbing.md"), []);
  });

  test("an internal link in a guide, a feature or the homepage text that leads to no page of the site", () => {
    assert.deepEqual(warningsOf("offerings/request-quotes.md"), [
      "offerings/request-quotes.md:11:13: warning: features[0].link.href: links to /offerings/request-quote, which is not a page of this site",
      "offerings/request-quotes.md:29:10: warning: (body): links to /businesses/pending-plumbing, which is not a page of this site",
      "offerings/request-quotes.md:29:62: warning: (body): links to /offerings/costs, which is not a page of this site",
    ]);
    assert.deepEqual(warningsOf("site.md"), [
      "site.md:9:12: warning: (body): links to /businesses/leeds-plumbers-old, which is not a page of this site",
      "site.md:9:68: warning: (body): links to /faq, which is not a page of this site",
    ]);
  });

  test("a description holding raw HTML, which pages show as text, is warned at the tag; a lone < or > is not", () => {
    assert.deepEqual(warningsOf("businesses/tagged-plumbing.md"), [
      "businesses/tagged-plumbing.md:15:13: warning: (body): holds HTML (<b>), which pages show as text, not as markup; write plain text",
    ]);
  });

  test("a quoteUrl over http: is warned", () => {
    assert.deepEqual(warningsOf("businesses/plain-http-plumbing.md"), [
      "businesses/plain-http-plumbing.md:11:11: warning: quoteUrl: uses http:, which browsers flag as not secure; use https: if the business's site has it",
    ]);
  });

  test("warnings are counted, and check and build both still exit 0 and build writes the snapshot", () => {
    assert.equal(check.code, 0, check.stderr);
    assert.equal(check.stderr.trimEnd().split("\n").length, 8);
    assert.equal(check.stdout, `${FIXTURE}: valid: 1 offerings, 5 approved listings (left out: 1 pending); 8 warnings.\n`);
    assert.equal(build.code, 0, build.stderr);
    assert.equal(build.stderr, check.stderr);
    assert.match(
      build.stdout,
      /^\/.* holds no snapshot and PREVIOUS_SNAPSHOT is not set: the release history starts anew with this build\.\nBuilt .*, the first release of its history; \d+ ms; 8 warnings\.\n$/,
    );
  });

  test("--format github annotates each warning at its file, line and column", async () => {
    const result = await buildCli(["--check", "--format", "github"], FIXTURE, join(work.path, "gh-dist"));
    assert.equal(result.code, 0);
    const annotations = result.stdout.trimEnd().split("\n");
    assert.equal(annotations.length, 9);
    assert.equal(
      annotations[3],
      `::warning file=${FIXTURE}/offerings/request-quotes.md,line=11,col=13,title=features[0].link.href::links to /offerings/request-quote, which is not a page of this site`,
    );
    assert.equal(annotations[8], `${FIXTURE}: valid: 1 offerings, 5 approved listings (left out: 1 pending); 8 warnings.`);
  });

  test("with errors too, the warnings are listed after them and the exit code is the errors' 1", async () => {
    const dir = join(work.path, "errors-and-warnings");
    await cp(FIXTURE, dir, { recursive: true });
    await writeFile(join(dir, "offerings", "empty.md"), "---\nname: Empty\n---\n");
    const result = await buildCli(["--check"], dir, join(work.path, "ew-dist"));
    assert.equal(result.code, 1);
    const lines = result.stderr.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /offerings\/empty\.md:2:1: description: is required$/);
    assert.equal(
      lines.filter((line) => line.includes(": warning: ")).length,
      3,
      "the listings' warnings; links are checked once the content is valid",
    );
    // Seven keys missing, and the guide.
    assert.match(lines.at(-1) ?? "", /: 8 content errors and 3 warnings; nothing was written\.$/);
  });
});

test("the sample content has no warnings", async () => {
  const result = await buildCli(["--check"], "content", join(work.path, "sample-dist"));
  assert.equal(result.code, 0);
  assert.equal(result.stderr, "");
  assert.doesNotMatch(result.stdout, /warning/);
});

test("links are checked against the paths the server answers: no trailing slash, lists as pages and llms.txt indexes up to their last page, ids in any case, sitemap parts only past 50,000 URLs", async () => {
  const validation = validateContent(readContent("test/fixtures/basic"));
  assert.ok(validation.ok);
  const model = deriveModel(validation.content, "https://directory.example");
  const id = "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a07";
  const paths = [
    "/offerings/cost-guides/",
    "/businesses/",
    "/businesses/countries/gb",
    "/businesses/countries/gb/index.md",
    "/businesses/countries/gb/page-2/index.md",
    "/businesses/services/handyman/index.md",
    "/businesses/services/handyman/llms.txt",
    "/businesses/services/handyman/llms-2.txt",
    "/businesses/joes-handyman/index.html",
    "/businesses/joes-handyman/index.md",
    "/healthz/index.md",
    `/businesses/${id}`,
    `/api/directory/${id.toUpperCase()}`,
    "/index.md",
    "/contact/index.md",
    "/api/offerings/cost-guides",
    "/sitemap.xml",
    "/sitemaps/1.xml",
  ];
  const site = { ...validation.content.site, body: paths.map((path) => `- [${path}](${path})`).join("\n") };
  const lineOf = (at: unknown) => site.body.slice(0, (at as { body: number }).body).split("\n").length;
  const warned = linkWarnings(model, [], site).map(({ at, message }) => `${lineOf(at)}: ${message.split(",")[0]}`);
  assert.deepEqual(warned, [
    "1: links to /offerings/cost-guides/",
    "2: links to /businesses/",
    "5: links to /businesses/countries/gb/page-2/index.md",
    "8: links to /businesses/services/handyman/llms-2.txt",
    "9: links to /businesses/joes-handyman/index.html",
    "11: links to /healthz/index.md",
    "18: links to /sitemaps/1.xml",
  ]);
});

test("a TODO in a listing's private notes, or inside a word, is not a placeholder", async () => {
  const warnings = placeholderWarnings(
    "businesses/x.md",
    { name: "Todorov TODOS", private: { notes: "TODO call the owner" } },
    "Tout compris.",
  );
  assert.deepEqual(warnings, []);
  assert.deepEqual(
    placeholderWarnings("businesses/x.md", { location: { region: "TODO" } }, "Fitted kitchens.\nTODO: more").map(({ field, at }) => [
      field,
      at,
    ]),
    [
      ["location.region", { value: ["location", "region"] }],
      ["(body)", { body: 17 }],
    ],
  );
  assert.deepEqual(
    placeholderWarnings("offerings/x.md", { steps: [{ title: "Ask" }, { title: "TODO", items: ["a", "TODO"] }] }, "Done.").map(
      ({ field, at }) => [field, at],
    ),
    [
      ["steps[1].title", { value: ["steps", 1, "title"] }],
      ["steps[1].items[1]", { value: ["steps", 1, "items", 1] }],
    ],
  );
});
