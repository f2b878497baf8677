/**
 * The service's fixed facts, each written down once: URL paths, limits, header values and
 * versions (docs/interface.md). Schemas, the snapshot, the core, the renderers,
 * REST, MCP and the build all import them from here; nothing here imports anything.
 */

// ── Versions ────────────────────────────────────────────────────────────────────────────────

/** The OpenAPI format the REST description is written in (interface §9). */
export const OPENAPI_VERSION = "3.1.0";

/** The version of the REST description itself (interface §9). */
export const API_VERSION = "1.1.0";

/**
 * The modern MCP revisions served (interface §6): no handshake, the version and the client's
 * capabilities in every request's `_meta`.
 */
export const MCP_MODERN_VERSIONS = ["2026-07-28"] as const;

/** The legacy MCP versions served (interface §9): an `initialize` handshake first. */
export const MCP_LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** Every MCP protocol version served, newest first: what `server/discover` and the unsupported-version error list. */
export const MCP_PROTOCOL_VERSIONS = [...MCP_MODERN_VERSIONS, ...MCP_LEGACY_VERSIONS] as const;

// ── Paths ───────────────────────────────────────────────────────────────────────────────────
// A page at path `P` has its Markdown at `P/index.md` (the homepage at `/index.md`) and, when the
// build pre-renders it, its HTML at `P/index.html`, so a static host serves both as they are.
// Paths with parameters are written as fastify matches them (`:name`); SITE_ROUTES, below, lists
// every route of the site.

/** Every REST endpoint lives under this prefix; an unknown path under it gets a JSON 404. */
export const API_PREFIX = "/api";
export const DIRECTORY_API_PATH = "/api/directory";
export const OFFERINGS_API_PATH = "/api/offerings";
/** Counts by service, category, country and city of what a directory search matches. */
export const FACETS_API_PATH = "/api/facets";
/** The OpenAPI path templates of the single-item endpoints (`{name}`; fastifyPattern gives fastify's `:name`). */
export const BUSINESS_API_TEMPLATE = `${DIRECTORY_API_PATH}/{identifier}`;
export const OFFERING_API_TEMPLATE = `${OFFERINGS_API_PATH}/{slug}`;

export const MCP_PATH = "/mcp";
/** The MCP server card (experimental, SEP-2127 draft): the endpoint's URL plus `/server-card`. */
export const MCP_SERVER_CARD_PATH = `${MCP_PATH}/server-card`;
/** The AI Catalog that names the server card, for domain-level discovery (same draft). */
export const AI_CATALOG_PATH = "/.well-known/ai-catalog.json";
/** The API catalog (RFC 9727): a linkset of the REST API's and the MCP endpoint's descriptions and docs. */
export const API_CATALOG_PATH = "/.well-known/api-catalog";
export const OPENAPI_PATH = "/openapi.json";

export const HOME_PATH = "/";
export const DIRECTORY_PATH = "/businesses";
export const CONTACT_PATH = "/contact";
export const API_DOCS_PATH = "/docs/api";
export const LLMS_PATH = "/llms.txt";
export const LLMS_FULL_PATH = "/llms-full.txt";
export const SITEMAP_PATH = "/sitemap.xml";
export const ROBOTS_PATH = "/robots.txt";
export const STYLESHEET_PATH = "/assets/site.css";
export const FAVICON_PATH = "/favicon.ico";
/** The same icon as SVG: pages link it, and MCP names it as the server's and the tools' icon. */
export const FAVICON_SVG_PATH = "/favicon.svg";
export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";
/** The whole directory for bulk use, at the same paths as in dist/ (src/snapshot/files.ts). */
export const BULK_JSON_PATH = "/data/businesses.json";
export const BULK_NDJSON_PATH = "/data/businesses.ndjson";
/** The release history (interface §8): every release kept, newest first, and the snapshot's current one. */
export const RELEASES_PATH = "/data/releases.json";
/** The change from a release's previous release to it, one NDJSON line per listing that differs. */
export const CHANGES_FILE_PATTERN = "/data/changes/:version.ndjson";
/** The net change from a release to the current one, in one NDJSON answer. */
export const CHANGES_API_PATH = "/api/changes";

