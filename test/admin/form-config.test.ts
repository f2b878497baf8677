import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { type ContentProblem, readServices } from "../../build/content.ts";
import { type FormCollection, type FormConfig, formConfig, formConfigYaml } from "../../build/decap-config.ts";
import type { FormField } from "../../build/decap-fields.ts";
import { checkServices } from "../../build/validate.ts";
import { DESCRIPTION_MAX_LENGTH } from "../../src/contract.ts";
import { createAjv } from "../../src/schemas/ajv.ts";
import {
  BusinessFrontMatterSchema,
  OfferingFrontMatterSchema,
  type ServiceEntry,
  SiteFrontMatterSchema,
} from "../../src/schemas/content.ts";

/**
 * The editors' form (config.yml) is made from the content schemas: every field of each, required
 * where the schema requires it, its patterns and limits testing text as the schema does, and the
 * service a choice among services.yml's names.
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/** The sample content's services.yml, as the build reads it. */
function sampleServices(): ServiceEntry[] {
  const problems: ContentProblem[] = [];
  const source = readServices(join(ROOT, "content"), problems);
  const services = source === null ? null : checkServices(source, problems);
  assert.deepEqual(problems, []);
  assert.ok(services !== null);
  return services;
}

const OPTIONS = { contentFolder: "content", backendUrl: "http://127.0.0.1:8081/api/v1", siteUrl: "http://localhost:3000" };
const config = (services: readonly ServiceEntry[] | null): FormConfig => formConfig({ ...OPTIONS, services });

interface SchemaNode {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
}

/**
 * Each field of a front matter's schema, by path (`location.city`, `features[].link.href`,
 * `steps[]`), and whether the file must have it: required by its mapping, and every mapping above
 * it required too (a list's items count as required within the list).
 */
function schemaFields(schema: SchemaNode, prefix = "", required = true, found = new Map<string, boolean>()): Map<string, boolean> {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const own = required && (schema.required ?? []).includes(name);
    found.set(path, own);
    if (property.type === "object") schemaFields(property, `${path}.`, own, found);
    if (property.type === "array" && property.items?.type === "object") schemaFields(property.items, `${path}[].`, true, found);
    if (property.type === "array" && property.items !== undefined && property.items.type !== "object") found.set(`${path}[]`, true);
  }
  return found;
}

/** The same of the form's fields, the body aside. */
function formFieldsByPath(fields: readonly FormField[], prefix = "", found = new Map<string, boolean>()): Map<string, boolean> {
  for (const field of fields) {
    if (prefix === "" && field.name === "body") continue;
    const path = `${prefix}${field.name}`;
    found.set(path, field.required);
    if (field.widget === "object") formFieldsByPath(field.fields ?? [], `${path}.`, found);
    if (field.widget === "list" && field.fields !== undefined) formFieldsByPath(field.fields, `${path}[].`, found);
    if (field.widget === "list" && field.field !== undefined) found.set(`${path}[]`, field.field.required);
  }
  return found;
}

function collection(made: FormConfig, name: string): FormCollection {
  const found = made.collections.find((each) => each.name === name);
  assert.ok(found !== undefined, `no collection ${name}`);
  return found;
}

/** The fields of each kind of content file in the form, with the schema it is made from. */
function kinds(made: FormConfig): [string, SchemaNode, readonly FormField[]][] {
  return [
    ["listing", BusinessFrontMatterSchema, collection(made, "listings").fields ?? []],
    ["offering", OfferingFrontMatterSchema, collection(made, "offerings").fields ?? []],
    ["site", SiteFrontMatterSchema, collection(made, "site").files?.[0]?.fields ?? []],
  ];
}

/** The fields a schema has that the form lacks, and the other way round, and where the two disagree on required. */
function differences(schema: SchemaNode, fields: readonly FormField[]): string[] {
  const want = schemaFields(schema);
  const have = formFieldsByPath(fields);
  return [
    ...[...want.keys()].filter((path) => !have.has(path)).map((path) => `${path}: not in the form`),
    ...[...have.keys()].filter((path) => !want.has(path)).map((path) => `${path}: not in the schema`),
    ...[...want]
      .filter(([path, required]) => have.has(path) && have.get(path) !== required)
      .map(([path, required]) => `${path}: ${required ? "required" : "optional"} in the schema`),
  ];
}

test("the form holds every field of every content schema, required where the schema requires it", () => {
  for (const services of [sampleServices(), null]) {
    for (const [kind, schema, fields] of kinds(config(services))) {
      assert.deepEqual(differences(schema, fields), [], kind);
      const body = fields.find((field) => field.name === "body");
      assert.deepEqual([body?.required, fields.at(-1)?.name], [true, "body"], `${kind}: the body is the last field, and required`);
    }
  }
  // The listing's required fields by name, as the form marks them (Decap marks the others "optional").
  const listing = formFieldsByPath(collection(config(sampleServices()), "listings").fields ?? []);
  assert.deepEqual(
    [...listing].filter(([, required]) => required).map(([path]) => path),
    [
      "id",
      "name",
      "service",
      "category",
      "location",
      "location.city",
      "location.region",
      "location.postalCode",
      "location.country",
      "quoteUrl",
      "status",
    ],
  );
});

