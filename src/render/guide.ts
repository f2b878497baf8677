import { LLMS_PATH, markdownPath, offeringApiPath, offeringPagePath } from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import type { Offering } from "../schemas/offering.ts";
import { escapeHtml, safeLink } from "./escape.ts";
import { layout } from "./layout.ts";
import { agentPointer, mdLink } from "./markdown.ts";
import { markdownToHtml } from "./markdown-html.ts";

/** A URL on this site as a site-relative path (so links work on any host), others as they are. */
function localHref(baseUrl: string, url: string): string {
  return url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
}

/** Where the call to action leads: the offering's own URL, or its steps when that URL is this very page. */
function callToAction(offering: Offering): string | null {
  return offering.url === offering.guideUrl ? null : safeLink(offering.url);
}

function featureLinkHtml(baseUrl: string, link: Offering["features"][number]["link"]): string {
  if (link === undefined) return "";
  const href = safeLink(link.href);
  return href === null ? "" : ` <a href="${escapeHtml(localHref(baseUrl, href))}">${escapeHtml(link.label)}</a>`;
}

export function guideHtml(site: SiteInfo, offering: Offering, guide: string): string {
  const path = offeringPagePath(offering.slug);
  const cta = callToAction(offering);
  const ctaHtml =
    cta === null
      ? `<p><a class="button" href="#steps">${escapeHtml(offering.action)}</a></p>`
      : `<p><a class="button" href="${escapeHtml(localHref(site.baseUrl, cta))}">${escapeHtml(offering.action)}</a></p>`;
  const features = offering.features
    .map(
      (feature) =>
        `<li class="card"><h3>${escapeHtml(feature.title)}</h3><p>${escapeHtml(feature.text)}${featureLinkHtml(site.baseUrl, feature.link)}</p></li>`,
    )
    .join("\n");
  const steps = offering.steps.map((step) => `<li>${escapeHtml(step)}</li>`).join("\n");
  const faq = offering.questions.map(({ question, answer }) => `<dt>${escapeHtml(question)}</dt><dd>${escapeHtml(answer)}</dd>`).join("\n");
  const main = `<p class="meta"><a href="/#offerings">Offerings</a></p>
<h1>${escapeHtml(offering.name)}</h1>
<p class="lead">${escapeHtml(offering.description)}</p>
<dl class="facts">
<dt>Who it is for</dt><dd>${escapeHtml(offering.audience)}</dd>
<dt>Access</dt><dd>${escapeHtml(offering.access)}</dd>
</dl>
${ctaHtml}
<section aria-labelledby="guide">
<h2 id="guide">Guide</h2>
${markdownToHtml(guide)}
</section>
${offering.features.length === 0 ? "" : `<section aria-labelledby="features">\n<h2 id="features">Features</h2>\n<ul class="cards">\n${features}\n</ul>\n</section>`}
${offering.steps.length === 0 ? "" : `<section aria-labelledby="steps-heading" id="steps">\n<h2 id="steps-heading">Steps</h2>\n<ol class="steps">\n${steps}\n</ol>\n</section>`}
${offering.questions.length === 0 ? "" : `<section aria-labelledby="faq">\n<h2 id="faq">Frequently asked questions</h2>\n<dl class="faq">\n${faq}\n</dl>\n</section>`}
<section aria-labelledby="access">
<h2 id="access">Access and next step</h2>
<p>${escapeHtml(offering.access)}</p>
${ctaHtml}
<p class="meta">Programs can read this offering as JSON at <a href="${escapeHtml(offeringApiPath(offering.slug))}">${escapeHtml(offeringApiPath(offering.slug))}</a>.</p>
</section>`;
  return layout({
    site,
    path,
    title: offering.name,
    description: offering.description,
    markdownPath: markdownPath(path),
    section: "offerings",
    main,
  });
}

/** Editors' one-line text as one Markdown line (it is ours, so it keeps its own emphasis). */
function line(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function guideMarkdown(site: SiteInfo, offering: Offering, guide: string): string {
  const base = site.baseUrl;
  const cta = callToAction(offering);
  const features = offering.features.map((feature) => {
    const href = feature.link === undefined ? null : safeLink(feature.link.href);
    const link =
      href === null || feature.link === undefined ? "" : ` (${mdLink(feature.link.label, href.startsWith("/") ? `${base}${href}` : href)})`;
    return `- **${line(feature.title)}**: ${line(feature.text)}${link}`;
  });
  const lines = [
    agentPointer(base),
    "",
    `# ${line(offering.name)}`,
    "",
    line(offering.description),
    "",
    `- Who it is for: ${line(offering.audience)}`,
    `- Access: ${line(offering.access)}`,
    cta === null ? `- Next step: ${line(offering.action)} (see the steps below)` : `- Next step: ${mdLink(offering.action, cta)}`,
    `- This guide in Markdown: ${offering.markdownUrl}`,
    `- JSON: ${base}${offeringApiPath(offering.slug)}`,
    "",
    guide,
    "",
  ];
  if (features.length > 0) lines.push("## Features", "", ...features, "");
  if (offering.steps.length > 0) lines.push("## Steps", "", ...offering.steps.map((step, i) => `${i + 1}. ${line(step)}`), "");
  if (offering.questions.length > 0) {
    lines.push("## Frequently asked questions", "");
    for (const { question, answer } of offering.questions) lines.push(`### ${line(question)}`, "", line(answer), "");
  }
  lines.push(
    "## More",
    "",
    `- ${mdLink("All offerings", `${base}${markdownPath("/")}`)}`,
    `- ${mdLink("llms.txt", `${base}${LLMS_PATH}`)}: the index of this site for agents`,
    "",
  );
  return lines.join("\n");
}