/** The Markdown variant of the page at `pagePath`. */
export function markdownPath(pagePath: string): string {
  return pagePath === HOME_PATH ? "/index.md" : `${pagePath}/index.md`;
}

/** Where the build writes the pre-rendered HTML of the page at `pagePath`. */
export function htmlPath(pagePath: string): string {
  return pagePath === HOME_PATH ? "/index.html" : `${pagePath}/index.html`;
}

/** fastify's pattern for an OpenAPI path template: `{name}` becomes `:name`. */
export function fastifyPattern(template: string): string {
  return template.replace(/\{(\w+)\}/g, ":$1");
}

export const OFFERING_PAGE_PATTERN = "/offerings/:slug";
/** A listing's profile, by its slug (its id leads there by a redirect). */
export const BUSINESS_PAGE_PATTERN = `${DIRECTORY_PATH}/:slug`;
/**
 * The lists of a country's listings (`:name`, its code in lower case) and of a service's (its
 * slug), as pages (HTML and Markdown) of at most LIST_LINES_MAX_CHARACTERS of entries, and as
 * llms.txt indexes of their Markdown profiles in parts of the same size (the root llms.txt links
 * them). The first page and part have no number.
 */
export const COUNTRY_LIST_PATTERN = `${DIRECTORY_PATH}/countries/:name`;
export const COUNTRY_LIST_PAGE_PATTERN = `${COUNTRY_LIST_PATTERN}/page-:page`;
export const SERVICE_LIST_PATTERN = `${DIRECTORY_PATH}/services/:name`;
export const SERVICE_LIST_PAGE_PATTERN = `${SERVICE_LIST_PATTERN}/page-:page`;
export const COUNTRY_INDEX_PATTERN = `${COUNTRY_LIST_PATTERN}${LLMS_PATH}`;
export const COUNTRY_INDEX_PART_PATTERN = `${COUNTRY_LIST_PATTERN}/llms-:part.txt`;
export const SERVICE_INDEX_PATTERN = `${SERVICE_LIST_PATTERN}${LLMS_PATH}`;
export const SERVICE_INDEX_PART_PATTERN = `${SERVICE_LIST_PATTERN}/llms-:part.txt`;
/** A file of the sitemap index, numbered from 1, when the site has more URLs than one sitemap holds. */
export const SITEMAP_PART_PATTERN = "/sitemaps/:part.xml";

/** A pattern (`:name`) or template (`{name}`) with its parameters filled in (values are slugs, ids or numbers: no escaping needed). */
export function fillPattern(pattern: string, values: Readonly<Record<string, string | number>>): string {
  return pattern.replace(/:(\w+)|\{(\w+)\}/g, (_match, colon?: string, brace?: string) => String(values[colon ?? brace ?? ""] ?? ""));
}

export function businessApiPath(identifier: string): string {
  return fillPattern(BUSINESS_API_TEMPLATE, { identifier });
}

export function offeringApiPath(slug: string): string {
  return fillPattern(OFFERING_API_TEMPLATE, { slug });
}

export function offeringPagePath(slug: string): string {
  return fillPattern(OFFERING_PAGE_PATTERN, { slug });
}

export function businessPagePath(slug: string): string {
  return fillPattern(BUSINESS_PAGE_PATTERN, { slug });
}

/** The list of a country's listings (by its code), page `page` (1-based) of it: the page's path, for HTML and (with markdownPath) Markdown. */
export function countryListPath(code: string, page = 1): string {
  const name = code.toLowerCase();
  return page > 1 ? fillPattern(COUNTRY_LIST_PAGE_PATTERN, { name, page }) : fillPattern(COUNTRY_LIST_PATTERN, { name });
}