test("a field added to a schema and missing from the form is named by the comparison", () => {
  const withWebsite = {
    ...BusinessFrontMatterSchema,
    required: [...BusinessFrontMatterSchema.required, "website"],
    properties: { ...BusinessFrontMatterSchema.properties, website: { type: "string", format: "uri" } },
  };
  const fields = collection(config(null), "listings").fields ?? [];
  assert.deepEqual(differences(withWebsite, fields), ["website: not in the form"]);
  const withoutCity = fields.map((field) =>
    field.name === "location" ? { ...field, fields: field.fields?.filter((inner) => inner.name !== "city") } : field,
  );
  assert.deepEqual(differences(BusinessFrontMatterSchema, withoutCity), ["location.city: not in the form"]);
});

test("the service is chosen among services.yml's names, in its order; without the file it is free text", () => {
  const services = sampleServices();
  const service = (made: FormConfig) => (collection(made, "listings").fields ?? []).find((field) => field.name === "service");
  const chosen = service(config(services));
  assert.deepEqual(
    { widget: chosen?.widget, options: chosen?.options },
    { widget: "select", options: services.map((entry) => entry.name) },
  );
  assert.equal(chosen?.options?.length, 27);
  assert.deepEqual(service(config(null))?.widget, "string");
  // config.yml as served reads back to the same choices.
  const served = parse(formConfigYaml({ ...OPTIONS, services })) as FormConfig;
  assert.deepEqual(
    service(served)?.options,
    services.map((entry) => entry.name),
  );
});

test("the country, the status and the content signals are the schemas' choices", () => {
  const made = config(null);
  const listing = collection(made, "listings").fields ?? [];
  const country = listing.find((field) => field.name === "location")?.fields?.find((field) => field.name === "country");
  assert.deepEqual(
    country?.options?.map((option) => (typeof option === "string" ? option : option.value)).sort(),
    [...BusinessFrontMatterSchema.properties.location.properties.country.enum].sort(),
  );
  assert.deepEqual(
    country?.options?.find((option) => typeof option !== "string" && option.value === "GB"),
    { label: "United Kingdom (GB)", value: "GB" },
  );
  assert.deepEqual(listing.find((field) => field.name === "status")?.options, ["approved", "pending", "rejected", "suspended"]);
  const signal = (collection(made, "site").files?.[0]?.fields ?? []).find((field) => field.name === "contentSignal");
  assert.deepEqual(
    signal?.fields?.map((field) => [field.name, field.options]),
    [
      ["search", ["yes", "no"]],
      ["ai-input", ["yes", "no"]],
      ["ai-train", ["yes", "no"]],
    ],
  );
});

/** Text that patterns and limits tell apart. */
const PROBES = [
  "Leeds",
  " ",
  "  x  ",
  "two\nlines",
  "x".repeat(60),
  "x".repeat(61),
  "https://hearthway.example/quotes/new",
  "http://a",
  "https://",
  "ftp://files.example",
  "mailto:x@y.example",
  "jane@example.org",
  "JANE@EXAMPLE.ORG",
  "jane@",
  "jane example.org",
];

test("each pattern, format and length limit of a schema tests text in the form as Ajv does", () => {
  const ajv = createAjv();
  const checked: string[] = [];
  const visit = (schema: Record<string, unknown>, field: FormField | undefined, path: string) => {
    const { pattern, maxLength, format, properties, items } = schema as {
      pattern?: string;
      maxLength?: number;
      format?: string;
      properties?: Record<string, Record<string, unknown>>;
      items?: Record<string, unknown>;
    };
    for (const [name, property] of Object.entries(properties ?? {})) {
      const inner = field?.fields?.find((each) => each.name === name);
      visit(property, inner, path.endsWith(": ") ? `${path}${name}` : `${path}.${name}`);
    }
    if (items !== undefined) visit(items, field?.field ?? field, `${path}[]`);
    // uri is a format Ajv checks with code, not a pattern: npm run check tests it (the form has the scheme's pattern).
    const carried = {
      type: "string",
      ...(pattern === undefined ? {} : { pattern }),
      ...(maxLength === undefined ? {} : { maxLength }),
      ...(format === "email" ? { format } : {}),
    };
    if (Object.keys(carried).length === 1 || field?.widget === "select") return;
    const validate = ajv.compile(carried);
    const form = field?.pattern === undefined ? undefined : new RegExp(field.pattern[0]);
    assert.ok(form !== undefined, `${path}: no pattern in the form`);
    for (const probe of PROBES) assert.equal(form.test(probe), validate(probe), `${path}: ${JSON.stringify(probe)}`);
    checked.push(path);
  };
  for (const [kind, schema, fields] of kinds(config(null))) {
    visit(schema as Record<string, unknown>, { name: kind, label: kind, widget: "object", required: true, fields }, `${kind}: `);
  }
  assert.deepEqual(
    checked.filter((path) => path.startsWith("listing")),
    [
      "listing: name",
      "listing: service",
      "listing: category",
      "listing: location.city",
      "listing: location.region",
      "listing: location.postalCode",
      "listing: quoteUrl",
    ],
  );
  assert.equal(checked.length, 22);
  assert.ok(checked.includes("site: contact.email"));
});

test("a listing's description is refused blank or over the limit once trimmed, as the build refuses it", () => {
  const body = (collection(config(null), "listings").fields ?? []).find((field) => field.name === "body");
  const pattern = new RegExp(body?.pattern?.[0] ?? "(?!)");
  const verdicts = [
    "x",
    " x \n",
    "\n\n  \t",
    "x".repeat(DESCRIPTION_MAX_LENGTH),
    `  ${"x".repeat(DESCRIPTION_MAX_LENGTH)}\n\n`,
    "x".repeat(DESCRIPTION_MAX_LENGTH + 1),
  ].map((text) => pattern.test(text));
  assert.deepEqual(verdicts, [true, true, false, true, true, false]);
});
