import {
  API_DOCS_PATH,
  businessPagePath,
  CONTACT_PATH,
  DIRECTORY_DEFAULT_LIMIT,
  DIRECTORY_PATH,
  HOME_PATH,
  htmlPath,
  LLMS_FULL_PATH,
  LLMS_PATH,
  markdownPath,
  offeringPagePath,
  ROBOTS_PATH,
  SITEMAP_PATH,
  STYLESHEET_PATH,
} from "../src/contract.ts";
import { page } from "../src/core/paging.ts";
import { apiDocsHtml, apiDocsMarkdown } from "../src/render/api-docs.ts";
import { profileHtml, profileMarkdown } from "../src/render/business.ts";
import { contactHtml, contactMarkdown } from "../src/render/contact.ts";
import { directoryHtml, directoryOverviewMarkdown } from "../src/render/directory.ts";
import { guideHtml, guideMarkdown } from "../src/render/guide.ts";
import { homeHtml, homeMarkdown } from "../src/render/home.ts";
import { llmsFullTxt, llmsTxt } from "../src/render/llms.ts";
import { robotsTxt, sitemapXml } from "../src/render/sitemap.ts";
import { STYLESHEET } from "../src/render/style.ts";
import type { Model } from "./derive.ts";

/**
 * The documents written beside the data, by URL path: Markdown pages, llms.txt and the like.
 * The server answers them from memory; a static host serves them from dist/ as they are.
 * The agents' documents come first (llms.txt, guides, API docs), then the HTML pages.
 */
export function pages(model: Model): Map<string, string> {
  const { site, intro, offerings, guides, businesses } = model;
  const guide = (slug: string) => guides.get(slug) ?? "";
  const home = { site, intro, offerings, businessCount: businesses.length };
  const out = new Map<string, string>();

  out.set(LLMS_PATH, llmsTxt({ site, offerings }));
  out.set(LLMS_FULL_PATH, llmsFullTxt({ site, intro, offerings, guides, businesses }));
  for (const offering of offerings)
    out.set(markdownPath(offeringPagePath(offering.slug)), guideMarkdown(site, offering, guide(offering.slug)));
  out.set(markdownPath(API_DOCS_PATH), apiDocsMarkdown(site));
  out.set(markdownPath(HOME_PATH), homeMarkdown(home));
  out.set(markdownPath(DIRECTORY_PATH), directoryOverviewMarkdown(site, businesses));
  for (const business of businesses) out.set(markdownPath(businessPagePath(business.slug)), profileMarkdown(site, business));
  out.set(markdownPath(CONTACT_PATH), contactMarkdown(site));

  const htmlPages: string[] = [HOME_PATH];
  out.set(htmlPath(HOME_PATH), homeHtml(home));
  for (const offering of offerings) {
    const path = offeringPagePath(offering.slug);
    out.set(htmlPath(path), guideHtml(site, offering, guide(offering.slug)));
    htmlPages.push(path);
  }
  // The directory's first page: what a static host serves at /businesses, and what the server answers there when nothing is searched.
  const first = page(businesses, 0, DIRECTORY_DEFAULT_LIMIT);
  out.set(htmlPath(DIRECTORY_PATH), directoryHtml(site, { kind: "results", form: {}, searched: false, page: first }));
  htmlPages.push(DIRECTORY_PATH);
  for (const business of businesses) {
    const path = businessPagePath(business.slug);
    out.set(htmlPath(path), profileHtml(site, business));
    htmlPages.push(path);
  }
  out.set(htmlPath(CONTACT_PATH), contactHtml(site));
  out.set(htmlPath(API_DOCS_PATH), apiDocsHtml(site));
  htmlPages.push(CONTACT_PATH, API_DOCS_PATH);

  out.set(SITEMAP_PATH, sitemapXml(model.baseUrl, htmlPages));
  out.set(ROBOTS_PATH, robotsTxt(model.baseUrl));
  out.set(STYLESHEET_PATH, STYLESHEET);
  return out;
}
