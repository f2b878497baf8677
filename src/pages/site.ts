import type { SiteFrontMatter, SiteInfo } from "../schemas/content.ts";

export type { SiteInfo };

/** The site facts the snapshot publishes (data/site.json): site.md's front matter and the base URL. */
export function siteInfo(baseUrl: string, site: SiteFrontMatter): SiteInfo {
  const { name, summary, operator, contact } = site;
  return { baseUrl, name, summary, operator, contact };
}
