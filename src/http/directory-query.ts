import { DIRECTORY_DEFAULT_LIMIT } from "../contract.ts";
import type { PageSearch } from "../core/answers.ts";
import { coerceIntegers, integerParameters } from "../core/validation.ts";
import { FIELD_LABELS, type FormValues, PAGE_FIELDS, type PageField, SEARCH_FIELDS } from "../render/directory-form.ts";
import { createAjv } from "../schemas/ajv.ts";
import { ONE_LINE_PATTERN } from "../schemas/content.ts";
import { DIRECTORY_RULES, DirectorySearchQuerySchema, directorySearchProperties, type ParameterRules } from "../schemas/parameters.ts";

/**
 * The directory page's query string, validated with the API's own schemas (src/schemas): the
 * same rules, the same search. Parameters the page does not use (tracking tags) are ignored;
 * empty form fields count as left out. The page also takes `service`, which the API does not:
 * its counts by service link the search narrowed to one service, exactly the listings counted.
 */

/**
 * A service name as the page takes it: as a listing may write it (one line, src/schemas/content.ts),
 * matched exactly. No shorter bound than the content's, or a link the page made could be refused.
 */
const pageProperties = {
  ...directorySearchProperties,
  service: { type: "string", pattern: ONE_LINE_PATTERN },
} as const;
const PAGE_RULES: ParameterRules = {
  ...DIRECTORY_RULES,
  service: {
    rule: "a service name on one line",
    resolution: "Choose a service from the counts of a search, or leave it out.",
  },
};

export type DirectoryPageQuery =
  | { ok: true; query: PageSearch & { limit: number; offset: number }; form: FormValues; searched: boolean }
  | { ok: false; field: PageField; problem: "invalid" | "repeated"; message: string; form: FormValues };

// No coercion: the page reads numbers by the API's rule (decimal digits only, coerceIntegers).
const ajv = createAjv();
const INTEGERS = integerParameters(DirectorySearchQuerySchema);
const validators = Object.fromEntries(
  PAGE_FIELDS.map((name) => [name, ajv.compile({ type: "object", properties: { [name]: pageProperties[name] } })]),
) as Record<PageField, ReturnType<typeof ajv.compile>>;

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

  const query: PageSearch & { limit: number; offset: number } = { limit: DIRECTORY_DEFAULT_LIMIT, offset: 0 };
  for (const name of PAGE_FIELDS) {
    const value = values[name];
    if (value === undefined) continue;
    const data = coerceIntegers({ [name]: value }, INTEGERS);
    if (!validators[name](data)) {
      const rule = PAGE_RULES[name];
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
  const searched = SEARCH_FIELDS.some((name) => query[name] !== undefined);
  return { ok: true, query, form, searched };
}

/** A query the page can answer. */
export type ValidPageQuery = Extract<DirectoryPageQuery, { ok: true }>;

/**
 * What a page of the query depends on, as a key: every field as typed (the form shows it again)
 * and the page's position, in a fixed order, so URLs that differ only in their parameters' order
 * or in parameters the page ignores share one.
 */
export function formKey(parsed: ValidPageQuery): string {
  return JSON.stringify([...SEARCH_FIELDS.map((name) => parsed.form[name] ?? null), parsed.query.offset]);
}
