/**
 * The URL layout of the pages (decided; REST, MCP and the build depend on it). A page at path
 * `P` has its Markdown at `P/index.md` (the homepage at `/index.md`), and its pre-rendered HTML,
 * when the build writes one, at `P/index.html`, so a static host serves both as they are.
 */

export const HOME_PATH = "/";
export const DIRECTORY_PATH = "/businesses";
export const CONTACT_PATH = "/contact";
export const API_DOCS_PATH = "/docs/api";
export const LLMS_PATH = "/llms.txt";
export const LLMS_FULL_PATH = "/llms-full.txt";
export const SITEMAP_PATH = "/sitemap.xml";
export const ROBOTS_PATH = "/robots.txt";
export const STYLESHEET_PATH = "/assets/site.css";
export const OPENAPI_PATH = "/openapi.json";
export const MCP_PATH = "/mcp";

export function offeringPagePath(slug: string): string {
  return `/offerings/${slug}`;
}

export function businessPagePath(slug: string): string {
  return `${DIRECTORY_PATH}/${slug}`;
}

/** The Markdown variant of the page at `pagePath`. */
export function markdownPath(pagePath: string): string {
  return pagePath === HOME_PATH ? "/index.md" : `${pagePath}/index.md`;
}

/** Where the build writes the pre-rendered HTML of the page at `pagePath`. */
export function htmlPath(pagePath: string): string {
  return pagePath === HOME_PATH ? "/index.html" : `${pagePath}/index.html`;
}
