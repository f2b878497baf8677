import {
  DIRECTORY_DEFAULT_LIMIT,
  DIRECTORY_LOCATION_MAX_LENGTH,
  DIRECTORY_PATH,
  DIRECTORY_Q_MAX_LENGTH,
  markdownPath,
} from "../contract.ts";
import type { PageSearch } from "../core/service.ts";
import { coerceIntegers, integerParameters } from "../core/validation.ts";
import { createAjv } from "../schemas/ajv.ts";
import { ONE_LINE_PATTERN } from "../schemas/content.ts";
import { DIRECTORY_RULES, DirectorySearchQuerySchema, directorySearchProperties, type ParameterRules } from "../schemas/parameters.ts";
import { countryName } from "./business.ts";
import { escapeHtml } from "./escape.ts";

/**
 * The directory page's query string, validated with the API's own schemas (src/schemas): the
 * same rules, the same search. Parameters the page does not use (tracking tags) are ignored;
 * empty form fields count as left out. The page also takes `service`, which the API does not:
 * its counts by service link the search narrowed to one service, exactly the listings counted.
 */

const PAGE_FIELDS = ["q", "location", "country", "service", "offset"] as const;
export type PageField = (typeof PAGE_FIELDS)[number];

const DIRECTORY_MARKDOWN_PATH = markdownPath(DIRECTORY_PATH);

/** The fields a page's URL keeps, in its order. */
export const SEARCH_FIELDS = ["q", "location", "country", "service"] as const;

/** What the visitor typed (or followed), to fill the form again and link further pages (escaped when written). */
export type FormValues = Partial<Record<(typeof SEARCH_FIELDS)[number], string>>;

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

