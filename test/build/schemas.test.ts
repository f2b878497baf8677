import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { ValidateFunction } from "ajv";
import { readContent } from "../../build/content.ts";
import { editorSchemas, SCHEMAS_DIR } from "../../build/schemas.ts";
import { createAjv } from "../../src/schemas/ajv.ts";

/** The JSON Schemas in schemas/, for editors' tools: made from the build's own schema sources, and as strict as they can be. */

const ROOT = new URL("../../", import.meta.url).pathname;

/** A schema file compiled as another tool would: from the file, by a strict Ajv with the formats it names. */
async function compiled(file: string): Promise<ValidateFunction> {
  return createAjv({ allErrors: true }).compile(JSON.parse(await readFile(join(ROOT, SCHEMAS_DIR, file), "utf8")) as object);
}

test("schemas/ holds exactly the files npm run schemas makes from the schema sources (run it after changing them)", async () => {
  const made = editorSchemas();
  assert.deepEqual((await readdir(join(ROOT, SCHEMAS_DIR))).sort(), [...made.keys()].sort());
  for (const [file, text] of made) assert.equal(await readFile(join(ROOT, SCHEMAS_DIR, file), "utf8"), text, file);
});

test("the schemas accept every file of the sample content", async () => {
  const sample = readContent(join(ROOT, "content"));
  assert.deepEqual(sample.problems, []);
  const listing = await compiled("listing.schema.json");
  const offering = await compiled("offering.schema.json");
  const site = await compiled("site.schema.json");
  const services = await compiled("services.schema.json");
  const rejected = [
    ...sample.businesses.filter((source) => !listing(source.data)),
    ...sample.offerings.filter((source) => !offering(source.data)),
  ].map((source) => source.file);
  assert.deepEqual(rejected, []);
  assert.equal(sample.businesses.length, 335);
  assert.equal(sample.offerings.length, 12);
  assert.equal(site(sample.site?.data), true);
  assert.equal(services(sample.services?.data), true);
});

test("the listing schema rejects every invalid fixture whose fault is in its own front matter; the others only npm run check can see", async () => {
  const invalid = readContent(join(ROOT, "test/fixtures/invalid"));
  const listing = await compiled("listing.schema.json");
  const verdicts = Object.fromEntries(invalid.businesses.map((source) => [source.file, listing(source.data) ? "accepted" : "rejected"]));
  assert.deepEqual(verdicts, {
    "businesses/Bad_Slug.md": "accepted", // the file name
    "businesses/a/dup-slug.md": "accepted", // a slug two files share
    "businesses/b/dup-slug.md": "accepted",
    "businesses/bad-country.md": "rejected",
    "businesses/bad-status.md": "rejected",
    "businesses/bad-url.md": "rejected",
    "businesses/bad-uuid.md": "rejected",
    "businesses/dup-id.md": "accepted", // an id two files share
    "businesses/empty-body.md": "accepted", // the Markdown body
    "businesses/missing-field.md": "rejected",
    "businesses/numeric-postcode.md": "rejected",
    "businesses/too-long.md": "accepted", // the Markdown body
    "businesses/uk-country.md": "rejected",
    "businesses/unknown-country.md": "rejected",
    "businesses/unknown-key.md": "rejected",
    "businesses/valid-one.md": "accepted", // valid alone; its id is dup-id.md's
  });
  // Not YAML at all: no schema is asked.
  assert.deepEqual(
    invalid.problems.map((problem) => problem.file),
    ["businesses/broken-yaml.md"],
  );
});

test("the services schema rejects unknown keys, bad aliases, a missing name and a file that is not a list", async () => {
  const services = await compiled("services.schema.json");
  assert.equal(services([{ name: "Plumbing", aliases: ["plumber"], category: "Repairs", description: "Pipes." }]), true);
  for (const bad of [
    [{ name: "Plumbing", synonyms: ["plumber"] }],
    [{ name: "Plumbing", aliases: ["plumbing & heating"] }],
    [{ name: "Plumbing", aliases: ["x".repeat(61)] }],
    [{ aliases: ["plumber"] }],
    { plumbing: ["plumber"] },
  ]) {
    assert.equal(services(bad), false, JSON.stringify(bad));
  }
});

test("the content guide (content/README.md) names every key of every file type", async () => {
  const guide = await readFile(join(ROOT, "content/README.md"), "utf8");
  const missing: string[] = [];
  const visit = (schema: unknown, path: string) => {
    const { properties, items } = schema as { properties?: Record<string, unknown>; items?: unknown };
    if (items !== undefined) visit(items, `${path}[]`);
    for (const [key, property] of Object.entries(properties ?? {})) {
      // As `key` or as the end of a dotted path such as `location.country`.
      if (!new RegExp(`\`([\\w.]+\\.)?${key}\``).test(guide)) missing.push(`${path}${key}`);
      visit(property, `${path}${key}.`);
    }
  };
  for (const [file, text] of editorSchemas()) visit(JSON.parse(text), `${file}: `);
  assert.deepEqual(missing, []);
});
