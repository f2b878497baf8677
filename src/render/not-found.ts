import { API_DOCS_PATH, businessPagePath, CONTACT_PATH, DIRECTORY_PATH, HOME_PATH, markdownPath, OPENAPI_PATH } from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import type { Offering } from "../schemas/offering.ts";
import { searchFormHtml } from "./directory-form.ts";
import { LLMS_ITEM, link, type PageModel, pageHtml, pageMarkdown } from "./page-model.ts";

/** The 404 page, built once for both renderings: where to go instead. The requested path is never echoed. */
function notFound(offerings: readonly Offering[]): PageModel {
  const page = (label: string, path: string) => link(label, path, { md: markdownPath(path) });
  return {
    path: HOME_PATH,
    title: "Page not found",
    description: "There is no page at this address.",
    markdownPath: null,
    section: "none",
    blocks: [
      { kind: "heading", level: 1, text: ["Page not found", { agents: [" (404)"] }] },
      {
        kind: "paragraph",
        className: "lead",
        text: [
          "There is no page at this address. It may have moved, or the listing may no longer be published.",
          { agents: [" Where to go instead:"] },
        ],
      },
      { kind: "heading", level: 2, only: "people", text: ["Search the business directory"] },
      { kind: "html", only: "people", html: searchFormHtml({ form: {}, invalid: null, countries: undefined }) },
      {
        kind: "list",
        only: "agents",
        items: [LLMS_ITEM, [link("OpenAPI document", OPENAPI_PATH)]],
      },
      {
        kind: "list",
        items: [
          [page("Homepage", HOME_PATH), { agents: [": what this service is"] }],
          [
            page("Search the business directory", DIRECTORY_PATH),
            { agents: [`: approved listings; a profile's Markdown is at ${markdownPath(businessPagePath("{slug}"))}`] },
          ],
          [page("API and MCP documentation", API_DOCS_PATH), { agents: [": REST, MCP and Markdown pages"] }],
          [page("Contact us", CONTACT_PATH)],
        ],
      },
      { kind: "heading", level: 2, text: ["Offering guides"] },
      { kind: "list", items: offerings.map((offering) => [link(offering.name, offering.href, { md: offering.markdownUrl })]) },
    ],
  };
}

export function notFoundMarkdown(site: SiteInfo, offerings: readonly Offering[]): string {
  return pageMarkdown(site, notFound(offerings));
}

export function notFoundHtml(site: SiteInfo, offerings: readonly Offering[]): string {
  return pageHtml(site, notFound(offerings));
}
