import { SITEMAP_PATH } from "../contract.ts";
import { escapeXml } from "./escape.ts";

/** sitemap.xml of the HTML pages (absolute URLs under BASE_URL). */
export function sitemapXml(baseUrl: string, pagePaths: readonly string[]): string {
  const urls = pagePaths.map((path) => `  <url><loc>${escapeXml(baseUrl + path)}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(baseUrl: string): string {
  return `# Free, read-only public catalog. Please cache results and avoid bulk scraping.\nUser-agent: *\nAllow: /\n\nSitemap: ${baseUrl}${SITEMAP_PATH}\n`;
}
