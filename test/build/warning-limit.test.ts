import assert from "node:assert/strict";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { warningLines } from "../../build/report.ts";
import type { ContentWarning } from "../../build/warnings.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { tempDir } from "../helpers/snapshot.ts";

/**
 * A directory that warns about many files: test/fixtures/basic and 60 approved listings with one
 * name in one town (59 "same name" warnings), the last 3 of them with an http: quoteUrl.
 */

const SAME_NAMES = 60;
const HTTP_FROM = 58;

const two = (n: number) => String(n).padStart(2, "0");

function sameNameListing(n: number): string {
  return `---
id: 00000000-0000-4000-8000-0000000000${two(n)}
name: "Same Name Plumbing"
service: Plumbing
category: Repairs & maintenance
location:
  city: Leeds
  region: West Yorkshire
  postalCode: "LS1 1AA"
  country: GB
quoteUrl: ${n >= HTTP_FROM ? "http" : "https"}://same-name.example/quote/${n}
status: approved
---
Plumbing in Leeds.
`;
}

let work: { path: string; remove: () => Promise<void> };
let content: string;
before(async () => {
  work = await tempDir("warning-limit-");
  content = join(work.path, "content");
  await cp("test/fixtures/basic", content, { recursive: true });
  for (let n = 1; n <= SAME_NAMES; n += 1) {
    await writeFile(join(content, "businesses", "gb", `same-name-${two(n)}.md`), sameNameListing(n));
  }
});
after(async () => {
  await work.remove();
});

const sameName = (n: number) =>
  `${content}/businesses/gb/same-name-${two(n)}.md:3:7: warning: name: "Same Name Plumbing" in Leeds is also the name of businesses/gb/same-name-01.md: people cannot tell the two apart (merge them, or make the names differ)`;
const http = (n: number) =>
  `${content}/businesses/gb/same-name-${two(n)}.md:11:11: warning: quoteUrl: uses http:, which browsers flag as not secure; use https: if the business's site has it`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const summary = () => `${content}: valid: 3 offerings, 69 approved listings (left out: 1 pending, 1 rejected, 1 suspended); 62 warnings.`;

describe("a directory with many warnings of one kind", () => {
  test("check prints the first 20 of that kind in file order, every one of a kind under the limit, how many more there are, and the summary; exit 0", async () => {
    const result = await buildCli(["--check"], content, join(work.path, "check-dist"));

    assert.equal(result.code, 0);
    assert.deepEqual(result.stderr.trimEnd().split("\n"), [
      ...range(2, 21).map(sameName),
      ...range(HTTP_FROM, SAME_NAMES).map(http),
      'warning: 39 more "same name in the same town" warnings (npm run check -- --all-warnings lists them all)',
    ]);
    assert.equal(result.stdout, `${summary()}\n`);
  });

  test("build prints the same lines as check and writes the snapshot; exit 0", async () => {
    const check = await buildCli(["--check"], content, join(work.path, "check-dist"));
    const build = await buildCli([], content, join(work.path, "dist"));

    assert.equal(build.code, 0);
    assert.equal(build.stderr, check.stderr);
    assert.match(
      build.stdout,
      /^\/.* holds no snapshot and PREVIOUS_SNAPSHOT is not set: the release history starts anew with this build\.\nBuilt .*: 3 offerings, 69 approved listings .*, the first release of its history; \d+ ms; 62 warnings\.\n$/,
    );
  });

  test("--all-warnings prints every warning in file order and no count line", async () => {
    const result = await buildCli(["--check", "--all-warnings"], content, join(work.path, "all-dist"));

    assert.equal(result.code, 0);
    assert.deepEqual(result.stderr.trimEnd().split("\n"), [
      ...range(2, HTTP_FROM - 1).map(sameName),
      ...range(HTTP_FROM, SAME_NAMES).flatMap((n) => [sameName(n), http(n)]),
    ]);
    assert.equal(result.stdout, `${summary()}\n`);
  });

  test("--format github annotates the same 23 warnings and counts the rest in a notice", async () => {
    const result = await buildCli(["--check", "--format", "github"], content, join(work.path, "gh-dist"));

    assert.equal(result.code, 0);
    const at = (n: number, line: number, col: number, title: string) =>
      `::warning file=${content}/businesses/gb/same-name-${two(n)}.md,line=${line},col=${col},title=${title}::`;
    assert.deepEqual(result.stdout.trimEnd().split("\n"), [
      ...range(2, 21).map(
        (n) =>
          `${at(n, 3, 7, "name")}"Same Name Plumbing" in Leeds is also the name of businesses/gb/same-name-01.md: people cannot tell the two apart (merge them, or make the names differ)`,
      ),
      ...range(HTTP_FROM, SAME_NAMES).map(
        (n) => `${at(n, 11, 11, "quoteUrl")}uses http:, which browsers flag as not secure; use https: if the business's site has it`,
      ),
      '::notice::39 more "same name in the same town" warnings (npm run check -- --all-warnings lists them all)',
      summary(),
    ]);
    assert.equal(result.stderr, "");
  });

  test("errors are never cut: 30 invalid listings give 30 error lines before the cut warnings; exit 1", async () => {
    const invalid = join(work.path, "invalid");
    await cp(content, invalid, { recursive: true });
    await mkdir(join(invalid, "businesses", "bad"));
    for (let n = 1; n <= 30; n += 1) {
      const text = sameNameListing(n).replace(/^id: .*$/m, `id: 00000000-0000-4000-8000-0000000001${two(n)}`);
      await writeFile(join(invalid, "businesses", "bad", `bad-status-${two(n)}.md`), text.replace("status: approved", "status: published"));
    }

    const result = await buildCli(["--check"], invalid, join(work.path, "invalid-dist"));

    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    const inInvalid = (line: string) => line.replace(content, invalid);
    assert.deepEqual(result.stderr.trimEnd().split("\n"), [
      ...range(1, 30).map(
        (n) => `${invalid}/businesses/bad/bad-status-${two(n)}.md:12:9: status: must be one of approved, pending, rejected, suspended`,
      ),
      ...range(2, 21).map(sameName).map(inInvalid),
      ...range(HTTP_FROM, SAME_NAMES).map(http).map(inInvalid),
      'warning: 39 more "same name in the same town" warnings (npm run check -- --all-warnings lists them all)',
      `${invalid}: 30 content errors and 62 warnings; nothing was written.`,
    ]);
  });
});

test("the first warnings of a kind are the first in file order, by line within a file, whatever order they were found in", async () => {
  const placeholder = (field: string, at: ContentWarning["at"]): ContentWarning => ({
    kind: "placeholder",
    file: "businesses/gb/same-name-07.md",
    field,
    message: "still holds the placeholder TODO",
    at,
  });
  const found = [
    placeholder("(body)", { body: 0 }),
    placeholder("location.region", { value: ["location", "region"] }),
    placeholder("name", { value: ["name"] }),
  ];

  assert.deepEqual(warningLines(content, found, "text", 2), [
    `${content}/businesses/gb/same-name-07.md:3:7: warning: name: still holds the placeholder TODO`,
    `${content}/businesses/gb/same-name-07.md:8:11: warning: location.region: still holds the placeholder TODO`,
    'warning: 1 more "placeholder TODO" warning (npm run check -- --all-warnings lists them all)',
  ]);
});
