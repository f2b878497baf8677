/**
 * Ajv's errors as editors read them: the field (`location.country`, `features[0].text`), what is
 * wrong in words, and where in the file (build/positions.ts) it is.
 */
import type { ErrorObject } from "ajv";
import { closest } from "../src/core/closest.ts";
import { NOT_BLANK_PATTERN, ONE_LINE_PATTERN } from "../src/schemas/content.ts";
import { currentCountryCode } from "../src/schemas/countries.ts";
import type { Pointer } from "./positions.ts";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** What is wrong with a country code, as the build and `npm run new` say it. */
export function countryCodeProblem(code: string): string {
  const current = currentCountryCode(code);
  const hint = current === undefined ? "" : `; ${code} is not one: ${regionNames.of(current)}'s is ${current}`;
  return `must be a two-letter upper-case ISO 3166-1 code such as GB${hint}`;
}

export function fieldOf(error: ErrorObject): string {
  const path = error.instancePath
    .slice(1)
    .replace(/\//g, ".")
    .replace(/\.(\d+)(?=\.|$)/g, "[$1]");
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path === "" ? missing : `${path}.${missing}`;
  }
  if (error.keyword === "additionalProperties") {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return path === "" ? extra : `${path}.${extra}`;
  }
  return path === "" ? "(front matter)" : path;
}

/** The key or value an Ajv error blames: a missing key's mapping, an unknown key, or the value itself. */
export function pointerOf(error: ErrorObject): Pointer {
  const path =
    error.instancePath === ""
      ? []
      : error.instancePath
          .slice(1)
          .split("/")
          .map((step) => step.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "required") return { key: path };
  if (error.keyword === "additionalProperties")
    return { key: [...path, (error.params as { additionalProperty: string }).additionalProperty] };
  return { value: path };
}

/** JSON Schema's types as editors read them. */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  array: "a list",
  object: "a mapping",
  integer: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
};

/**
 * The key of the mapping's schema that an unknown key most likely meant (`quoteURL`: `quoteUrl`),
 * among those the mapping does not have already: a key written twice, once misspelt, is not
 * helped by naming the other.
 */
export function knownKeyLike(error: ErrorObject): string | undefined {
  const known = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const mapping = (error.data ?? {}) as Record<string, unknown>;
  const unused = Object.keys(known).filter((key) => !Object.hasOwn(mapping, key));
  return closest((error.params as { additionalProperty: string }).additionalProperty, unused);
}

export function describe(error: ErrorObject, field: string, value: unknown): string {
  switch (error.keyword) {
    case "required":
      return "is required";
    case "additionalProperties": {
      const suggestion = knownKeyLike(error);
      return suggestion === undefined ? "is not a known key (check its spelling)" : `is not a known key; did you mean "${suggestion}"?`;
    }
    case "type": {
      const expected = (error.params as { type: string | string[] }).type;
      const hint = expected === "string" && (typeof value === "number" || value instanceof Date) ? " (put it in quotes)" : "";
      const name = (type: string) => TYPE_NAMES[type] ?? `a ${type}`;
      return `must be ${Array.isArray(expected) ? expected.map(name).join(" or ") : name(expected)}${hint}`;
    }
    case "minLength":
      return "must not be empty";
    case "enum":
      if (field.endsWith("country")) return countryCodeProblem(String(value));
      return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(", ")}`;
    case "format":
    case "pattern":
      if (field.endsWith("country")) return countryCodeProblem(String(value));
      if (field === "id") return "must be a UUID such as 1b4e28ba-2fa1-41d2-883f-0016d3cca427";
      if (field.endsWith("email")) return "must be an email address";
      if (field.endsWith("url") || field.endsWith("Url")) return "must be an absolute http: or https: URL";
      if (error.keyword === "pattern" && (error.params as { pattern: string }).pattern === ONE_LINE_PATTERN) {
        return typeof value === "string" && /[\r\n]/.test(value) ? "must be one line of text" : "must not be blank";
      }
      return error.keyword === "pattern" && (error.params as { pattern: string }).pattern === NOT_BLANK_PATTERN
        ? "must not be blank"
        : `is not valid (${error.message ?? "bad format"})`;
    default:
      return error.message ?? "is not valid";
  }
}

export function valueAt(data: unknown, instancePath: string): unknown {
  let value = data;
  for (const key of instancePath.split("/").slice(1)) {
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