/** The list of a service's listings (by its slug), page `page` (1-based) of it. */
export function serviceListPath(slug: string, page = 1): string {
  return page > 1 ? fillPattern(SERVICE_LIST_PAGE_PATTERN, { name: slug, page }) : fillPattern(SERVICE_LIST_PATTERN, { name: slug });
}

/** Part `part` (1-based) of the llms.txt index of a country's listings. */
export function countryIndexPath(code: string, part = 1): string {
  const name = code.toLowerCase();
  return part > 1 ? fillPattern(COUNTRY_INDEX_PART_PATTERN, { name, part }) : fillPattern(COUNTRY_INDEX_PATTERN, { name });
}

/** Part `part` (1-based) of the llms.txt index of a service's listings. */
export function serviceIndexPath(slug: string, part = 1): string {
  return part > 1 ? fillPattern(SERVICE_INDEX_PART_PATTERN, { name: slug, part }) : fillPattern(SERVICE_INDEX_PATTERN, { name: slug });
}

/** The changes file of release `version`. */
export function changesFilePath(version: string): string {
  return fillPattern(CHANGES_FILE_PATTERN, { version });
}

/** The n-th (1-based) sitemap file of a sitemap index. */
export function sitemapPartPath(n: number): string {
  return fillPattern(SITEMAP_PART_PATTERN, { part: n });
}

// ── The route manifest ──────────────────────────────────────────────────────────────────────

/**
 * What a route answers with, and where its parameters come from:
 * - `page`: HTML or Markdown by the Accept header; `markdown`: always Markdown; `file`: one document;
 *   `json`: the REST API and the health checks; `mcp`: the MCP endpoint (POST).
 * - `fixed`: the pattern is the one path; `offering`: `:slug` is an offering's slug; `listing`:
 *   `:slug` or `:identifier` is an approved listing's slug or id (an id in any case); `country` and
 *   `service`: `:name` is a list's name, `:page` a page and `:part` a part of its index from 2 on;
 *   `sitemap-part`: `:part` from 1 to the number of parts; `release`: `:version` is a release's
 *   version (one the history holds, known only once the snapshot is built).
 */
export interface SiteRoute {
  readonly pattern: string;
  readonly answers: "page" | "markdown" | "file" | "json" | "mcp";
  readonly params: "fixed" | "offering" | "listing" | "country" | "service" | "sitemap-part" | "release";
}

/** A page and its Markdown URL. */
function page(pattern: string, params: SiteRoute["params"]): SiteRoute[] {
  return [
    { pattern, answers: "page", params },
    { pattern: markdownPath(pattern), answers: "markdown", params },
  ];
}

/**
 * Every route of the site, one entry per path pattern the server registers (test/http/routes.test.ts
 * compares them) and what the build's link check knows of the site's paths (build/warnings.ts).
 */
