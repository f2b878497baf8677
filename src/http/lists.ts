import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  COUNTRY_LIST_PAGE_PATTERN,
  COUNTRY_LIST_PATTERN,
  MARKDOWN_TYPE,
  SERVICE_LIST_PAGE_PATTERN,
  SERVICE_LIST_PATTERN,
  SITEMAP_PART_PATTERN,
  SITEMAP_PATH,
  sitemapPartPath,
  XML_TYPE,
} from "../contract.ts";
import { listingAt } from "../core/directory.ts";
import { listPageRanks } from "../core/lists.ts";
import type { CatalogService } from "../core/service.ts";
import { listMarkdown, listPageCount } from "../render/directory-lists.ts";
import { sitemapPages, sitemapPartCount, sitemapPartXml, sitemapXml } from "../render/sitemap.ts";
import { slugAt } from "../snapshot/listing-lookup.ts";
import { renderedDocument } from "./caching.ts";
import { linkHeaders, sendDocument, sendNotFound, summaryOf, withDirectory } from "./page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

/** Page and part numbers as URLs write them: decimal digits, no leading zero, and no more than any list or sitemap can have. */
const LIST_PAGE_NUMBER = /^[1-9][0-9]{0,6}$/;
const SITEMAP_PART_NUMBER = /^[1-9][0-9]{0,5}$/;

/** The number `text` writes, or 0 when it is not one `pattern` accepts. */
function numberIn(text: string, pattern: RegExp): number {
  return pattern.test(text) ? Number(text) : 0;
}

/**
 * The directory's Markdown lists by country and by service, LIST_PAGE_SIZE listings a page, and
 * the sitemap: rendered on request from the snapshot's index (and kept in a bounded cache), the
 * same documents the build writes for static hosts.
 */
export function registerLists(app: FastifyInstance, service: CatalogService): void {
  /** A list (`page` 1-based); only its canonical path answers (page 1 has no `page-1`). */
  function sendList(request: FastifyRequest, reply: FastifyReply, kind: "country" | "service", name: string, pageText: string) {
    return withDirectory(service, request, reply, true, () => {
      const directory = service.directory();
      const snapshot = service.current();
      const page = numberIn(pageText, LIST_PAGE_NUMBER);
      const summary = summaryOf(snapshot, directory);
      const country = kind === "country" ? summary.countries.find((list) => list.code.toLowerCase() === name) : undefined;
      const byService = kind === "service" ? summary.services.find((list) => list.slug === name) : undefined;
      const found = country ?? byService;
      if (found === undefined || page < 1 || page > listPageCount(found.total)) return sendNotFound(service, request, reply, true);
      const path = found.pathOf(page);
      if (request.url.split("?")[0] !== path) return sendNotFound(service, request, reply, true);
      const { index } = directory;
      const document = renderedDocument(snapshot, path, () => {
        const ranks =
          country !== undefined
            ? listPageRanks(index.countryPostings, directory.countryIndex.get(country.code) ?? 0, page)
            : listPageRanks(index.servicePostings, index.services.indexOf(byService?.name ?? ""), page);
        return listMarkdown(
          snapshot.site,
          found,
          kind,
          page,
          Array.from(ranks, (rank) => listingAt(directory, rank)),
        );
      });
      reply.header("link", linkHeaders(path));
      return sendDocument(reply, MARKDOWN_TYPE, document);
    });
  }

  const cacheable = { cacheable: true };
  const params = (request: FastifyRequest) => request.params as { name: string; page?: string };
  for (const [kind, first, later] of [
    ["country", COUNTRY_LIST_PATTERN, COUNTRY_LIST_PAGE_PATTERN],
    ["service", SERVICE_LIST_PATTERN, SERVICE_LIST_PAGE_PATTERN],
  ] as const) {
    readOnlyRoute(app, {
      url: first,
      config: cacheable,
      handler: async (request, reply) => sendList(request, reply, kind, params(request).name, "1"),
    });
    readOnlyRoute(app, {
      url: later,
      config: cacheable,
      handler: async (request, reply) => sendList(request, reply, kind, params(request).name, params(request).page ?? ""),
    });
  }

  /** sitemap.xml and its parts, rendered from the catalog's pages and the listings' slugs. */
  function sendSitemap(request: FastifyRequest, reply: FastifyReply, part: number | null) {
    const snapshot = service.current();
    const listings = snapshot.directory?.listings;
    const pages = sitemapPages(snapshot.manifest.pages, {
      count: listings?.count ?? 0,
      slugAt: (rank) => (listings === undefined ? "" : slugAt(listings, rank)),
    });
    if (part !== null && (part < 1 || part > sitemapPartCount(pages))) return sendNotFound(service, request, reply);
    const { baseUrl } = snapshot.site;
    // Rendered once per snapshot and kept (a part lists up to 50,000 URLs), not on every request.
    const render = () => (part === null ? sitemapXml(baseUrl, pages) : (sitemapPartXml(baseUrl, pages, part) ?? ""));
    return sendDocument(reply, XML_TYPE, renderedDocument(snapshot, part === null ? SITEMAP_PATH : sitemapPartPath(part), render));
  }
  readOnlyRoute(app, { url: SITEMAP_PATH, config: cacheable, handler: async (request, reply) => sendSitemap(request, reply, null) });
  readOnlyRoute(app, {
    url: SITEMAP_PART_PATTERN,
    config: cacheable,
    handler: async (request, reply) =>
      sendSitemap(request, reply, numberIn((request.params as { part: string }).part, SITEMAP_PART_NUMBER)),
  });
}
