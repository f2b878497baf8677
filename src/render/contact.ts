import { API_DOCS_PATH, CONTACT_PATH, DIRECTORY_PATH, LLMS_PATH, markdownPath } from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import { escapeHtml } from "./escape.ts";
import { layout } from "./layout.ts";
import { agentPointer } from "./markdown.ts";

function facts(site: SiteInfo): [string, string][] {
  const { contact } = site;
  const rows: [string, string][] = [["Email", contact.email]];
  if (contact.hours !== undefined) rows.push(["Hours", contact.hours]);
  if (contact.responseTime !== undefined) rows.push(["Replies", contact.responseTime]);
  if (contact.address !== undefined) rows.push(["Address", contact.address]);
  rows.push(["Operator", site.operator]);
  return rows;
}

const SCOPE = [
  "We can help with this directory: a listing that looks wrong, a broken page, or a question about the API, MCP endpoint or Markdown pages.",
  "We cannot pass messages to a business, send quote requests or book work. To ask a business for a quote, open its profile in the directory and follow its quote link yourself.",
];

export function contactMarkdown(site: SiteInfo): string {
  const base = site.baseUrl;
  return [
    agentPointer(base),
    "",
    "# Contact",
    "",
    `How to reach the people who run ${site.name}.`,
    "",
    ...facts(site).map(([label, value]) => `- ${label}: ${value.replace(/\s+/g, " ")}`),
    "",
    ...SCOPE.flatMap((paragraph) => [paragraph, ""]),
    `- [Business directory](${base}${markdownPath(DIRECTORY_PATH)})`,
    `- [API documentation](${base}${markdownPath(API_DOCS_PATH)})`,
    `- [llms.txt](${base}${LLMS_PATH})`,
    "",
  ].join("\n");
}

export function contactHtml(site: SiteInfo): string {
  const rows = facts(site)
    .map(([label, value]) =>
      label === "Email"
        ? `<dt>${label}</dt><dd><a href="mailto:${escapeHtml(encodeURI(value))}">${escapeHtml(value)}</a></dd>`
        : `<dt>${label}</dt><dd>${escapeHtml(value)}</dd>`,
    )
    .join("\n");
  const main = `<h1>Contact</h1>
<p class="lead">How to reach the people who run ${escapeHtml(site.name)}.</p>
<dl class="facts">
${rows}
</dl>
${SCOPE.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join("\n")}
<p><a href="${DIRECTORY_PATH}">Search the business directory</a> · <a href="${API_DOCS_PATH}">API documentation</a></p>`;
  return layout({
    site,
    path: CONTACT_PATH,
    title: "Contact",
    description: `Contact details of ${site.name}.`,
    markdownPath: markdownPath(CONTACT_PATH),
    section: "contact",
    main,
  });
}
