import { HOME_PATH, markdownPath, offeringApiPath, offeringPagePath } from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import type { Offering } from "../schemas/offering.ts";
import { safeLink } from "./escape.ts";
import { editorial } from "./markdown-html.ts";
import { type Block, type Card, link, moreForAgents, type PageModel, pageHtml, pageMarkdown } from "./page-model.ts";

/** A URL on this site as a site-relative path (so links work on any host), others as they are. */
function localHref(baseUrl: string, url: string): string {
  return url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
}

/** Where the call to action leads: the offering's own URL, or its steps when that URL is this very page. */
function callToAction(offering: Offering): string | null {
  return offering.url === offering.guideUrl ? null : safeLink(offering.url);
}

/** A guide, built once for both renderings. */
function guide(site: SiteInfo, offering: Offering, body: string): PageModel {
  const base = site.baseUrl;
  const path = offeringPagePath(offering.slug);
  const cta = callToAction(offering);
  const api = offeringApiPath(offering.slug);
  const button: Block = {
    kind: "paragraph",
    only: "people",
    text: [link(offering.action, cta === null ? "#steps" : localHref(base, cta), { className: "button" })],
  };
  const features: Card[] = offering.features.map((feature) => {
    const href = feature.link === undefined ? null : safeLink(feature.link.href);
    const more = href === null || feature.link === undefined ? [] : [" ", link(feature.link.label, localHref(base, href), { md: href })];
    return { title: [feature.title], lines: [{ text: [feature.text, ...more] }] };
  });
  const sections: Block[] = [];
  if (features.length > 0)
    sections.push({ kind: "section", id: "features", heading: ["Features"], blocks: [{ kind: "cards", cards: features }] });
  if (offering.steps.length > 0) {
    sections.push({
      kind: "section",
      id: "steps-heading",
      anchor: "steps",
      heading: ["Steps"],
      blocks: [{ kind: "list", ordered: true, className: "steps", items: offering.steps.map((step) => [step]) }],
    });
  }
  if (offering.questions.length > 0) {
    sections.push({
      kind: "section",
      id: "faq",
      heading: ["Frequently asked questions"],
      blocks: [{ kind: "faq", items: offering.questions }],
    });
  }
  return {
    path,
    title: offering.name,
    description: offering.description,
    markdownPath: markdownPath(path),
    section: "offerings",
    blocks: [
      { kind: "paragraph", className: "meta", only: "people", text: [link("Offerings", "/#offerings")] },
      { kind: "heading", level: 1, text: [offering.name] },
      { kind: "paragraph", className: "lead", text: [offering.description] },
      {
        kind: "facts",
        rows: [
          { label: "Who it is for", value: [offering.audience] },
          { label: "Access", value: [offering.access] },
          {
            label: "Next step",
            value: cta === null ? [`${offering.action} (see the steps below)`] : [link(offering.action, cta)],
            only: "agents",
          },
          { label: "This guide in Markdown", value: [offering.markdownUrl], only: "agents" },
          { label: "JSON", value: [`${base}${api}`], only: "agents" },
        ],
      },
      button,
      { kind: "section", id: "guide", heading: ["Guide"], blocks: [editorial(body)] },
      ...sections,
      {
        kind: "section",
        id: "access",
        heading: ["Access and next step"],
        blocks: [
          { kind: "paragraph", text: [offering.access] },
          button,
          // A link for people; for agents the path as code, so that no index or checker takes the JSON for a page.
          {
            kind: "paragraph",
            className: "meta",
            only: "people",
            text: ["Programs can read this offering as JSON at ", link(api, api), "."],
          },
          { kind: "paragraph", only: "agents", text: ["Programs can read this offering as JSON at ", { code: api }, "."] },
        ],
      },
      moreForAgents([[link("All offerings", markdownPath(HOME_PATH))]]),
    ],
  };
}

export function guideHtml(site: SiteInfo, offering: Offering, body: string): string {
  return pageHtml(site, guide(site, offering, body));
}

export function guideMarkdown(site: SiteInfo, offering: Offering, body: string): string {
  return pageMarkdown(site, guide(site, offering, body));
}
