import { fillPattern, HOME_PATH, offeringPagePath, SITE_ROUTES } from "../src/contract.ts";
import { serviceSlugs } from "../src/render/directory-lists.ts";
import { sitemapPartCount } from "../src/render/sitemap.ts";
import type { BusinessFrontMatter, OfferingFrontMatter, SiteFrontMatter } from "../src/schemas/content.ts";
import type { ListPaging } from "../src/snapshot/files.ts";
import { isVersion } from "../src/snapshot/releases.ts";
import { fold } from "../src/snapshot/text.ts";
import type { ContentProblem } from "./content.ts";
import type { Model } from "./derive.ts";
import { markdownLinks } from "./markdown-links.ts";
import type { Entry } from "./validate.ts";

/**
 * Warnings: content that is valid but almost certainly not what the editor meant. They are
 * printed and counted with the errors' `path:line:col` and never change the exit code.
 */

/**
 * Each kind of warning, by the stable name the code groups it under, and what the build calls it
 * when it says how many more of the kind it left out.
 */
export const WARNING_KINDS = {
  "duplicate-name": "same name in the same town",
  "html-in-description": "HTML in a description",
  "http-quote-url": "quoteUrl over http:",
  placeholder: "placeholder TODO",
  "broken-link": "link to no page of the site",
} as const;
export type WarningKind = keyof typeof WARNING_KINDS;

export interface ContentWarning extends ContentProblem {
  readonly kind: WarningKind;
}

/** What `npm run new` writes where an editor has to fill something in. */
export const PLACEHOLDER = "TODO";

/** An HTML tag or comment: descriptions are plain text, so these would be shown as typed. */
const HTML_PATTERN = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<!--/;

/** Name and city compared as people read them: case, accents and spacing aside. */
function sameness(text: string): string {
  return fold(text).replace(/\s+/g, " ").trim();
}

/** What two listings share when people cannot tell them apart: their name in the same town. */
export function sameNameKey(name: string, location: { readonly city: string; readonly country: string }): string {
  return `${sameness(name)}\n${sameness(location.city)}\n${location.country}`;
}

/**
 * What a listing warns about on its own, and its same-name key (null when it is not approved):
 * made from its file alone, so kept in the cache with the file (build/cache.ts).
 */
export interface OwnWarnings {
  readonly sameNameKey: string | null;
  readonly warnings: readonly ContentWarning[];
}

/** What a listing warns about on its own (HTML in its description, an http: quote URL, placeholders), and its same-name key. */
function ownWarnings({ file, data, body }: Entry<BusinessFrontMatter>): OwnWarnings {
  const warnings: ContentWarning[] = [];
  const html = HTML_PATTERN.exec(body);
  if (html !== null) {
    warnings.push({
      kind: "html-in-description",
      file,
      field: "(body)",
      message: `holds HTML (${html[0].replace(/\s+/g, " ").slice(0, 40)}), which pages show as text, not as markup; write plain text`,
      at: { body: html.index },
    });
  }
  if (/^http:/i.test(data.quoteUrl)) {
    warnings.push({
      kind: "http-quote-url",
      file,
      field: "quoteUrl",
      message: "uses http:, which browsers flag as not secure; use https: if the business's site has it",
      at: { value: ["quoteUrl"] },
    });
  }
  warnings.push(...placeholderWarnings(file, data, body));
  return { sameNameKey: data.status === "approved" ? sameNameKey(data.name, data.location) : null, warnings };
}

/**
 * Warnings about listings, each on its own or against the others. A listing's own are those the
 * cache has for it, else made and given to `made` (which keeps them for the next build).
 */
export function listingWarnings(
  businesses: readonly Entry<BusinessFrontMatter>[],
  made?: (file: string, own: OwnWarnings) => void,
): ContentWarning[] {
  const warnings: ContentWarning[] = [];
  const named = new Map<string, string>();
  for (const entry of businesses) {
    let own = entry.cached?.own;
    if (own === undefined) {
      own = ownWarnings(entry);
      made?.(entry.file, own);
    }
    if (own.sameNameKey !== null) {
      const other = named.get(own.sameNameKey);
      if (other === undefined) named.set(own.sameNameKey, entry.file);
      else {
        const { file, data } = entry;
        warnings.push({
          kind: "duplicate-name",
          file,
          field: "name",
          message: `"${data.name}" in ${data.location.city} is also the name of ${other}: people cannot tell the two apart (merge them, or make the names differ)`,
          at: { value: ["name"] },
        });
      }
    }
    for (const warning of own.warnings) warnings.push(warning);
  }
  return warnings;
}

const PLACEHOLDER_WORD = new RegExp(`\\b${PLACEHOLDER}\\b`);

/** Values `npm run new` left as placeholders (the word TODO; editors' own `private` notes aside). */
export function placeholderWarnings(file: string, data: unknown, body: string): ContentWarning[] {
  const warnings: ContentWarning[] = [];
  const placeholder = (field: string, at: ContentProblem["at"]) =>
    warnings.push({ kind: "placeholder", file, field, message: `still holds the placeholder ${PLACEHOLDER}`, at });
  const visit = (value: unknown, path: (string | number)[]) => {
    if (path.length === 1 && path[0] === "private") return;
    if (typeof value === "string") {
      if (PLACEHOLDER_WORD.test(value)) placeholder(fieldName(path), { value: path });
    } else if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, [...path, i]);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
    }
  };
  visit(data, []);
  const at = PLACEHOLDER_WORD.exec(body)?.index ?? -1;
  if (at !== -1) placeholder("(body)", { body: at });
  return warnings;
}

