import { apiCatalog } from "../src/api/api-catalog.ts";
import {
  API_CATALOG_PATH,
  API_DOCS_PATH,
  businessPagePath,
  CONTACT_PATH,
  DIRECTORY_DEFAULT_LIMIT,
  DIRECTORY_PATH,
  HOME_PATH,
  htmlPath,
  LLMS_FULL_MAX_BYTES,
  LLMS_FULL_PATH,
  LLMS_MAX_CHARACTERS,
  LLMS_PATH,
  markdownPath,
  offeringPagePath,
  ROBOTS_PATH,
  SITEMAP_PATH,
  STYLESHEET_PATH,
  sitemapPartPath,
} from "../src/contract.ts";
import { listPageRanks } from "../src/core/lists.ts";
import { page } from "../src/core/paging.ts";
import { apiDocsHtml, apiDocsMarkdown } from "../src/render/api-docs.ts";
import { profileHtml, profileMarkdown } from "../src/render/business.ts";
import { contactHtml, contactMarkdown } from "../src/render/contact.ts";
import { directoryHtml, directoryMarkdown } from "../src/render/directory.ts";
import { type DirectorySummary, listHtml, listMarkdown } from "../src/render/directory-lists.ts";
import { choicesOf } from "../src/render/directory-view.ts";
import { guideHtml, guideMarkdown } from "../src/render/guide.ts";
import { homeHtml, homeMarkdown } from "../src/render/home.ts";
import { llmsFullTxt, llmsTxt } from "../src/render/llms.ts";
import { listIndexTxt } from "../src/render/llms-index.ts";
import { robotsTxt, type SitemapPages, sitemapPartCount, sitemapPartXml, sitemapXml } from "../src/render/sitemap.ts";
import { STYLESHEET } from "../src/render/style.ts";
import { contentSignalOf } from "../src/schemas/content.ts";
import type { DirectoryIndex } from "../src/snapshot/directory-index.ts";
import type { Model } from "./derive.ts";
import type { PageReuse } from "./page-reuse.ts";

/**
 * The documents the server keeps in memory (the manifest's `pages`), by URL path: the catalog's
 * pages in Markdown and HTML, llms.txt, the directory overview and first page, robots.txt, the
 * API catalog and the stylesheet. Their number and size do not grow with the directory.
 */
export function catalogPages(model: Model, summary: DirectorySummary): Map<string, string> {
  const { site, intro, offerings, guides, businesses } = model;
  const guide = (slug: string) => guides.get(slug) ?? "";
  const home = { site, intro, offerings, businessCount: businesses.length };
  const out = new Map<string, string>();

  out.set(LLMS_PATH, llmsTxt({ site, offerings, summary }));
  out.set(LLMS_FULL_PATH, llmsFullTxt({ site, intro, offerings, guides, businessCount: businesses.length }));
  for (const offering of offerings) {
    out.set(markdownPath(offeringPagePath(offering.slug)), guideMarkdown(site, offering, guide(offering.slug)));
  }
  out.set(markdownPath(API_DOCS_PATH), apiDocsMarkdown(site));
  out.set(markdownPath(HOME_PATH), homeMarkdown(home));
  // The directory's first page: what a static host serves at /businesses, and what the server answers there when nothing is searched.
  const firstPage = {
    kind: "results",
    form: {},
    searched: false,
    page: page(businesses, 0, DIRECTORY_DEFAULT_LIMIT),
    total: businesses.length,
  } as const;
  out.set(markdownPath(DIRECTORY_PATH), directoryMarkdown(site, firstPage, choicesOf(summary)));
  out.set(markdownPath(CONTACT_PATH), contactMarkdown(site));

  // HTML pages, in the order the sitemap lists them.
  out.set(htmlPath(HOME_PATH), homeHtml(home));
  for (const offering of offerings) out.set(htmlPath(offeringPagePath(offering.slug)), guideHtml(site, offering, guide(offering.slug)));
  out.set(htmlPath(DIRECTORY_PATH), directoryHtml(site, firstPage, choicesOf(summary)));
  out.set(htmlPath(CONTACT_PATH), contactHtml(site));
  out.set(htmlPath(API_DOCS_PATH), apiDocsHtml(site));

  out.set(ROBOTS_PATH, robotsTxt(model.baseUrl, contentSignalOf(site)));
  out.set(API_CATALOG_PATH, apiCatalog(model.baseUrl));
  out.set(STYLESHEET_PATH, STYLESHEET);
  checkIndexSizes(out);
  return out;
}

