import { API_DOCS_PATH, CONTACT_PATH, DIRECTORY_PATH, markdownPath } from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import { type Inline, LLMS_ITEM, link, type PageModel, pageHtml, pageMarkdown } from "./page-model.ts";

const SCOPE = [
  "We can help with this directory: a listing that looks wrong, a broken page, or a question about the API, MCP endpoint or Markdown pages.",
  "We cannot pass messages to a business, send quote requests or book work. To ask a business for a quote, open its profile in the directory and follow its quote link yourself.",
];

/** The contact page, built once for both renderings. */
function contact(site: SiteInfo): PageModel {
  const { email, hours, responseTime, address } = site.contact;
  const rows: { label: string; value: Inline[] }[] = [{ label: "Email", value: [link(email, `mailto:${encodeURI(email)}`)] }];
  if (hours !== undefined) rows.push({ label: "Hours", value: [hours] });
  if (responseTime !== undefined) rows.push({ label: "Replies", value: [responseTime] });
  if (address !== undefined) rows.push({ label: "Address", value: [address] });
  rows.push({ label: "Operator", value: [site.operator] });
  return {
    path: CONTACT_PATH,
    title: "Contact",
    description: `Contact details of ${site.name}.`,
    markdownPath: markdownPath(CONTACT_PATH),
    section: "contact",
    blocks: [
      { kind: "heading", level: 1, text: ["Contact"] },
      { kind: "paragraph", className: "lead", text: [`How to reach the people who run ${site.name}.`] },
      { kind: "facts", rows },
      ...SCOPE.map((paragraph) => ({ kind: "paragraph", text: [paragraph] }) as const),
      {
        kind: "paragraph",
        text: [
          link("Search the business directory", DIRECTORY_PATH, { md: markdownPath(DIRECTORY_PATH) }),
          " · ",
          link("API documentation", API_DOCS_PATH, { md: markdownPath(API_DOCS_PATH) }),
          { agents: [" · ", ...LLMS_ITEM] },
        ],
      },
    ],
  };
}

export function contactMarkdown(site: SiteInfo): string {
  return pageMarkdown(site, contact(site));
}

export function contactHtml(site: SiteInfo): string {
  return pageHtml(site, contact(site));
}
