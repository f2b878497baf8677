/**
 * The editors' form's fields (Decap CMS widgets) made from a JSON Schema of the content: each
 * property a widget, its `required`, patterns and length limits carried over, an enum a choice, a
 * mapping a group, a list a list. A schema the form has no widget for is an error, so a new kind
 * of field cannot be left out of the form unseen.
 */
import ajvFormats from "ajv-formats/dist/formats.js";
import { BusinessFrontMatterSchema, NOT_BLANK_PATTERN, ONE_LINE_PATTERN } from "../src/schemas/content.ts";
import { MAPPING_WIDGET } from "./admin/names.ts";

/** A JSON Schema as src/schemas/content.ts writes them: the keywords the form can carry over. */
interface Schema {
  readonly type?: string;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly enum?: readonly string[];
  readonly description?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
}

/** One field of the form, as Decap CMS's config reads it. */
export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly widget: string;
  readonly required: boolean;
  readonly hint?: string;
  readonly pattern?: readonly [string, string];
  readonly options?: readonly (string | { readonly label: string; readonly value: string })[];
  readonly fields?: readonly FormField[];
  readonly field?: FormField;
  readonly [option: string]: unknown;
}

/**
 * The patterns a schema names, in words: Decap shows "<field> didn't match the pattern: <words>".
 * Formats are checked by the shape Ajv gives them (ajv-formats) where it is a pattern.
 */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  [ONE_LINE_PATTERN]: "one line of text, not blank",
  [NOT_BLANK_PATTERN]: "not blank",
  [BusinessFrontMatterSchema.properties.quoteUrl.pattern]: "an absolute https: or http: URL",
};

/** Ajv's email pattern (ajv-formats), which is case-insensitive (its `i` flag): Decap compiles patterns without flags. */
function emailPattern(): string {
  const email = ajvFormats.fullFormats.email;
  if (!(email instanceof RegExp)) throw new Error("ajv-formats' email format is not a pattern");
  return email.source.replaceAll("a-z", "a-zA-Z");
}
const FORMAT_PATTERNS: Readonly<Record<string, readonly [string, string]>> = {
  email: [emailPattern(), "an email address"],
};

/** `quoteUrl` → `Quote URL`, `postalCode` → `Postal code`, `ai-train` → `AI train`. */
function labelOf(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/-/g, " ")
    .toLowerCase()
    .replace(/\b(url|ai|id)\b/g, (acronym) => acronym.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * One pattern that holds when every rule of a string's schema holds: each as a lookahead from the
 * start. A schema's pattern matches anywhere in the text, as JSON Schema's do.
 */
function patternOf(schema: Schema): [string, string] | undefined {
  const rules: [string, string][] = [];
  if (schema.pattern !== undefined) {
    rules.push([`(?=[\\s\\S]*?(?:${schema.pattern}))`, PATTERN_WORDS[schema.pattern] ?? `matching ${schema.pattern}`]);
  }
  const format = schema.format === undefined ? undefined : FORMAT_PATTERNS[schema.format];
  if (format !== undefined) rules.push([`(?=${format[0]})`, format[1]]);
  if (schema.maxLength !== undefined) rules.push([`(?=[\\s\\S]{0,${schema.maxLength}}$)`, `at most ${schema.maxLength} characters`]);
  if (rules.length === 0) return undefined;
  // One rule alone as it is: a pattern tests as JSON Schema's does (anywhere in the text), formats and lengths as the whole.
  if (rules.length === 1 && schema.pattern !== undefined) return [schema.pattern, rules[0]?.[1] ?? ""];
  return [`^${rules.map(([rule]) => rule).join("")}`, rules.map(([, words]) => words).join(", ")];
}

/** What the form does with a field beyond its schema, by its path (`location.country`): a choice from a list the schema does not hold. */
export type Overrides = Readonly<Record<string, (field: FormField) => FormField>>;

function fieldOf(name: string, schema: Schema, required: boolean, path: string, overrides: Overrides): FormField {
  const common = {
    name,
    label: labelOf(name),
    required,
    ...(schema.description === undefined ? {} : { hint: schema.description }),
  };
  const made = ((): FormField => {
    if (schema.enum !== undefined) return { ...common, widget: "select", options: [...schema.enum] };
    switch (schema.type) {
      case "string": {
        if (schema.format === "uuid") return { ...common, widget: "uuid" };
        const pattern = patternOf(schema);
        return { ...common, widget: "string", ...(pattern === undefined ? {} : { pattern }) };
      }
      case "integer":
        return { ...common, widget: "number", value_type: "int", step: 1 };
      case "number":
        return { ...common, widget: "number", value_type: "float" };
      case "boolean":
        return { ...common, widget: "boolean" };
      case "object":
        // A mapping of any keys (a listing's `private`): no fixed fields to show.
        if (schema.properties === undefined) return { ...common, widget: MAPPING_WIDGET };
        return { ...common, widget: "object", collapsed: false, fields: fieldsOf(schema, required, `${path}.`, overrides) };
      case "array": {
        const items = schema.items;
        if (items?.type === "object") {
          return { ...common, widget: "list", fields: fieldsOf(items, true, `${path}[].`, overrides) };
        }
        if (items !== undefined) return { ...common, widget: "list", field: fieldOf(labelOf(name), items, true, `${path}[]`, overrides) };
        break;
      }
    }
    // A test (test/admin/form-config.test.ts) makes every schema into a form: a new kind fails it.
    throw new Error(`${path}: the form has no widget for this schema (${JSON.stringify(schema)})`);
  })();
  return overrides[path]?.(made) ?? made;
}

/**
 * A mapping's fields in the schema's order. Inside an optional mapping nothing is required by the
 * form: Decap would demand the inner fields even when the mapping is left out (site.md's `licence`).
 */
function fieldsOf(schema: Schema, required: boolean, prefix: string, overrides: Overrides): FormField[] {
  return Object.entries(schema.properties ?? {}).map(([name, property]) =>
    fieldOf(name, property, required && (schema.required ?? []).includes(name), `${prefix}${name}`, overrides),
  );
}

/** The form's fields for a content file's front matter, in its schema's order. */
export function formFields(schema: Schema, overrides: Overrides = {}): FormField[] {
  return fieldsOf(schema, true, "", overrides);
}
