import { DIRECTORY_DEFAULT_LIMIT } from "../contract.ts";
import { coerceIntegers, integerParameters } from "../core/validation.ts";
import { createAjv } from "../schemas/ajv.ts";
import {
  DIRECTORY_RULES,
  type DirectorySearchQuery,
  DirectorySearchQuerySchema,
  directorySearchProperties,
} from "../schemas/parameters.ts";

/**
 * The directory page's query string, validated with the API's own schemas (src/schemas): the
 * same rules, the same search. Parameters the page does not use (tracking tags) are ignored;
 * empty form fields count as left out.
 */

const PAGE_FIELDS = ["q", "location", "country", "offset"] as const;
export type PageField = (typeof PAGE_FIELDS)[number];

/** What the visitor typed, to fill the form again (escaped when written). */
export type FormValues = Partial<Record<"q" | "location" | "country", string>>;

export type DirectoryPageQuery =
  | { ok: true; query: DirectorySearchQuery; form: FormValues; searched: boolean }
  | { ok: false; field: PageField; problem: "invalid" | "repeated"; message: string; form: FormValues };

// No coercion: the page reads numbers by the API's rule (decimal digits only, coerceIntegers).
const ajv = createAjv();
const INTEGERS = integerParameters(DirectorySearchQuerySchema);
const validators = Object.fromEntries(
  PAGE_FIELDS.map((name) => [name, ajv.compile({ type: "object", properties: { [name]: directorySearchProperties[name] } })]),
) as Record<PageField, ReturnType<typeof ajv.compile>>;

/** How each field is named on the page. */
export const FIELD_LABELS: Readonly<Record<PageField, string>> = {
  q: "Service or name",
  location: "Town, region or postcode",
  country: "Country code",
  offset: "Page position (offset)",
};

/**
 * Punctuation the API refuses in q and location, read as a space on the pages: people type
 * `plumber, leeds` or `24/7`, and the page should search for what they meant rather than
 * refuse it. What is left is still checked by the API's rules.
 */
function forgiving(value: string): string {
  return value
    .replace(/[^\p{L}\p{M}0-9'’.&\- ]+/gu, " ")
    .replace(/ {2,}/g, " ")
    .trim();
}

export function parseDirectoryQuery(raw: Readonly<Record<string, unknown>>): DirectoryPageQuery {
  const form: FormValues = {};
  const values: Partial<Record<PageField, string>> = {};
  let failure: Extract<DirectoryPageQuery, { ok: false }> | null = null;

  for (const name of PAGE_FIELDS) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== "string") {
      failure ??= {
        ok: false,
        field: name,
        problem: "repeated",
        message: `${FIELD_LABELS[name]} was given more than once. Fill in each field once and search again.`,
        form,
      };
      continue;
    }
    if (name !== "offset") form[name] = value;
    const read = name === "q" || name === "location" ? forgiving(value) : value;
    if (read.trim() === "") continue;
    values[name] = read;
  }
  if (failure !== null) return failure;

  const query: DirectorySearchQuery = { limit: DIRECTORY_DEFAULT_LIMIT, offset: 0 };
  for (const name of PAGE_FIELDS) {
    const value = values[name];
    if (value === undefined) continue;
    const data = coerceIntegers({ [name]: value }, INTEGERS);
    if (!validators[name](data)) {
      const rule = DIRECTORY_RULES[name];
      return {
        ok: false,
        field: name,
        problem: "invalid",
        message: `${FIELD_LABELS[name]} must be ${rule?.rule ?? "a valid value"}. ${rule?.resolution ?? ""}`.trim(),
        form,
      };
    }
    if (name === "offset") query.offset = data[name] as number;
    else query[name] = data[name] as string;
  }
  const searched = query.q !== undefined || query.location !== undefined || query.country !== undefined;
  return { ok: true, query, form, searched };
}

/** The page's URL for a search, keeping only the fields that were filled in. */
export function directoryHref(path: string, form: FormValues, offset: number): string {
  const params = new URLSearchParams();
  for (const name of ["q", "location", "country"] as const) {
    const value = form[name];
    if (value !== undefined && value.trim() !== "") params.set(name, value);
  }
  if (offset > 0) params.set("offset", String(offset));
  const search = params.toString();
  return search === "" ? path : `${path}?${search}`;
}
