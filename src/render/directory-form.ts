import { DIRECTORY_LOCATION_MAX_LENGTH, DIRECTORY_PATH, DIRECTORY_Q_MAX_LENGTH, markdownPath } from "../contract.ts";
import { countryName } from "./business.ts";
import { escapeHtml } from "./escape.ts";

/**
 * The directory page's form and its URLs: the form filled in with what was typed, and the query
 * strings of a search's pages and narrowed searches (src/http/directory-query.ts reads them back).
 */

/** The fields the page reads from its query string, in order. */
export const PAGE_FIELDS = ["q", "location", "country", "service", "offset"] as const;
export type PageField = (typeof PAGE_FIELDS)[number];

const DIRECTORY_MARKDOWN_PATH = markdownPath(DIRECTORY_PATH);

/** How each field is named on the page. */
export const FIELD_LABELS: Readonly<Record<PageField, string>> = {
  q: "Service or name",
  location: "Town, region or postcode",
  country: "Country code",
  service: "Service",
  offset: "Page position (offset)",
};

/** The fields a page's URL keeps, in its order. */
export const SEARCH_FIELDS = ["q", "location", "country", "service"] as const;

/** What the visitor typed (or followed), to fill the form again and link further pages (escaped when written). */
export type FormValues = Partial<Record<(typeof SEARCH_FIELDS)[number], string>>;

/** A value a form's encoding writes as it is, but for its spaces. */
const FORM_PLAIN = /^[A-Za-z0-9*\-._ ]*$/;
/** What encodeURIComponent leaves as it is but a form's encoding (application/x-www-form-urlencoded) escapes. */
const FORM_ESCAPED = /[!'()~]/g;

/**
 * `name=value` as URLSearchParams writes it (application/x-www-form-urlencoded: only ASCII
 * letters, digits and `*-._` kept, a space as `+`), through the native encodeURIComponent:
 * a page links the same fields many times (every count that narrows a search), and
 * URLSearchParams costs a microsecond an object. A lone surrogate becomes U+FFFD, as there.
 */
function encodedField(name: string, value: string): string {
  // Most values (codes, offsets, most names) need nothing but their spaces written as `+`.
  if (FORM_PLAIN.test(value)) return `${name}=${value.replaceAll(" ", "+")}`;
  const encoded = encodeURIComponent(value.toWellFormed())
    .replace(FORM_ESCAPED, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll("%20", "+");
  return `${name}=${encoded}`;
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

/**
 * The countries the form offers: their codes, and the select's options with one of them chosen
 * (or none, for ""). src/http makes each set of options once per view (countryOptionsHtml).
 */
export interface CountryChoice {
  readonly codes: ReadonlySet<string>;
  options(chosen: string): string;
}

/** What the form shows: the values typed, the field with a problem, and the countries to choose from. */
interface FormState {
  readonly form: FormValues;
  readonly invalid: PageField | null;
  /** None while the directory is unavailable (the country is then a text field). */
  readonly countries: CountryChoice | undefined;
}

function field(name: "q" | "location" | "country", hint: string, state: FormState, extra = ""): string {
  const invalid = state.invalid === name;
  const value = state.form[name] ?? "";
  return `<div>
<label for="${name}">${escapeHtml(FIELD_LABELS[name])} <span class="hint" id="${name}-hint">${escapeHtml(hint)}</span></label>
<input id="${name}" name="${name}" type="text" value="${escapeHtml(value)}" aria-describedby="${name}-hint${invalid ? " form-problem" : ""}"${invalid ? ' aria-invalid="true"' : ""}${extra}>
</div>`;
}

/** The options of the directory's countries, with their counts, `chosen` selected (none for ""). */
export function countryOptionsHtml(countries: readonly { readonly code: string; readonly total: number }[], chosen: string): string {
  return countries
    .map(({ code, total }) => countryOption(code, `${countryName(code)} (${total.toLocaleString("en")})`, code === chosen))
    .join("\n");
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
  if (state.countries === undefined || state.countries.codes.size === 0) {
    return field("country", "Two letters, such as GB or IE", state, ' maxlength="2" autocomplete="country"');
  }
  const typed = (state.form.country ?? "").trim();
  const chosen = state.countries.codes.has(typed.toUpperCase()) ? typed.toUpperCase() : undefined;
  const invalid = state.invalid === "country";
  const options = [
    countryOption("", "Any country", typed === ""),
    ...(typed !== "" && chosen === undefined ? [countryOption(typed, typed, true)] : []),
    state.countries.options(chosen ?? ""),
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
