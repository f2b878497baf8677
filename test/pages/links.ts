import { markdownLinks as linksOf } from "../../build/markdown-links.ts";

/** Every link destination in a Markdown document (links and autolinks, not images or code). */
export function markdownLinks(markdown: string): string[] {
  return linksOf(markdown)
    .filter((link) => !link.image)
    .map((link) => link.href);
}

/** Every <loc> of a sitemap. */
export function sitemapLinks(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => (match[1] ?? "").replace(/&amp;/g, "&"));
}
