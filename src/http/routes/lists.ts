import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  COUNTRY_INDEX_PART_PATTERN,
  COUNTRY_INDEX_PATTERN,
  COUNTRY_LIST_PAGE_PATTERN,
  COUNTRY_LIST_PATTERN,
  markdownPath,
  SERVICE_INDEX_PART_PATTERN,
  SERVICE_INDEX_PATTERN,
  SERVICE_LIST_PAGE_PATTERN,
  SERVICE_LIST_PATTERN,
  SITEMAP_PART_PATTERN,
  SITEMAP_PATH,
  sitemapPartPath,
  TEXT_TYPE,
  XML_TYPE,
} from "../../contract.ts";
import { listingLastmods } from "../../core/changes.ts";
import { directoryOf, listingAt } from "../../core/directory.ts";
import { listPageRanks } from "../../core/lists.ts";
import { servedView } from "../../core/served.ts";
import { listHtml, listMarkdown } from "../../render/directory-lists.ts";
import { listIndexTxt } from "../../render/llms-index.ts";
import { sitemapPages, sitemapPartCount, sitemapPartXml, sitemapXml } from "../../render/sitemap.ts";
import { slugAt } from "../../snapshot/listing-lookup.ts";
import type { ServedView } from "../../snapshot/view.ts";
import { renderedDocument } from "../documents.ts";
import { documentFile, sendKept } from "../kept.ts";
import { prefersMarkdown } from "../negotiation.ts";
import { summaryOf } from "../page-parts.ts";
import { sendNotFound, sendPage, withDirectory } from "../page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

/** Page and part numbers as URLs write them: decimal digits, no leading zero, and no more than any list or sitemap can have. */
const LIST_PAGE_NUMBER = /^[1-9][0-9]{0,6}$/;
const SITEMAP_PART_NUMBER = /^[1-9][0-9]{0,5}$/;

/** The number `text` writes, or 0 when it is not one `pattern` accepts. */
function numberIn(text: string, pattern: RegExp): number {
  return pattern.test(text) ? Number(text) : 0;
}

/**
 * The directory's lists by country and by service (pages in HTML and Markdown, and their llms.txt
 * indexes, paged as the build recorded in the snapshot), and the sitemap: rendered on request
 * from the snapshot's index (and kept in a bounded cache), the same documents the build writes
 * for static hosts.
 */
