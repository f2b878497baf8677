import {
  API_DOCS_PATH,
  DIRECTORY_LOCATION_MAX_LENGTH,
  DIRECTORY_MAX_OFFSET,
  DIRECTORY_PATH,
  DIRECTORY_Q_MAX_LENGTH,
  DIRECTORY_RETRY_AFTER_SECONDS,
  markdownPath,
} from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import { businessCardHtml, countryName } from "./business.ts";
import { directoryHref, FIELD_LABELS, type FormValues } from "./directory-form.ts";
import { type DirectoryChoices, type DirectoryView, type EmptySearchOffer, placeSearch, respelled } from "./directory-view.ts";
import { escapeHtml } from "./escape.ts";
import { layout } from "./layout.ts";

function field(name: "q" | "location" | "country", hint: string, view: DirectoryView, extra = ""): string {
  const invalid = view.kind === "invalid" && view.field === name;
  const value = view.form[name] ?? "";
  return `<div>
<label for="${name}">${escapeHtml(FIELD_LABELS[name])} <span class="hint" id="${name}-hint">${escapeHtml(hint)}</span></label>
<input id="${name}" name="${name}" type="text" value="${escapeHtml(value)}" aria-describedby="${name}-hint${invalid ? " form-problem" : ""}"${invalid ? ' aria-invalid="true"' : ""}${extra}>
</div>`;
}

/**
 * The country field: a choice of the countries that have listings, with their counts. A value
 * that is no such code (typed into the URL) stays selected as it was typed, escaped, so that the
 * page can say what is wrong with it. Without choices (the directory is unavailable) it is a text field.
 */
function countryField(view: DirectoryView, choices: DirectoryChoices | undefined): string {
  if (choices === undefined || choices.countries.length === 0) {
    return field("country", "Two letters, such as GB or IE", view, ' maxlength="2" autocomplete="country"');
  }
  const typed = (view.form.country ?? "").trim();
  const chosen = choices.countries.find(({ code }) => code === typed.toUpperCase());
  const invalid = view.kind === "invalid" && view.field === "country";
  const option = (value: string, label: string, selected: boolean) =>
    `<option value="${escapeHtml(value)}"${selected ? " selected" : ""}>${escapeHtml(label)}</option>`;
  const options = [
    option("", "Any country", typed === ""),
    ...(typed !== "" && chosen === undefined ? [option(typed, typed, true)] : []),
    ...choices.countries.map(({ code, total }) =>
      option(code, `${countryName(code)} (${total.toLocaleString("en")})`, code === chosen?.code),
    ),
  ];
  return `<div>
<label for="country">${escapeHtml(FIELD_LABELS.country)} <span class="hint" id="country-hint">Countries with listings</span></label>
<select id="country" name="country" aria-describedby="country-hint${invalid ? " form-problem" : ""}"${invalid ? ' aria-invalid="true"' : ""}>
${options.join("\n")}
</select>
</div>`;
}

function searchForm(view: DirectoryView, choices: DirectoryChoices | undefined): string {
  return `<form class="search-form" method="get" action="${DIRECTORY_PATH}" role="search" aria-label="Search the directory">
${field("q", "For example: plumber, electrician, O'Brien", view, ` maxlength="${DIRECTORY_Q_MAX_LENGTH}" autocomplete="off"`)}
${field("location", "Part of a town, region or postcode", view, ` maxlength="${DIRECTORY_LOCATION_MAX_LENGTH}"`)}
${countryField(view, choices)}
<div><button class="button" type="submit">Search</button></div>
</form>`;
}

/** A service as a link to a search for it, with its count of listings. */
function serviceItemHtml({ name, total }: { readonly name: string; readonly total: number }): string {
  return `<li><a href="${escapeHtml(directoryHref(DIRECTORY_PATH, { q: name }, 0))}">${escapeHtml(name)}</a> (${total.toLocaleString("en")})</li>`;
}