function fieldName(path: readonly (string | number)[]): string {
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}

/**
 * Whether a path of this site leads to something, given the approved content: a route of the
 * manifest (SITE_ROUTES, the patterns the server registers) with its parameters as the content
 * gives them, matched exactly as the server matches it (no trailing slash). A listing's slug or
 * id in any case leads to its page (by a redirect when it is not the slug).
 */
function linkTargets(model: Model): (path: string) => boolean {
  // Every listing's slug and id, made when a link first matches a listing's route: 0.15 s at 100,000 listings.
  let listings: Set<string> | undefined;
  const isListing = (identifier: string) => {
    if (listings === undefined) {
      listings = new Set();
      for (const { slug, id } of model.businesses) listings.add(slug).add(id.toLowerCase());
    }
    return listings.has(identifier.toLowerCase());
  };
  // The lists by country and by service, by the names their URLs give them (src/render/directory-lists.ts).
  const countryLists = new Map([...model.lists.country].map(([code, paging]) => [code.toLowerCase(), paging]));
  const listed = model.services.map((service) => service.name).filter((name) => model.lists.service.has(name));
  const serviceLists = new Map(serviceSlugs(listed).map((slug, i) => [slug, model.lists.service.get(listed[i] ?? "") as ListPaging]));
  const htmlPages = SITE_ROUTES.filter((route) => route.answers === "page" && route.params === "fixed").length + model.offerings.length;
  const parts = sitemapPartCount({ catalog: Array(htmlPages).fill(""), listings: { count: model.businesses.length, slugAt: () => "" } });

  const exact = new Set<string>();
  /** Routes with a parameter that the content alone does not list: each with what its value must be. */
  const matched: [route: RegExp, leads: (value: string) => boolean][] = [];
  const routeOf = (pattern: string) => new RegExp(`^${pattern.replace(/\./g, "\\.").replace(/:\w+/, "([^/]+)")}$`);
  /** Each list's pages and index parts: the first at a pattern without `:page` or `:part`, the others at the pattern with it. */
  const addLists = (pattern: string, lists: ReadonlyMap<string, ListPaging>) => {
    for (const [name, paging] of lists) {
      const numbered = pattern.includes(":page") ? paging.pages.length : pattern.includes(":part") ? paging.parts.length : 0;
      if (numbered === 0) exact.add(fillPattern(pattern, { name }));
      for (let n = 2; n <= numbered; n += 1) exact.add(fillPattern(pattern, { name, page: n, part: n }));
    }
  };
  for (const { pattern, params } of SITE_ROUTES) {
    if (params === "fixed") exact.add(pattern);
    else if (params === "offering") for (const { slug } of model.offerings) exact.add(fillPattern(pattern, { slug }));
    else if (params === "listing") matched.push([routeOf(pattern), isListing]);
    // Which releases the history holds is known only once the snapshot is built: any version may lead to one.
    else if (params === "release") matched.push([routeOf(pattern), isVersion]);
    else if (params === "country") addLists(pattern, countryLists);
    else if (params === "service") addLists(pattern, serviceLists);
    else for (let part = 1; part <= parts; part += 1) exact.add(fillPattern(pattern, { part }));
  }
  return (path) =>
    exact.has(path) ||
    matched.some(([route, leads]) => {
      const value = route.exec(path)?.[1];
      return value !== undefined && leads(value);
    });
}

/** A link's path on this site (exactly as the server matches it), or null for a link elsewhere or within the page. */
function sitePath(href: string, baseUrl: string, pagePath: string): string | null {
  if (href === "" || href.startsWith("#")) return null;
  let url: URL;
  try {
    url = new URL(href, `${baseUrl}${pagePath}`);
  } catch {
    return null;
  }
  if (url.origin !== new URL(baseUrl).origin) return null;
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

/**
 * Links in the guides (offerings' bodies and feature links) and the homepage text that point at
 * a page of this site that the build does not publish: a mistyped slug, a listing not approved.
 */
export function linkWarnings(
  model: Model,
  offerings: readonly Entry<OfferingFrontMatter>[],
  site: Entry<SiteFrontMatter>,
): ContentWarning[] {
  // Made at the first link to this site, if there is one: it lists every list page.
  let leads: ((path: string) => boolean) | undefined;
  const warnings: ContentWarning[] = [];
  const check = (file: string, pagePath: string, href: string, at: ContentProblem["at"], field: string) => {
    const path = sitePath(href, model.baseUrl, pagePath);
    if (path === null) return;
    leads ??= linkTargets(model);
    if (!leads(path))
      warnings.push({ kind: "broken-link", file, field, message: `links to ${path}, which is not a page of this site`, at });
  };
  for (const { file, slug, data, body } of offerings) {
    for (const { href, offset } of markdownLinks(body)) check(file, offeringPagePath(slug), href, { body: offset }, "(body)");
    data.features.forEach((feature, i) => {
      if (feature.link !== undefined) {
        check(file, offeringPagePath(slug), feature.link.href, { value: ["features", i, "link", "href"] }, `features[${i}].link.href`);
      }
    });
  }
  for (const { href, offset } of markdownLinks(site.body)) check(site.file, HOME_PATH, href, { body: offset }, "(body)");
  return warnings;
}
