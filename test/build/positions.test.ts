import assert from "node:assert/strict";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { readContent } from "../../build/content.ts";
import { withPositions } from "../../build/positions.ts";
import { validateContent } from "../../build/validate.ts";
import { FIXTURES, tempDir } from "../helpers/snapshot.ts";

/** Where content errors point: `file:line:col` of the key or value at fault, however the file is written. */

let work: { path: string; remove: () => Promise<void> };
before(async () => {
  work = await tempDir("positions-");
});
after(async () => {
  await work.remove();
});

const LISTING = "businesses/gb/leeds-plumbing-heating.md";
const OFFERING = "offerings/request-quotes.md";

/** The basic fixture with `file` rewritten by `edit`; every error as `file:line:col: field`. */
async function errorsAfter(name: string, file: string, edit: (text: string) => string): Promise<string[]> {
  const dir = join(work.path, name);
  await cp(`${FIXTURES}basic`, dir, { recursive: true });
  await writeFile(join(dir, file), edit(await readFile(join(dir, file), "utf8")));
  const validation = validateContent(readContent(dir));
  assert.equal(validation.ok, false, "the edit makes the content invalid");
  const problems = validation.ok ? [] : withPositions(dir, validation.problems);
  return problems.map(({ file: where, line, column, field }) => `${where}:${line}:${column}: ${field}`);
}

test("a key missing from a nested mapping points at that mapping's key", async () => {
  assert.deepEqual(await errorsAfter("nested-missing", LISTING, (text) => text.replace("  city: Leeds\n", "")), [
    `${LISTING}:6:1: location.city`,
  ]);
});

test("a bad value inside a list of mappings points at that value", async () => {
  assert.deepEqual(
    await errorsAfter("list-value", OFFERING, (text) => text.replace("text: Describe the job once, with photos.", "text: 42")),
    [`${OFFERING}:11:11: features[0].text`],
  );
});

test("positions count lines the same in files with Windows line endings and a byte-order mark", async () => {
  const edit = (text: string) => `\uFEFF${text.replace("status: approved", "status: live").replace(/\n/g, "\r\n")}`;
  assert.deepEqual(await errorsAfter("crlf-bom", LISTING, edit), [`${LISTING}:12:9: status`]);
});

test("broken YAML points at the first line at fault: a repeated key, a tab, a value run on by a bad indent", async () => {
  assert.deepEqual(
    await errorsAfter("repeated-key", LISTING, (text) => text.replace("service: Plumbing\n", "service: Plumbing\nservice: Heating\n")),
    [`${LISTING}:5:1: (front matter)`],
  );
  assert.deepEqual(await errorsAfter("tab", LISTING, (text) => text.replace("  region: West Yorkshire", "\tregion: West Yorkshire")), [
    `${LISTING}:8:1: (front matter)`,
  ]);
  assert.deepEqual(
    await errorsAfter("indent", LISTING, (text) => text.replace("  region: West Yorkshire", "     region: West Yorkshire")),
    // `city: Leeds` runs on into the over-indented next line.
    [`${LISTING}:7:9: (front matter)`],
  );
});

test("a description that is too long points where it goes over, however many blank lines come before it", async () => {
  assert.deepEqual(
    await errorsAfter("body", LISTING, (text) => text.replace("---\nDescription of", `---\n\n\n${"x".repeat(3000)} Description of`)),
    [`${LISTING}:19:3001: (body)`],
  );
});

test("an empty front matter points at the file's first line for each missing key", async () => {
  const errors = await errorsAfter("empty", LISTING, (text) => `---\n---\n${text.split("---\n")[2] ?? ""}`);
  assert.deepEqual(new Set(errors.map((error) => error.split(": ")[0])), new Set([`${LISTING}:1:1`]));
  assert.equal(errors.length, 7);
});

test("a listing's name or town on two lines, or blank, is refused at its value", async () => {
  const dir = join(work.path, "one-line");
  await cp(`${FIXTURES}basic`, dir, { recursive: true });
  const file = join(dir, LISTING);
  const text = (await readFile(file, "utf8"))
    .replace('name: "Leeds Plumbing & Heating"', "name: |\n  Leeds Plumbing\n  & Heating")
    .replace("  city: Leeds", '  city: " "');
  await writeFile(file, text);
  const validation = validateContent(readContent(dir));
  const problems = validation.ok ? [] : withPositions(dir, validation.problems);
  assert.deepEqual(
    problems.map(({ line, column, field, message }) => `${line}:${column}: ${field}: ${message}`),
    ["3:7: name: must be one line of text", "9:9: location.city: must not be blank"],
  );
});