/** Browsing by service and by country, with counts: on the directory's unsearched pages. */
function browseHtml(choices: DirectoryChoices): string {
  const list = (items: string[]) => `<ul class="browse">\n${items.join("\n")}\n</ul>`;
  const services = choices.services.map(serviceItemHtml);
  const countries = choices.countries.map(
    ({ code, total }) =>
      `<li><a href="${escapeHtml(directoryHref(DIRECTORY_PATH, { country: code }, 0))}">${escapeHtml(countryName(code))}</a> (${total.toLocaleString("en")})</li>`,
  );
  return `<section aria-labelledby="browse">
<h2 id="browse">Browse the directory</h2>
<div class="browse-columns">
<div><h3>By service</h3>
${list(services)}</div>
<div><h3>By country</h3>
${list(countries)}</div>
</div>
</section>`;
}

/** "Did you mean" links: the search in the place it named, and words spelt as the directory has them. */
function offerHtml(offer: EmptySearchOffer, form: FormValues): string {
  const items: string[] = [];
  if (offer.place !== null) {
    const href = directoryHref(DIRECTORY_PATH, placeSearch(offer.place, form), 0);
    items.push(`<li><a href="${escapeHtml(href)}">${escapeHtml(offer.place.label)}</a></li>`);
  }
  for (const { typed, suggestion } of offer.spellings) {
    const href = directoryHref(DIRECTORY_PATH, respelled(form, typed, suggestion), 0);
    items.push(`<li><a href="${escapeHtml(href)}">${escapeHtml(suggestion)}</a> instead of “${escapeHtml(typed)}”</li>`);
  }
  return items.length === 0 ? "" : `<h3>Did you mean</h3>\n<ul class="suggestions">\n${items.join("\n")}\n</ul>`;
}

function servicesHtml(offer: EmptySearchOffer): string {
  if (offer.services.length === 0) return "";
  const items = offer.services.map(serviceItemHtml);
  return `<h3>Browse by service</h3>\n<ul class="services">\n${items.join("\n")}\n</ul>\n`;
}

function resultsHtml(view: Extract<DirectoryView, { kind: "results" }>): string {
  const { page, form, searched } = view;
  const heading = searched
    ? `${view.total.toLocaleString("en")} listing${view.total === 1 ? "" : "s"} for ${escapeHtml(searchLabel(form))}`
    : `All ${view.total.toLocaleString("en")} approved listings, A to Z`;
  if (page.items.length === 0) {
    if (page.offset > 0) {
      const back = `There are no more results after result ${page.offset}. <a href="${escapeHtml(directoryHref(DIRECTORY_PATH, form, 0))}">Back to the first page</a>.`;
      return `<section aria-labelledby="results"><h2 id="results">${heading}</h2><p role="status">${back}</p></section>`;
    }
    return `<section aria-labelledby="results"><h2 id="results">${heading}</h2>
<p role="status">No approved listing matches this search.</p>
${view.offer === undefined ? "" : offerHtml(view.offer, form)}
<p>Each word must match the start of a word in a business's name or service, or a word people use for the service (such as plumber or electrician). Try fewer or shorter words, or leave the location or country out.</p>
${view.offer === undefined ? "" : servicesHtml(view.offer)}</section>`;
  }
  const first = page.offset + 1;
  const last = page.offset + page.items.length;
  const previous =
    page.offset > 0
      ? `<a rel="prev" href="${escapeHtml(directoryHref(DIRECTORY_PATH, form, Math.max(0, page.offset - page.limit)))}">Previous page</a>`
      : "<span></span>";
  const next =
    page.nextOffset !== null
      ? `<a rel="next" href="${escapeHtml(directoryHref(DIRECTORY_PATH, form, page.nextOffset))}">Next page</a>`
      : "<span></span>";
  const total = view.total.toLocaleString("en");
  return `<section aria-labelledby="results">
<h2 id="results">${heading}</h2>
<p role="status">Showing ${first.toLocaleString("en")} to ${last.toLocaleString("en")} of ${total} listing${view.total === 1 ? "" : "s"}${view.total > DIRECTORY_MAX_OFFSET + page.limit ? ` (the first ${(DIRECTORY_MAX_OFFSET + page.limit).toLocaleString("en")} can be paged through; add a word, a place or a country to see the others)` : ""}.</p>
<ul class="cards">
${page.items.map((business) => businessCardHtml(business)).join("\n")}
</ul>
<nav class="pager" aria-label="Result pages">${previous}${pageNumbersHtml(view)}${next}</nav>
</section>`;
}