export function registerLists(app: FastifyInstance, served: ServedView): void {
  /** What is sent: the page in HTML or Markdown, or the index part. */
  type Form = "html" | "markdown" | "index";
  /**
   * Page or part `numberText` (1-based) of a list in `form`, asked for at the path of that form
   * or, `negotiated`, at the page's own path; only that canonical path answers (page 1 has no
   * `page-1`, part 1 no `llms-1.txt`).
   */
  function sendList(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: "country" | "service",
    name: string,
    numberText: string,
    form: Form,
    negotiated = false,
  ) {
    const markdown = form !== "html";
    const view = servedView(served);
    return withDirectory(view, request, reply, markdown, () => {
      const directory = directoryOf(view);
      const { snapshot } = view;
      const n = numberIn(numberText, LIST_PAGE_NUMBER);
      const summary = summaryOf(view);
      const country = kind === "country" ? summary.countries.find((list) => list.code.toLowerCase() === name) : undefined;
      const byService = kind === "service" ? summary.services.find((list) => list.slug === name) : undefined;
      const found = country ?? byService;
      const starts = form === "index" ? found?.paging.parts : found?.paging.pages;
      if (found === undefined || starts === undefined || n < 1 || n > starts.length) return sendNotFound(view, request, reply, markdown);
      // The document is kept under its form's path: the Markdown asked for at the page's own path is the Markdown URL's.
      const key = form === "index" ? found.indexPathOf(n) : form === "markdown" ? found.pathOf(n) : found.pagePathOf(n);
      if (request.url.split("?")[0] !== (negotiated ? found.pagePathOf(n) : key)) return sendNotFound(view, request, reply, markdown);
      const { index } = directory;
      const document = renderedDocument(view, key, () => {
        const ranks =
          country !== undefined
            ? listPageRanks(index.countryPostings, directory.countryIndex.get(country.code) ?? 0, starts, n)
            : listPageRanks(index.servicePostings, index.services.indexOf(byService?.name ?? ""), starts, n);
        const listed = Array.from(ranks, (rank) => listingAt(directory, rank));
        const render = form === "index" ? listIndexTxt : form === "markdown" ? listMarkdown : listHtml;
        return render(snapshot.site, found, kind, n, listed);
      });
      if (form === "index") return sendKept(reply, documentFile(document, TEXT_TYPE));
      return sendPage(view, reply, document, markdown, found.pathOf(n), negotiated);
    });
  }

  const cacheable = { cacheable: true };
  const params = (request: FastifyRequest) => request.params as { name: string; page?: string; part?: string };
  /** A list page at its own path: Markdown or HTML by the Accept header, `Vary: Accept` either way. */
  const negotiated = (request: FastifyRequest): Form => (prefersMarkdown(request.headers.accept) ? "markdown" : "html");
  for (const [kind, first, later, firstIndex, laterIndex] of [
    ["country", COUNTRY_LIST_PATTERN, COUNTRY_LIST_PAGE_PATTERN, COUNTRY_INDEX_PATTERN, COUNTRY_INDEX_PART_PATTERN],
    ["service", SERVICE_LIST_PATTERN, SERVICE_LIST_PAGE_PATTERN, SERVICE_INDEX_PATTERN, SERVICE_INDEX_PART_PATTERN],
  ] as const) {
    for (const [url, numberOf] of [
      [first, () => "1"],
      [later, (request: FastifyRequest) => params(request).page ?? ""],
    ] as const) {
      readOnlyRoute(app, {
        url,
        config: cacheable,
        handler: async (request, reply) =>
          sendList(request, reply, kind, params(request).name, numberOf(request), negotiated(request), true),
      });
      readOnlyRoute(app, {
        url: markdownPath(url),
        config: cacheable,
        handler: async (request, reply) => sendList(request, reply, kind, params(request).name, numberOf(request), "markdown"),
      });
    }
    readOnlyRoute(app, {
      url: firstIndex,
      config: cacheable,
      handler: async (request, reply) => sendList(request, reply, kind, params(request).name, "1", "index"),
    });
    readOnlyRoute(app, {
      url: laterIndex,
      config: cacheable,
      handler: async (request, reply) => sendList(request, reply, kind, params(request).name, params(request).part ?? "", "index"),
    });
  }

  /** sitemap.xml and its parts, rendered from the catalog's pages, the listings' slugs and when each last changed. */
  async function sendSitemap(request: FastifyRequest, reply: FastifyReply, part: number | null) {
    const view = servedView(served);
    const { snapshot } = view;
    const listings = snapshot.directory?.listings;
    const lastmods = listings === undefined ? [] : await listingLastmods(view);
    const pages = sitemapPages(snapshot.manifest.pages, {
      count: listings?.count ?? 0,
      slugAt: (rank) => (listings === undefined ? "" : slugAt(listings, rank)),
      lastmodAt: (rank) => lastmods[rank],
    });
    if (part !== null && (part < 1 || part > sitemapPartCount(pages))) return sendNotFound(view, request, reply);
    const { baseUrl } = snapshot.site;
    // Rendered once per snapshot and kept (a part lists up to 50,000 URLs), not on every request.
    const render = () => (part === null ? sitemapXml(baseUrl, pages) : (sitemapPartXml(baseUrl, pages, part) ?? ""));
    return sendKept(reply, documentFile(renderedDocument(view, part === null ? SITEMAP_PATH : sitemapPartPath(part), render), XML_TYPE));
  }
  readOnlyRoute(app, { url: SITEMAP_PATH, config: cacheable, handler: async (request, reply) => sendSitemap(request, reply, null) });
  readOnlyRoute(app, {
    url: SITEMAP_PART_PATTERN,
    config: cacheable,
    handler: async (request, reply) =>
      sendSitemap(request, reply, numberIn((request.params as { part: string }).part, SITEMAP_PART_NUMBER)),
  });
}
