import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { buildCli, type CliResult } from "../helpers/build-cli.ts";
import { FIXTURES, tempDir } from "../helpers/snapshot.ts";
import { BASIC_SERVICES } from "./edited-check.ts";

/** `npm run new`: a new listing or offering file, valid, pending, with a fresh id and a slug of its own. */

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
const UUID = /^id: ([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/m;

let work: { path: string; remove: () => Promise<void> };
before(async () => {
  work = await tempDir("new-");
});
after(async () => {
  await work.remove();
});

/** Runs `npm run new -- <args>` as npm does, on the content folder `contentDir`. */
async function scaffold(contentDir: string, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "build/new.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, CONTENT_DIR: contentDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CliResult;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A copy of the basic fixture with a vocabulary that gives Plumbing its category and the alias "plumber". */
async function content(name: string): Promise<string> {
  const dir = join(work.path, name);
  await cp(`${FIXTURES}basic`, dir, { recursive: true });
  const services = BASIC_SERVICES.map(
    (service) => `- name: ${service}${service === "Plumbing" ? "\n  category: Repairs & maintenance\n  aliases: [plumber]" : ""}`,
  ).join("\n");
  await writeFile(join(dir, "services.yml"), `${services}\n`);
  return dir;
}

async function files(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}

const LISTING = ["listing", "Ôak & Ash Plumbing", "--service", "plumber", "--city", "Leeds", "--country", "gb"];

test("a new listing is written at businesses/<country>/<name-city>.md, pending, with every required key, and npm run check accepts it", async () => {
  const dir = await content("listing");
  const result = await scaffold(dir, LISTING);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${dir}/businesses/gb/oak-ash-plumbing-leeds.md\n`);
  assert.equal(
    result.stderr,
    "Fill in location.region, location.postalCode, quoteUrl, the description; npm run check warns until no TODO is left. It stays unpublished until its status is approved.\n",
  );
  const text = await readFile(join(dir, "businesses/gb/oak-ash-plumbing-leeds.md"), "utf8");
  const id = UUID.exec(text)?.[1] ?? "";
  assert.equal(
    text,
    `---
id: ${id}
name: Ôak & Ash Plumbing
service: Plumbing
category: Repairs & maintenance
location:
  city: Leeds
  region: TODO
  postalCode: TODO
  country: GB
quoteUrl: https://example.com/TODO
status: pending
---
TODO: describe the business in plain text: what it does, where, and for how long (at most 3,000 characters).
`,
  );
  const check = await buildCli(["--check"], dir, join(work.path, "listing-dist"));
  assert.equal(check.code, 0, check.stderr);
  assert.match(check.stdout, /: valid: 3 offerings, 9 approved listings \(left out: 2 pending, 1 rejected, 1 suspended\); 4 warnings\.\n$/);
  assert.equal(check.stderr.split("\n").filter((line) => line.includes("still holds the placeholder TODO")).length, 4);
});

test("the same listing twice gets two distinct slugs and two distinct UUIDs", async () => {
  const dir = await content("twice");
  const full = [...LISTING, "--region", "West Yorkshire", "--postcode", "LS1 4DT", "--quote-url", "https://oak-ash.example/quote"];
  const first = await scaffold(dir, full);
  const second = await scaffold(dir, full);
  assert.deepEqual(
    [first.code, first.stdout, second.code, second.stdout],
    [0, `${dir}/businesses/gb/oak-ash-plumbing-leeds.md\n`, 0, `${dir}/businesses/gb/oak-ash-plumbing-leeds-2.md\n`],
  );
  const ids = await Promise.all(
    ["oak-ash-plumbing-leeds", "oak-ash-plumbing-leeds-2"].map(
      async (slug) => UUID.exec(await readFile(join(dir, `businesses/gb/${slug}.md`), "utf8"))?.[1],
    ),
  );
  assert.equal(new Set(ids).size, 2);
  const check = await buildCli(["--check"], dir, join(work.path, "twice-dist"));
  assert.equal(check.code, 0, check.stderr);
  // Given every value, only the description is left to write.
  assert.equal(check.stderr.split("\n").filter((line) => line.includes("still holds the placeholder TODO")).length, 2);
});

test("a bad --country, an unknown --service, a --slug another file has or a name on two lines is an error that writes nothing", async () => {
  const dir = await content("bad");
  const before = await files(dir);
  const cases: [string[], string][] = [
    [
      ["listing", "Oak Plumbing", "--service", "Plumbing", "--city", "Leeds", "--country", "Britain"],
      'npm run new: --country "Britain" must be a two-letter upper-case ISO 3166-1 code such as GB.\n',
    ],
    [
      ["listing", "Oak Plumbing", "--service", "Plumbing", "--city", "Leeds", "--country", "UK"],
      'npm run new: --country "UK" must be a two-letter upper-case ISO 3166-1 code such as GB; UK is not one: United Kingdom\'s is GB.\n',
    ],
    [
      ["listing", "Oak Plumbing", "--service", "Plumbng", "--city", "Leeds", "--country", "GB"],
      'npm run new: --service "Plumbng" is not a service in services.yml; did you mean "Plumbing"?\n',
    ],
    [
      ["listing", "Oak Plumbing", "--service", "Plumbing", "--city", "Leeds", "--country", "GB", "--slug", "joes-handyman"],
      'npm run new: --slug "joes-handyman" is already the slug of another listing; choose another.\n',
    ],
    [
      ["listing", "Oak\n---\nstatus: approved", "--service", "Plumbing", "--city", "Leeds", "--country", "GB"],
      "npm run new: the name must be one line of text, without line breaks or control characters.\n",
    ],
    [
      ["listing", "Oak Plumbing", "--service", "Plumbing", "--city", "Leeds", "--country", "GB", "--quote-url", "quotes.example"],
      "npm run new: quoteUrl: must be an absolute http: or https: URL\n",
    ],
  ];
  for (const [args, message] of cases) {
    const result = await scaffold(dir, args);
    assert.deepEqual([result.code, result.stdout, result.stderr], [1, "", message]);
  }
  assert.deepEqual(await files(dir), before);
});

test("a missing name or option is a usage error (exit 2) that shows the usage", async () => {
  const dir = await content("usage");
  for (const args of [
    [],
    ["listing"],
    ["shop", "Oak"],
    ["listing", "Oak", "--city", "Leeds", "--country", "GB"],
    ["offering", "Oak", "--colour", "red"],
  ]) {
    const result = await scaffold(dir, args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /Usage:\n {2}npm run new -- listing "Business name"/);
  }
});

test("an unknown option is named on one line with the option it most likely meant, then the usage (exit 2)", async () => {
  const dir = await content("unknown-option");
  const before = await files(dir);
  for (const [args, first] of [
    [
      ["listing", "Oak", "--servise", "Plumbing", "--city", "Leeds", "--country", "GB"],
      "npm run new: unknown option --servise; did you mean --service?",
    ],
    [
      ["listing", "Oak", "--service", "Plumbing", "--quote_url=https://oak.example"],
      "npm run new: unknown option --quote_url; did you mean --quote-url?",
    ],
    [["offering", "Oak", "--colour", "red"], "npm run new: unknown option --colour"],
  ] as const) {
    const result = await scaffold(dir, [...args]);
    assert.equal(result.code, 2, args.join(" "));
    const [line, ...usage] = result.stderr.split("\n");
    assert.equal(line, first);
    assert.match(usage.join("\n"), /^Usage:\n {2}npm run new -- listing "Business name"/);
  }
  assert.deepEqual(await files(dir), before);
});

test("a new offering is written at offerings/<name>.md with every required key, and npm run check accepts it", async () => {
  const dir = await content("offering");
  const result = await scaffold(dir, ["offering", "Price alerts"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, `${dir}/offerings/price-alerts.md\n`);
  const check = await buildCli(["--check"], dir, join(work.path, "offering-dist"));
  assert.equal(check.code, 0, check.stderr);
  assert.match(check.stdout, /: valid: 4 offerings, 9 approved listings .*; 10 warnings\.\n$/);
});

test("values YAML would read as a time, a number or a date are quoted, so the file reads back as written", async () => {
  const dir = await content("yaml-1-1");
  const offering = await scaffold(dir, ["offering", "12:30"]);
  const listing = await scaffold(dir, [
    ...["listing", "Acme", "--service", "Plumbing", "--city", "Leeds", "--country", "GB"],
    ...["--postcode", "2024-01-01", "--region", "1_000"],
  ]);
  assert.deepEqual([offering.code, listing.code], [0, 0]);
  const text = await readFile(join(dir, "businesses/gb/acme-leeds.md"), "utf8");
  assert.match(text, /\n {2}region: "1_000"\n {2}postalCode: "2024-01-01"\n/);
  assert.match(await readFile(join(dir, "offerings/12-30.md"), "utf8"), /^---\nname: "12:30"\n/);
  const check = await buildCli(["--check"], dir, join(work.path, "yaml-dist"));
  assert.equal(check.code, 0, check.stderr);
});

test("the city joins the slug unless the name holds it as a word; a folder without site.md is not taken for the content", async () => {
  const dir = await content("city-words");
  const bath = await scaffold(dir, ["listing", "Bathroom Fitters", "--service", "Plumbing", "--city", "Bath", "--country", "GB"]);
  const leeds = await scaffold(dir, ["listing", "Leeds Drains", "--service", "Plumbing", "--city", "Leeds", "--country", "GB"]);
  assert.deepEqual(
    [bath.stdout, leeds.stdout],
    [`${dir}/businesses/gb/bathroom-fitters-bath.md\n`, `${dir}/businesses/gb/leeds-drains.md\n`],
  );
  const elsewhere = join(work.path, "not-content");
  await mkdir(elsewhere);
  const result = await scaffold(elsewhere, ["offering", "Price alerts"]);
  assert.deepEqual(
    [result.code, result.stderr],
    [1, `npm run new: ${elsewhere} has no site.md: is it the content folder? (CONTENT_DIR chooses it.)\n`],
  );
  assert.deepEqual(await readdir(elsewhere), []);
  const missing = join(work.path, "no-such-folder");
  const none = await scaffold(missing, ["offering", "Price alerts"]);
  assert.deepEqual(
    [none.code, none.stderr],
    [1, `npm run new: config: CONTENT_DIR must name the folder of editors' files; ${missing} does not exist.\n`],
  );
  await assert.rejects(readdir(missing));
});