/** The pages a visitor can jump to: the first, the last and two either side of this one, within the browsing limit. */
function pageNumbers(total: number, limit: number, offset: number): (number | null)[] {
  const count = Math.min(Math.ceil(total / limit), Math.floor(DIRECTORY_MAX_OFFSET / limit) + 1);
  const current = Math.floor(offset / limit) + 1;
  const shown: (number | null)[] = [];
  for (let page = 1; page <= count; page += 1) {
    if (page === 1 || page === count || Math.abs(page - current) <= 2) shown.push(page);
    else if (shown.at(-1) !== null) shown.push(null);
  }
  return shown;
}

function pageNumbersHtml(view: Extract<DirectoryView, { kind: "results" }>): string {
  const { page, form, total } = view;
  const numbers = pageNumbers(total, page.limit, page.offset);
  if (numbers.length <= 1) return "";
  const current = Math.floor(page.offset / page.limit) + 1;
  const items = numbers.map((number) => {
    if (number === null) return '<li><span aria-hidden="true">…</span></li>';
    if (number === current && page.offset % page.limit === 0) return `<li><span aria-current="page">${number}</span></li>`;
    const href = directoryHref(DIRECTORY_PATH, form, (number - 1) * page.limit);
    return `<li><a href="${escapeHtml(href)}" aria-label="Page ${number}">${number}</a></li>`;
  });
  return `<ol>${items.join("")}</ol>`;
}

/** The search in words, for the page's title and heading: “plumber” in Leeds, GB. */
function searchLabel(form: FormValues): string {
  const q = (form.q ?? "").trim();
  const location = (form.location ?? "").trim();
  const country = (form.country ?? "").trim().toUpperCase();
  const where = [location, country].filter((part) => part !== "").join(", ");
  return [q === "" ? "Listings" : `“${q}”`, where === "" ? "" : `in ${where}`].filter((part) => part !== "").join(" ");
}

function problemHtml(view: DirectoryView): string {
  if (view.kind === "invalid") {
    return `<div class="notice" id="form-problem" role="alert"><h2>Please check your search</h2><p>${escapeHtml(view.message)}</p></div>`;
  }
  if (view.kind === "unavailable") {
    return `<div class="notice" role="alert"><h2>The directory is unavailable right now</h2><p>We cannot search the listings at the moment. This does not mean there are no matches: please try again in ${DIRECTORY_RETRY_AFTER_SECONDS} seconds. The <a href="/">offerings and guides</a> still work meanwhile.</p></div>`;
  }
  return "";
}

/** The directory page: search form, then results, a problem with the input, or a 503 notice. */
export function directoryHtml(site: SiteInfo, view: DirectoryView, choices?: DirectoryChoices): string {
  const browse = view.kind === "results" && !view.searched && choices !== undefined ? browseHtml(choices) : "";
  const main = `<h1>Business directory</h1>
<p class="lead">Search the approved public listings of trades businesses by service or name, place and country. Reading is free and needs no account.</p>
${searchForm(view, choices)}
${problemHtml(view)}
${view.kind === "results" ? resultsHtml(view) : ""}
${browse}
<p class="meta">Listings are written by the businesses themselves. Each profile has a quote link to the website's normal quote-request form, which you follow yourself. Programs can use the <a href="${API_DOCS_PATH}">REST API and MCP endpoint</a>.</p>`;
  const pageNumber = view.kind === "results" && view.page.offset > 0 ? `, page ${Math.floor(view.page.offset / view.page.limit) + 1}` : "";
  const title =
    view.kind === "results" && view.searched
      ? `${searchLabel(view.form)}${pageNumber}: business directory search`
      : `Business directory${pageNumber}`;
  return layout({
    site,
    path: DIRECTORY_PATH,
    title,
    description: `Search the approved public business listings of ${site.name} by service, name, location and country.`,
    markdownPath: markdownPath(DIRECTORY_PATH),
    section: "directory",
    main,
  });
}
