import { businessPagePath, SITEMAP_MAX_URLS, SITEMAP_PATH, sitemapPartPath } from "../contract.ts";
import { escapeXml } from "./escape.ts";

/**
 * sitemap.xml of the HTML pages (absolute URLs under BASE_URL): one file while the site has at
 * most SITEMAP_MAX_URLS pages, else an index of files of that many URLs each (the sitemap
 * protocol's limits), so it stays usable at any directory size. The build writes every file; the
 * server renders the one asked for from the same lists.
 */

/** The site's HTML pages in sitemap order: the catalog's pages, then every listing's profile. */
export interface SitemapPages {
  /** Paths of the catalog's HTML pages (homepage, guides, directory, contact, API docs). */
  readonly catalog: readonly string[];
  /**
   * How many listings there are, and the slug of each, in directory order; with `lastmodAt`, the
   * time each last changed (the builtAt of that release, interface §8), as its `<lastmod>`.
   */
  readonly listings: { readonly count: number; slugAt(rank: number): string; lastmodAt?: (rank: number) => string | undefined };
}

/** The site's pages for its sitemap: the catalog's HTML pages (from the paths of its documents), then every profile. */
export function sitemapPages(documentPaths: Iterable<string>, listings: SitemapPages["listings"]): SitemapPages {
  const catalog = [...documentPaths]
    .filter((path) => path.endsWith("/index.html"))
    .map((path) => path.slice(0, -"/index.html".length) || "/");
  return { catalog, listings };
}

function total(pages: SitemapPages): number {
  return pages.catalog.length + pages.listings.count;
}

/** How many files the index lists; 0 when sitemap.xml holds every URL itself. */
export function sitemapPartCount(pages: SitemapPages): number {
  return total(pages) <= SITEMAP_MAX_URLS ? 0 : Math.ceil(total(pages) / SITEMAP_MAX_URLS);
}

function urlset(baseUrl: string, pages: SitemapPages, from: number, to: number): string {
  const lines: string[] = [];
  const { catalog, listings } = pages;
  for (let i = from; i < to; i += 1) {
    if (i < catalog.length) {
      lines.push(`  <url><loc>${escapeXml(baseUrl + catalog[i])}</loc></url>`);
      continue;
    }
    const rank = i - catalog.length;
    const lastmod = listings.lastmodAt?.(rank);
    const modified = lastmod === undefined ? "" : `<lastmod>${lastmod}</lastmod>`;
    lines.push(`  <url><loc>${escapeXml(baseUrl + businessPagePath(listings.slugAt(rank)))}</loc>${modified}</url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${lines.join("\n")}\n</urlset>\n`;
}

/** /sitemap.xml: every URL, or the index of the parts. */
export function sitemapXml(baseUrl: string, pages: SitemapPages): string {
  const parts = sitemapPartCount(pages);
  if (parts === 0) return urlset(baseUrl, pages, 0, total(pages));
  const entries = Array.from({ length: parts }, (_, i) => `  <sitemap><loc>${escapeXml(baseUrl + sitemapPartPath(i + 1))}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

/** Part `n` (1-based) of the index, or undefined when there is no such part. */
export function sitemapPartXml(baseUrl: string, pages: SitemapPages, n: number): string | undefined {
  if (!Number.isInteger(n) || n < 1 || n > sitemapPartCount(pages)) return undefined;
  return urlset(baseUrl, pages, (n - 1) * SITEMAP_MAX_URLS, Math.min(n * SITEMAP_MAX_URLS, total(pages)));
}

export function robotsTxt(baseUrl: string, contentSignal: string | undefined): string {
  // contentsignals.org: the site's Content-Signal also stands in robots.txt, in the group it applies to.
  const signal = contentSignal === undefined ? "" : `Content-Signal: ${contentSignal}\n`;
  return `# Free, read-only public catalog. Please cache results and avoid bulk scraping.\nUser-agent: *\n${signal}Allow: /\n\nSitemap: ${baseUrl}${SITEMAP_PATH}\n`;
}
