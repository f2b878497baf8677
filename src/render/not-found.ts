import {
  API_DOCS_PATH,
  businessPagePath,
  CONTACT_PATH,
  DIRECTORY_PATH,
  HOME_PATH,
  LLMS_PATH,
  markdownPath,
  OPENAPI_PATH,
} from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import type { Offering } from "../schemas/offering.ts";
import { escapeHtml } from "./escape.ts";
import { layout } from "./layout.ts";
import { agentPointer, mdLink } from "./markdown.ts";

/** The 404 page: where to go instead. The requested path is never echoed. */

export function notFoundMarkdown(site: SiteInfo, offerings: readonly Offering[]): string {
  const base = site.baseUrl;
  return [
    agentPointer(base),
    "",
    "# Page not found (404)",
    "",
    "There is no page at this address. Where to go instead:",
    "",
    `- ${mdLink("llms.txt", `${base}${LLMS_PATH}`)}: the index of this site for agents`,
    `- ${mdLink("Homepage", `${base}${markdownPath(HOME_PATH)}`)}: what this service is`,
    `- ${mdLink("Business directory", `${base}${markdownPath(DIRECTORY_PATH)}`)}: search approved listings; a profile's Markdown is at ${markdownPath(businessPagePath("{slug}"))}`,
    `- ${mdLink("API documentation", `${base}${markdownPath(API_DOCS_PATH)}`)}: REST, MCP and Markdown pages`,
    `- ${mdLink("OpenAPI document", `${base}${OPENAPI_PATH}`)}`,
    `- ${mdLink("Contact", `${base}${markdownPath(CONTACT_PATH)}`)}`,
    "",
    "## Offering guides",
    "",
    ...offerings.map((offering) => `- ${mdLink(offering.name, offering.markdownUrl)}`),
    "",
  ].join("\n");
}

export function notFoundHtml(site: SiteInfo, offerings: readonly Offering[]): string {
  const guides = offerings.map((offering) => `<li><a href="${escapeHtml(offering.href)}">${escapeHtml(offering.name)}</a></li>`).join("\n");
  const main = `<h1>Page not found</h1>
<p class="lead">There is no page at this address. It may have moved, or the listing may no longer be published.</p>
<ul>
<li><a href="${HOME_PATH}">Homepage</a></li>
<li><a href="${DIRECTORY_PATH}">Search the business directory</a></li>
<li><a href="${API_DOCS_PATH}">API and MCP documentation</a></li>
<li><a href="${CONTACT_PATH}">Contact us</a></li>
</ul>
<h2>Offering guides</h2>
<ul>
${guides}
</ul>`;
  return layout({
    site,
    path: HOME_PATH,
    title: "Page not found",
    description: "There is no page at this address.",
    markdownPath: null,
    section: "none",
    main,
  });
}
