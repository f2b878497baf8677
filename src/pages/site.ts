import type { SiteFrontMatter } from "../schemas/content.ts";
import type { Snapshot } from "../snapshot/types.ts";
import { SITE_DATA_PATH } from "./paths.ts";

/** What every page shows of the site itself. */
export interface SiteInfo {
  readonly baseUrl: string;
  readonly name: string;
  readonly summary: string;
  readonly operator: string;
  readonly contact: SiteFrontMatter["contact"];
}

export function siteInfo(baseUrl: string, site: SiteFrontMatter): SiteInfo {
  const { name, summary, operator, contact } = site;
  return { baseUrl, name, summary, operator, contact };
}

/** The JSON the build writes at SITE_DATA_PATH. */
export function siteData(info: SiteInfo): string {
  return `${JSON.stringify(info, null, 2)}\n`;
}

const cache = new WeakMap<Snapshot, SiteInfo>();

/** The site facts of a loaded snapshot; a snapshot without them still gets usable pages. */
export function siteOf(snapshot: Snapshot): SiteInfo {
  const cached = cache.get(snapshot);
  if (cached !== undefined) return cached;
  let info: SiteInfo = {
    baseUrl: snapshot.manifest.baseUrl,
    name: "Directory",
    summary: "A free, read-only catalog and business directory.",
    operator: "",
    contact: { email: "" },
  };
  const raw = snapshot.pages.get(SITE_DATA_PATH);
  if (raw !== undefined) {
    try {
      const parsed = JSON.parse(raw) as Partial<SiteInfo>;
      if (typeof parsed.name === "string" && typeof parsed.summary === "string" && typeof parsed.contact?.email === "string") {
        info = { ...info, ...parsed, baseUrl: snapshot.manifest.baseUrl } as SiteInfo;
      }
    } catch {
      // Keep the neutral fallback: a page without the site's name is better than no page.
    }
  }
  cache.set(snapshot, info);
  return info;
}