export const SITE_ROUTES: readonly SiteRoute[] = [
  ...page(HOME_PATH, "fixed"),
  ...page(DIRECTORY_PATH, "fixed"),
  ...page(CONTACT_PATH, "fixed"),
  ...page(API_DOCS_PATH, "fixed"),
  ...page(OFFERING_PAGE_PATTERN, "offering"),
  ...page(BUSINESS_PAGE_PATTERN, "listing"),
  ...page(COUNTRY_LIST_PATTERN, "country"),
  ...page(COUNTRY_LIST_PAGE_PATTERN, "country"),
  ...page(SERVICE_LIST_PATTERN, "service"),
  ...page(SERVICE_LIST_PAGE_PATTERN, "service"),
  ...[COUNTRY_INDEX_PATTERN, COUNTRY_INDEX_PART_PATTERN].map((pattern): SiteRoute => ({ pattern, answers: "file", params: "country" })),
  ...[SERVICE_INDEX_PATTERN, SERVICE_INDEX_PART_PATTERN].map((pattern): SiteRoute => ({ pattern, answers: "file", params: "service" })),
  ...[
    LLMS_PATH,
    LLMS_FULL_PATH,
    ROBOTS_PATH,
    SITEMAP_PATH,
    STYLESHEET_PATH,
    FAVICON_PATH,
    FAVICON_SVG_PATH,
    BULK_JSON_PATH,
    BULK_NDJSON_PATH,
    RELEASES_PATH,
  ].map((pattern): SiteRoute => ({ pattern, answers: "file", params: "fixed" })),
  { pattern: SITEMAP_PART_PATTERN, answers: "file", params: "sitemap-part" },
  { pattern: CHANGES_FILE_PATTERN, answers: "file", params: "release" },
  ...[OPENAPI_PATH, MCP_SERVER_CARD_PATH, AI_CATALOG_PATH, API_CATALOG_PATH].map(
    (pattern): SiteRoute => ({ pattern, answers: "file", params: "fixed" }),
  ),
  ...[HEALTH_PATH, READY_PATH, DIRECTORY_API_PATH, FACETS_API_PATH, CHANGES_API_PATH, OFFERINGS_API_PATH].map(
    (pattern): SiteRoute => ({ pattern, answers: "json", params: "fixed" }),
  ),
  { pattern: fastifyPattern(BUSINESS_API_TEMPLATE), answers: "json", params: "listing" },
  { pattern: fastifyPattern(OFFERING_API_TEMPLATE), answers: "json", params: "offering" },
  { pattern: MCP_PATH, answers: "mcp", params: "fixed" },
];

// ── Limits (interface §9) ───────────────────────────────────────────────────────────────────

export const DIRECTORY_Q_MAX_LENGTH = 120;
export const DIRECTORY_Q_MAX_TERMS = 6;
export const DIRECTORY_LOCATION_MAX_LENGTH = 80;
export const DIRECTORY_MIN_LIMIT = 1;
export const DIRECTORY_MAX_LIMIT = 25;
export const DIRECTORY_DEFAULT_LIMIT = 10;
/** The browsing limit: no page starts after this offset. */
export const DIRECTORY_MAX_OFFSET = 1000;
/** The most releases the history keeps (interface §8): the oldest is dropped, with its changes file. */
export const RELEASES_KEPT = 100;
/** A snapshot's version, as the manifest, releases.json and `since` write it: the first 64 bits of a SHA-256, in hex. */
export const VERSION_PATTERN = "^[0-9a-f]{16}$";
/** The most values a facet lists (the top ones by count). */
export const FACET_MAX_VALUES = 50;
export const BUSINESS_IDENTIFIER_MAX_LENGTH = 200;
export const DESCRIPTION_MAX_LENGTH = 3000;
export const OFFERINGS_Q_MAX_LENGTH = 200;
export const MAX_OFFERINGS = 20;
/** Most URLs in one sitemap file (the sitemap protocol's limit); more make sitemap.xml an index. */
export const SITEMAP_MAX_URLS = 50_000;
/** llms.txt, every index it leads to and every list page stay under this many characters at any directory size. */
export const LLMS_MAX_CHARACTERS = 50_000;
/**
 * The most characters of entries (one line each) on one page of a list or part of an index: a
 * list that fits is one page. The rest of LLMS_MAX_CHARACTERS is the page's own lines (title,
 * notes, links to its neighbours), and the build checks that every file stays under the limit.
 */
export const LIST_LINES_MAX_CHARACTERS = 45_000;
/** llms-full.txt (catalog, guides, docs) stays under this many bytes. */
export const LLMS_FULL_MAX_BYTES = 1_000_000;
/** The largest MCP message accepted, in bytes; also the largest body any route reads. */
export const MCP_MAX_MESSAGE_BYTES = 32 * 1024;

