import etag from "etag";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  API_CATALOG_PATH,
  API_CATALOG_TYPE,
  API_DOCS_PATH,
  BUSINESS_IDENTIFIER_MAX_LENGTH,
  BUSINESS_PAGE_PATTERN,
  businessPagePath,
  CONTACT_PATH,
  CSS_TYPE,
  FAVICON_PATH,
  FAVICON_SVG_PATH,
  HOME_PATH,
  HTML_TYPE,
  htmlPath,
  ICON_TYPE,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MARKDOWN_TYPE,
  markdownPath,
  OFFERING_PAGE_PATTERN,
  offeringPagePath,
  ROBOTS_PATH,
  STYLESHEET_PATH,
  SVG_TYPE,
  TEXT_TYPE,
} from "../contract.ts";
import { findBusiness, listingAt } from "../core/directory.ts";
import type { CatalogService } from "../core/service.ts";
import { profileHtml, profileMarkdown } from "../render/business.ts";
import { faviconIco, faviconSvg } from "../render/favicon.ts";
import { directoryIdentifierProperty } from "../schemas/parameters.ts";
import { slugAt } from "../snapshot/listing-lookup.ts";
import { registerBulkDownloads } from "./bulk.ts";
import { type Document, renderedDocument } from "./caching.ts";
import { registerDirectoryPage } from "./directory-page.ts";
import { registerLists } from "./lists.ts";
import { prefersMarkdown } from "./negotiation.ts";
import { API_CATALOG_LINK, linkHeaders, sendDocument, sendNotFound, snapshotPage, withDirectory } from "./page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

const IDENTIFIER = new RegExp(directoryIdentifierProperty.pattern);

/** The `:slug` of a page URL: pages take no schema, so a bad slug is their own 404, not an API error. */
function slugOf(request: FastifyRequest): string {
  return (request.params as { slug: string }).slug;
}

/**
 * Pages for people (HTML) and agents (Markdown): the homepage, guides, profiles, contact and API
 * docs, negotiated by the Accept header at their own paths and always Markdown at their Markdown
 * URLs; the directory page, the lists and sitemap, the bulk downloads, and the files beside them.
 * An encapsulated plugin: its routes set their own headers, and nothing here touches the API's or
 * MCP's responses.
 */
