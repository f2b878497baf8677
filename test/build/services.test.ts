import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { directoryPage, pageSearch } from "../../src/core/answers.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
import { buildCli } from "../helpers/build-cli.ts";
import { FIXTURES, tempDir } from "../helpers/snapshot.ts";
import { checkEdited } from "./edited-check.ts";

/** content/services.yml, the service vocabulary (interface §2), through the build CLI. */

let work: { path: string; remove: () => Promise<void> };
before(async () => {
  work = await tempDir("services-");
});
after(async () => {
  await work.remove();
});

/** The basic fixture with `services` as its services.yml and `edit` applied; its folder. */
async function content(name: string, services: string, edit: (dir: string) => Promise<void> = async () => {}): Promise<string> {
  const dir = join(work.path, name);
  await cp(`${FIXTURES}basic`, dir, { recursive: true });
  await writeFile(join(dir, "services.yml"), services);
  await edit(dir);
  return dir;
}

/** `npm run build` (or with `--check`, `npm run check`) of `contentDir` into a dist folder beside it. */
function build(contentDir: string, args: string[] = []) {
  return buildCli(args, contentDir, `${contentDir}-dist`);
}

/** The error lines of a failed build, each file's path from `dir` (the lines name it from the working folder or in full). */
function errorLines(result: { stderr: string }, dir: string): string[] {
  return result.stderr
    .trimEnd()
    .split("\n")
    .slice(0, -1)
    .map((line) => line.replace(`${dir}/`, ""));
}

/** `npm run check` of the basic fixture with `services` as its services.yml and each file in `edits` edited: its lines (see checkEdited). */
function errorsWith(name: string, services: string, edits: Record<string, (text: string) => string>): Promise<string[]> {
  return checkEdited(join(work.path, name), { ...edits, "services.yml": () => services });
}

const LEEDS = "businesses/gb/leeds-plumbing-heating.md";
const OBRIEN = "businesses/ie/obrien-sons-plumbing.md";
const PENDING = "businesses/gb/quillfeather-pending-plumbing.md";

/** A vocabulary for every service of the basic fixture, with the categories its listings use. */
const VALID = `
- name: Plumbing
  category: Repairs & maintenance
  description: Leaks, pipes and taps.
  aliases: [plumber, plumbers, burst pipe]
- name: Electrical
  aliases: [electrician, sparky]
- name: Handyman
  aliases: [odd jobs]
- name: Landscaping
  aliases: [gardener, "lawn care"]
- name: Locksmith
- name: Painting & Decorating
  aliases: [painter, decorator]
- name: Roofing
  aliases: [roofer, "roofer's mate"]
`;

test("a listing whose service is not in services.yml fails the build, naming the file, the field and the closest name", async () => {
  const dir = await content("typo", VALID, async (root) => {
    const file = join(root, "businesses/gb/leeds-plumbing-heating.md");
    await writeFile(file, (await readFile(file, "utf8")).replace("service: Plumbing", "service: Plumbng"));
    const other = join(root, "businesses/gb/joes-handyman.md");
    await writeFile(other, (await readFile(other, "utf8")).replace("service: Handyman", "service: Blacksmithing"));
  });
  const result = await build(dir, ["--check"]);
  assert.equal(result.code, 1);
  assert.deepEqual(errorLines(result, dir), [
    'businesses/gb/joes-handyman.md:4:10: service: "Blacksmithing" is not a service in services.yml; add it there or use one of its names',
    'businesses/gb/leeds-plumbing-heating.md:4:10: service: "Plumbng" is not a service in services.yml; did you mean "Plumbing"?',
  ]);
  assert.match(result.stderr, /\n.*typo: 2 content errors; nothing was written\.\n$/);
});

test("reports the service and the country of one file in one run", async () => {
  const errors = await errorsWith("service-and-country", VALID, {
    [LEEDS]: (text) => text.replace("service: Plumbing", "service: Plumber").replace("country: GB", "country: UK"),
  });
  assert.deepEqual(errors, [
    `${LEEDS}:4:10: service: "Plumber" is not a service in services.yml; it is an alias of "Plumbing": use that name`,
    `${LEEDS}:10:12: location.country: must be a two-letter upper-case ISO 3166-1 code such as GB; UK is not one: United Kingdom's is GB`,
    `${work.path}/service-and-country: 2 content errors; nothing was written.`,
  ]);
});

test("a service written as an alias, in any case or accents, names the service to use instead", async () => {
  const errors = await errorsWith("alias", VALID, { [OBRIEN]: (text) => text.replace("service: Plumbing", "service: Burst Pípe") });
  assert.deepEqual(errors, [
    `${OBRIEN}:4:10: service: "Burst Pípe" is not a service in services.yml; it is an alias of "Plumbing": use that name`,
    `${work.path}/alias: 1 content error; nothing was written.`,
  ]);
});

test("the category a service must have is checked in a listing that fails its schema, unless the category itself is wrong", async () => {
  const errors = await errorsWith(
    "category-and-status",
    VALID.replace("category: Repairs & maintenance", "category: Building & renovation"),
    {
      [LEEDS]: (text) => text.replace("status: approved", "status: live"),
      [OBRIEN]: (text) => text.replace(/^category: .*$/m, "category: [Repairs]"),
      [PENDING]: (text) => text.replace(/^category: .*\n/m, ""),
    },
  );
  assert.deepEqual(errors, [
    `${LEEDS}:5:11: category: must be "Building & renovation" for Plumbing (services.yml)`,
    `${LEEDS}:12:9: status: must be one of approved, pending, rejected, suspended`,
    `${PENDING}:2:1: category: is required`,
    `${OBRIEN}:5:11: category: must be a string`,
    `${work.path}/category-and-status: 4 content errors; nothing was written.`,
  ]);
});