/**
 * The shapes of a Host header and of a browser origin that /mcp compares (DNS-rebinding
 * protection): a name or an IPv6 literal and an optional port, with no userinfo, path or spaces;
 * an origin is one of those after http:// or https://. MCP_ALLOWED_HOSTS and MCP_ALLOWED_ORIGINS
 * are refused at start when an entry has another shape, which could never match.
 */
export const HOST_HEADER_SHAPE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
export const ORIGIN_SHAPE = /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

// ── Header values ───────────────────────────────────────────────────────────────────────────

/** How long clients and shared caches keep a successful answer fresh, in seconds (interface §9). */
export const CLIENT_CACHE_SECONDS = 60;
/**
 * Defaults of STALE_WHILE_REVALIDATE_SECONDS and STALE_IF_ERROR_SECONDS (RFC 5861): a cache in
 * front may answer from a stale copy for a minute while it fetches a fresh one, and for a day while
 * every replica fails, so a brief outage of the fleet is not an outage for readers.
 */
export const DEFAULT_STALE_WHILE_REVALIDATE_SECONDS = 60;
export const DEFAULT_STALE_IF_ERROR_SECONDS = 86_400;

/** What clients and shared caches may do with a successful answer (interface §7); 0 leaves a stale directive out. */
export function cacheControlSuccess(staleWhileRevalidateSeconds: number, staleIfErrorSeconds: number): string {
  let value = `public, max-age=${CLIENT_CACHE_SECONDS}`;
  if (staleWhileRevalidateSeconds > 0) value += `, stale-while-revalidate=${staleWhileRevalidateSeconds}`;
  if (staleIfErrorSeconds > 0) value += `, stale-if-error=${staleIfErrorSeconds}`;
  return value;
}

/** The Cache-Control of a successful answer when the operator keeps the defaults. */
export const CACHE_CONTROL_SUCCESS = cacheControlSuccess(DEFAULT_STALE_WHILE_REVALIDATE_SECONDS, DEFAULT_STALE_IF_ERROR_SECONDS);
/** The Cache-Control of a successful answer as the API documentation states it. */
export const CACHE_CONTROL_DESCRIPTION = `\`public, max-age=${CLIENT_CACHE_SECONDS}\`, with the \`stale-while-revalidate\` and \`stale-if-error\` times the operator set (by default \`${CACHE_CONTROL_SUCCESS}\`)`;
/** Answers never kept by any cache: errors (interface §7) and health checks. */
export const CACHE_CONTROL_NO_STORE = "no-store";
/** Seconds a client waits before retrying when the directory is unavailable (interface §5). */
export const DIRECTORY_RETRY_AFTER_SECONDS = 30;
/** Retry-After of a 503 sent while the process sheds load. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 10;
/** Retry-After of `/readyz`'s 503 while the process shuts down: by then another replica answers. */
export const CLOSING_RETRY_AFTER_SECONDS = 5;
/** The rate limit's window, and its policy's name in the IETF RateLimit-Policy and RateLimit headers. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
export const RATE_LIMIT_POLICY = "minute";

export const JSON_TYPE = "application/json; charset=utf-8";
export const HTML_TYPE = "text/html; charset=utf-8";
export const MARKDOWN_TYPE = "text/markdown; charset=utf-8";
export const TEXT_TYPE = "text/plain; charset=utf-8";
export const XML_TYPE = "application/xml; charset=utf-8";
export const CSS_TYPE = "text/css; charset=utf-8";
export const ICON_TYPE = "image/x-icon";
export const SVG_TYPE = "image/svg+xml";
export const NDJSON_TYPE = "application/x-ndjson; charset=utf-8";
export const SERVER_CARD_TYPE = "application/mcp-server-card+json";
export const AI_CATALOG_TYPE = "application/ai-catalog+json";
/** The API catalog's type: a JSON linkset (RFC 9264) with RFC 9727's profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