export const pagesPlugin: FastifyPluginAsync<{ service: CatalogService }> = async (app, { service }) => {
  /** A page the manifest lists: kept in memory from the snapshot. */
  const catalogDocument = (path: string) => snapshotPage(service.current(), path);

  /** A page: Markdown or HTML by the Accept header, `Vary: Accept` either way. */
  function sendPage(request: FastifyRequest, reply: FastifyReply, pagePath: string, documentOf = catalogDocument): FastifyReply {
    const markdown = prefersMarkdown(request.headers.accept);
    const document = documentOf(markdown ? markdownPath(pagePath) : htmlPath(pagePath));
    if (document === undefined) return sendNotFound(service, request, reply, markdown);
    reply.header("vary", "Accept").header("link", linkHeaders(markdownPath(pagePath)));
    return sendDocument(reply, markdown ? MARKDOWN_TYPE : HTML_TYPE, document);
  }

  /** A Markdown URL (`.../index.md`): always Markdown, as a static host would serve it. */
  function sendMarkdown(request: FastifyRequest, reply: FastifyReply, pagePath: string, documentOf = catalogDocument): FastifyReply {
    const document = documentOf(markdownPath(pagePath));
    if (document === undefined) return sendNotFound(service, request, reply, true);
    reply.header("link", linkHeaders(markdownPath(pagePath)));
    return sendDocument(reply, MARKDOWN_TYPE, document);
  }

  /**
   * The business named in the URL, checked against the directory (503 when it is unavailable).
   * Its profile is rendered from its listing on request (and kept in a bounded cache): at
   * 100,000 listings, pre-rendered profiles read into memory took 46 s to load and 2 GB.
   */
  function businessPage(
    request: FastifyRequest,
    reply: FastifyReply,
    markdown: boolean,
    send: (pagePath: string, documentOf: (path: string) => Document | undefined) => FastifyReply,
  ) {
    const slug = slugOf(request);
    if (slug.length > BUSINESS_IDENTIFIER_MAX_LENGTH || !IDENTIFIER.test(slug)) return sendNotFound(service, request, reply, markdown);
    return withDirectory(service, request, reply, markdown, () => {
      const directory = service.directory();
      const rank = findBusiness(directory, slug);
      if (rank === undefined) return sendNotFound(service, request, reply, markdown);
      const canonical = slugAt(directory.listings, rank);
      if (canonical !== slug) {
        // A UUID (or an id in capitals) names the listing too; its page lives at the slug.
        const target = businessPagePath(canonical);
        return reply.redirect(markdown && request.url.endsWith("/index.md") ? markdownPath(target) : target, 301);
      }
      const snapshot = service.current();
      return send(businessPagePath(slug), (path) =>
        renderedDocument(snapshot, path, () => {
          const business = listingAt(directory, rank);
          return path.endsWith(".md") ? profileMarkdown(snapshot.site, business) : profileHtml(snapshot.site, business);
        }),
      );
    });
  }

  const cacheable = { cacheable: true };
  /** The routes of one page: negotiated at `pattern`, Markdown at its Markdown URL. */
  const pageRoutes = (
    pattern: string,
    negotiated: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
    markdownOnly: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
  ) => {
    readOnlyRoute(app, { url: pattern, config: cacheable, handler: async (request, reply) => negotiated(request, reply) });
    readOnlyRoute(app, { url: markdownPath(pattern), config: cacheable, handler: async (request, reply) => markdownOnly(request, reply) });
  };

  for (const path of [HOME_PATH, CONTACT_PATH, API_DOCS_PATH]) {
    pageRoutes(
      path,
      (request, reply) => sendPage(request, reply, path),
      (request, reply) => sendMarkdown(request, reply, path),
    );
  }
  pageRoutes(
    OFFERING_PAGE_PATTERN,
    (request, reply) => sendPage(request, reply, offeringPagePath(slugOf(request))),
    (request, reply) => sendMarkdown(request, reply, offeringPagePath(slugOf(request))),
  );
  pageRoutes(
    BUSINESS_PAGE_PATTERN,
    (request, reply) =>
      businessPage(request, reply, prefersMarkdown(request.headers.accept), (pagePath, documentOf) =>
        sendPage(request, reply, pagePath, documentOf),
      ),
    (request, reply) => businessPage(request, reply, true, (pagePath, documentOf) => sendMarkdown(request, reply, pagePath, documentOf)),
  );

  registerDirectoryPage(app, service);
  registerLists(app, service);
  registerBulkDownloads(app, service);

  /** A file the build wrote, as it is; `link`, when given, is its Link header. */
  const file = (path: string, type: string, link?: string) =>
    readOnlyRoute(app, {
      url: path,
      config: cacheable,
      handler: async (request, reply) => {
        const document = snapshotPage(service.current(), path);
        if (document === undefined) return sendNotFound(service, request, reply);
        if (link !== undefined) reply.header("link", link);
        return sendDocument(reply, type, document);
      },
    });
  file(LLMS_PATH, TEXT_TYPE);
  file(LLMS_FULL_PATH, TEXT_TYPE);
  file(ROBOTS_PATH, TEXT_TYPE);
  file(STYLESHEET_PATH, CSS_TYPE);
  // RFC 9727 §2: a HEAD (and so a GET) of the catalog names it with its link relation.
  file(API_CATALOG_PATH, API_CATALOG_TYPE, API_CATALOG_LINK);

  // The icon, as the build writes it too: made once, the same bytes for every request.
  for (const [path, type, body] of [
    [FAVICON_PATH, ICON_TYPE, faviconIco()],
    [FAVICON_SVG_PATH, SVG_TYPE, Buffer.from(faviconSvg())],
  ] as const) {
    const tag = etag(body);
    readOnlyRoute(app, {
      url: path,
      config: cacheable,
      handler: async (_request, reply) => reply.header("etag", tag).type(type).send(body),
    });
  }
};