test("services.yml itself is checked: unknown keys, aliases, duplicate names and categories its listings must have", async () => {
  const services = `
- name: Plumbing
  category: Building & renovation
  aliases: [plumber, "plumbing & heating", "${"x".repeat(61)}"]
- name: Electrical
  synonyms: [electrician]
- name: Handyman
- name: Landscaping
- name: Locksmith
- name: Painting & Decorating
- name: Roofing
- name: Roofing
- {}
`;
  const badDir = await content("bad-vocabulary", services);
  const result = await build(badDir, ["--check"]);
  assert.equal(result.code, 1);
  assert.deepEqual(errorLines(result, badDir), [
    "services.yml:4:22: [0].aliases[1]: must be letters, digits, spaces, apostrophes and hyphens",
    "services.yml:4:44: [0].aliases[2]: must NOT have more than 60 characters",
    "services.yml:6:3: [1].synonyms: is not a known key (check its spelling)",
    'services.yml:12:9: [7].name: "Roofing" is already listed at [6]',
    "services.yml:13:3: [8].name: is required",
  ]);
  // A valid vocabulary whose Plumbing is in another category than its listings, and Roofing twice.
  const recategorised = `${VALID.replace("category: Repairs & maintenance", "category: Building & renovation")}- name: Roofing\n`;
  const categoriesDir = await content("categories", recategorised);
  const categories = await build(categoriesDir, ["--check"]);
  assert.equal(categories.code, 1);
  assert.deepEqual(errorLines(categories, categoriesDir), [
    'businesses/gb/leeds-plumbing-heating.md:5:11: category: must be "Building & renovation" for Plumbing (services.yml)',
    'businesses/gb/quillfeather-pending-plumbing.md:5:11: category: must be "Building & renovation" for Plumbing (services.yml)',
    'businesses/ie/obrien-sons-plumbing.md:5:11: category: must be "Building & renovation" for Plumbing (services.yml)',
    'services.yml:17:9: [7].name: "Roofing" is already listed at [6]',
  ]);
});

test("listings are checked against a services.yml that has errors, as long as each of its services has a name", async () => {
  const typo = { [LEEDS]: (text: string) => text.replace("service: Plumbing", "service: Plumbng") };
  const withErrors = VALID.replace("aliases: [odd jobs]", "aliases: [odd jobs, 'odd & ends']").replace(
    "- name: Locksmith",
    "- name: Locksmith\n  synonyms: [keys]",
  );
  assert.deepEqual(await errorsWith("bad-vocabulary-listings", withErrors, typo), [
    `${LEEDS}:4:10: service: "Plumbng" is not a service in services.yml; did you mean "Plumbing"?`,
    "services.yml:9:23: [2].aliases[1]: must be letters, digits, spaces, apostrophes and hyphens",
    "services.yml:13:3: [4].synonyms: is not a known key (check its spelling)",
    `${work.path}/bad-vocabulary-listings: 3 content errors; nothing was written.`,
  ]);
  // Without a name, an entry leaves the vocabulary unreadable: its listings wait for the fix.
  assert.deepEqual(await errorsWith("unnamed-vocabulary", `${VALID}- aliases: [plasterer]\n`, typo), [
    "services.yml:17:3: [7].name: is required",
    `${work.path}/unnamed-vocabulary: 1 content error; nothing was written.`,
  ]);
});

test("a services.yml that is not a YAML list of services is named as such", async () => {
  for (const [text, message] of [
    ["plumbing: [plumber]\n", "services.yml:1:1: (file): must be a YAML list of services, each with a name"],
    [
      "- name: [Plumbing\n",
      "services.yml:2:1: (file): is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ],
  ] as const) {
    const dir = await content(`shape-${text.length}`, text);
    const result = await build(dir, ["--check"]);
    assert.equal(result.code, 1);
    assert.deepEqual(errorLines(result, dir), [message]);
  }
});

test("a service's aliases are searched as its words: plumber finds every plumbing listing, roofer's finds the roofer", async () => {
  const dir = await content("valid", VALID);
  const result = await build(dir);
  assert.equal(result.code, 0, result.stderr);
  const snapshot = await loadSnapshot(join(work.path, "valid-dist"));
  const view = new SnapshotView(snapshot);
  const slugs = (q: string) =>
    (directoryPage(view, pageSearch({ q, limit: 25 })).value as { items: { slug: string }[] }).items.map((item) => item.slug);
  assert.deepEqual(slugs("plumber"), ["leeds-plumbing-heating", "obrien-sons-plumbing"]);
  assert.deepEqual(slugs("burst"), ["leeds-plumbing-heating", "obrien-sons-plumbing"]);
  assert.deepEqual(slugs("gardener"), ["evergreen-gardens-cork", "evergreen-gardens-york"]);
  assert.deepEqual(slugs("lawn care"), ["evergreen-gardens-cork", "evergreen-gardens-york"]);
  assert.deepEqual(slugs("sparky"), ["apex-electrical"]);
  assert.deepEqual(slugs("roofer's"), ["bohm-sohne-dachdecker"]);
  // Terms still match names and services as before, and an alias of one service does not widen another's search.
  assert.deepEqual(slugs("plumber leeds"), ["leeds-plumbing-heating"]);
  assert.deepEqual(slugs("plumber gardener"), []);
});