/** How each field is named on the page. */
const FIELD_LABELS: Readonly<Record<PageField, string>> = {
  q: "Service or name",
  location: "Town, region or postcode",
  country: "Country code",
  service: "Service",
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

/** Form fields as URLSearchParams writes them (`name=value`, form-encoded), each kept once made: pages link the same values over and over. */
const encodedFields = new Map<string, string>();
/** Bounds what is kept: typed values are kept too, and the map starts afresh when full. */
const ENCODED_FIELDS_MAX = 4096;

function encodedField(name: string, value: string): string {
  const key = `${name}\n${value}`;
  let encoded = encodedFields.get(key);
  if (encoded === undefined) {
    encoded = new URLSearchParams([[name, value]]).toString();
    if (encodedFields.size >= ENCODED_FIELDS_MAX) encodedFields.clear();
    encodedFields.set(key, encoded);
  }
  return encoded;
}

/** The query string of a search's page (`?q=…&offset=20`, or "" for none), keeping only the fields that were filled in. */
export function directoryQuery(form: FormValues, offset: number): string {
  let search = "";
  for (const name of SEARCH_FIELDS) {
    const value = form[name];
    if (value !== undefined && value.trim() !== "") search += `${search === "" ? "?" : "&"}${encodedField(name, value)}`;
  }
  if (offset > 0) search += `${search === "" ? "?" : "&"}offset=${offset}`;
  return search;
}

/**
 * The query strings of the search with `field` set to each of `values` in turn (the first page
 * of each): directoryQuery of each narrowed search, with the other fields written once.
 */
export function narrowedQueries(
  form: FormValues,
  field: (typeof SEARCH_FIELDS)[number],
  values: readonly { readonly value: string }[],
): string[] {
  let before = "";
  let after = "";
  let passed = false;
  for (const name of SEARCH_FIELDS) {
    const value = form[name];
    if (name === field) passed = true;
    else if (value !== undefined && value.trim() !== "") {
      if (passed) after += `&${encodedField(name, value)}`;
      else before += `&${encodedField(name, value)}`;
    }
  }
  return values.map(({ value }) => {
    const search = value.trim() === "" ? `${before}${after}` : `${before}&${encodedField(field, value)}${after}`;
    return search === "" ? "" : `?${search.slice(1)}`;
  });
}

/** The page's URL for a search, keeping only the fields that were filled in. */
export function directoryHref(path: string, form: FormValues, offset: number): string {
  return `${path}${directoryQuery(form, offset)}`;
}

/** The Markdown URL of a search's page (its `Link: rel="alternate"` and "this page in Markdown"): the same search. */
export function directoryMarkdownHref(form: FormValues, offset: number): string {
  return directoryHref(DIRECTORY_MARKDOWN_PATH, form, offset);
}

// The form, for people: the page's Markdown says how to search in words instead.

/** What the form shows: the values typed, the field with a problem, and the countries to choose from. */
interface FormState {
  readonly form: FormValues;
  readonly invalid: PageField | null;
  readonly countries: readonly { readonly code: string; readonly total: number }[] | undefined;
}

function field(name: "q" | "location" | "country", hint: string, state: FormState, extra = ""): string {
  const invalid = state.invalid === name;
  const value = state.form[name] ?? "";
  return `<div>
<label for="${name}">${escapeHtml(FIELD_LABELS[name])} <span class="hint" id="${name}-hint">${escapeHtml(hint)}</span></label>
<input id="${name}" name="${name}" type="text" value="${escapeHtml(value)}" aria-describedby="${name}-hint${invalid ? " form-problem" : ""}"${invalid ? ' aria-invalid="true"' : ""}${extra}>
</div>`;
}

type Countries = NonNullable<FormState["countries"]>;

/** The options of the directory's countries, with `chosen` selected (or none for ""): made once each per snapshot's choices. */
const countryOptionsKept = new WeakMap<Countries, Map<string, string>>();

function countryOptions(countries: Countries, chosen: string): string {
  let kept = countryOptionsKept.get(countries);
  if (kept === undefined) {
    kept = new Map();
    countryOptionsKept.set(countries, kept);
  }
  let options = kept.get(chosen);
  if (options === undefined) {
    options = countries
      .map(({ code, total }) => countryOption(code, `${countryName(code)} (${total.toLocaleString("en")})`, code === chosen))
      .join("\n");
    // `chosen` is one of the countries' codes, or "": at most one entry each.
    kept.set(chosen, options);
  }
  return options;
}

function countryOption(value: string, label: string, selected: boolean): string {
  return `<option value="${escapeHtml(value)}"${selected ? " selected" : ""}>${escapeHtml(label)}</option>`;
}

/**
 * The country field: a choice of the countries that have listings, with their counts. A value
 * that is no such code (typed into the URL) stays selected as it was typed, escaped, so that the
 * page can say what is wrong with it. Without choices (the directory is unavailable) it is a text field.
 */
function countryField(state: FormState): string {
  if (state.countries === undefined || state.countries.length === 0) {
    return field("country", "Two letters, such as GB or IE", state, ' maxlength="2" autocomplete="country"');
  }
  const typed = (state.form.country ?? "").trim();
  const chosen = state.countries.find(({ code }) => code === typed.toUpperCase());
  const invalid = state.invalid === "country";
  const options = [
    countryOption("", "Any country", typed === ""),
    ...(typed !== "" && chosen === undefined ? [countryOption(typed, typed, true)] : []),
    countryOptions(state.countries, chosen?.code ?? ""),
  ];
  return `<div>
<label for="country">${escapeHtml(FIELD_LABELS.country)} <span class="hint" id="country-hint">Countries with listings</span></label>
<select id="country" name="country" aria-describedby="country-hint${invalid ? " form-problem" : ""}"${invalid ? ' aria-invalid="true"' : ""}>
${options.join("\n")}
</select>
</div>`;
}

/** The directory's search form, filled in with what was typed; its labels and hints are for people (data-markdown-ignore). */
export function searchFormHtml(state: FormState): string {
  return `<form class="search-form" method="get" action="${DIRECTORY_PATH}" role="search" aria-label="Search the directory" data-markdown-ignore>
${field("q", "For example: plumber, electrician, O'Brien", state, ` maxlength="${DIRECTORY_Q_MAX_LENGTH}" autocomplete="off"`)}
${field("location", "Part of a town, region or postcode", state, ` maxlength="${DIRECTORY_LOCATION_MAX_LENGTH}"`)}
${countryField(state)}
<div><button class="button" type="submit">Search</button></div>
</form>`;
}