/**
 * llms.txt and llms-full.txt within the sizes agents can take in whole (interface §3). Neither
 * grows with the directory; the catalog's own text (at most 20 offerings, their descriptions and
 * guides) could make them too long, and then the build fails rather than publish them.
 */
function checkIndexSizes(documents: ReadonlyMap<string, string>): void {
  const llms = documents.get(LLMS_PATH)?.length ?? 0;
  if (llms >= LLMS_MAX_CHARACTERS) {
    throw new Error(
      `${LLMS_PATH} would be ${llms} characters, over the ${LLMS_MAX_CHARACTERS} it may have: shorten the offerings' names and descriptions.`,
    );
  }
  const full = Buffer.byteLength(documents.get(LLMS_FULL_PATH) ?? "");
  if (full >= LLMS_FULL_MAX_BYTES) {
    throw new Error(
      `${LLMS_FULL_PATH} would be ${full} bytes, over the ${LLMS_FULL_MAX_BYTES} it may have: shorten the guides or the homepage text.`,
    );
  }
}

/**
 * Every other document, one at a time, for the build to write and forget: each listing's
 * profile in Markdown and HTML (when `profiles`: STATIC_PAGES), the lists by country and service
 * (pages in HTML and Markdown, and their llms.txt indexes, each under LLMS_MAX_CHARACTERS), and
 * the sitemap. A static host serves them from dist/; the server renders the same profiles from
 * the listings, so a snapshot for the server alone leaves them out. Profiles and lists the
 * previous snapshot's pages are kept for (`reuse`) are left out.
 */
export function* listingPages(
  model: Model,
  summary: DirectorySummary,
  index: DirectoryIndex,
  sitemap: SitemapPages,
  reuse: PageReuse | null = null,
  profiles = true,
): Generator<[string, string]> {
  const { site, businesses } = model;
  for (const business of profiles ? businesses : []) {
    if (reuse?.keepsProfile(business.slug)) continue;
    const path = businessPagePath(business.slug);
    yield [markdownPath(path), profileMarkdown(site, business)];
    yield [htmlPath(path), profileHtml(site, business)];
  }
  const lists = [
    ...summary.countries.map((list) => ({ list, kind: "country" as const, entry: index.countries.indexOf(list.code) })),
    ...summary.services.map((list, i) => ({ list, kind: "service" as const, entry: i })),
  ];
  const within = (path: string, text: string): [string, string] => {
    if (text.length >= LLMS_MAX_CHARACTERS) {
      throw new Error(`${path} would be ${text.length} characters, over the ${LLMS_MAX_CHARACTERS} it may have: shorten BASE_URL.`);
    }
    return [path, text];
  };
  for (const { list, kind, entry } of lists) {
    if (reuse?.keepsList(list.indexPathOf(1))) continue;
    const postings = kind === "country" ? index.countryPostings : index.servicePostings;
    const listed = (starts: readonly number[], n: number) =>
      Array.from(listPageRanks(postings, entry, starts, n), (rank) => businesses[rank] as (typeof businesses)[number]);
    for (let n = 1; n <= list.paging.pages.length; n += 1) {
      const shown = listed(list.paging.pages, n);
      yield within(list.pathOf(n), listMarkdown(site, list, kind, n, shown));
      yield [htmlPath(list.pagePathOf(n)), listHtml(site, list, kind, n, shown)];
    }
    for (let n = 1; n <= list.paging.parts.length; n += 1) {
      yield within(list.indexPathOf(n), listIndexTxt(site, list, kind, n, listed(list.paging.parts, n)));
    }
  }
  yield [SITEMAP_PATH, sitemapXml(model.baseUrl, sitemap)];
  for (let n = 1; n <= sitemapPartCount(sitemap); n += 1) yield [sitemapPartPath(n), sitemapPartXml(model.baseUrl, sitemap, n) ?? ""];
}
