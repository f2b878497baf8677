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
  htmlPath,
  ICON_TYPE,
  LLMS_FULL_PATH,
  LLMS_PATH,
  markdownPath,
  OFFERING_PAGE_PATTERN,
  offeringPagePath,
  ROBOTS_PATH,
  STYLESHEET_PATH,
  SVG_TYPE,
  TEXT_TYPE,
} from "../../contract.ts";
import type { AnswerCache } from "../../core/answer-cache.ts";
import { directoryOf, findBusiness, listingAt } from "../../core/directory.ts";
import { servedView } from "../../core/served.ts";
import { profileHtml, profileMarkdown } from "../../render/business.ts";
import { faviconIco, faviconSvg } from "../../render/favicon.ts";
import { directoryIdentifierProperty } from "../../schemas/parameters.ts";
import { slugAt } from "../../snapshot/listing-lookup.ts";
import type { Part, ServedView, SnapshotView } from "../../snapshot/view.ts";
import { renderedDocument, snapshotPage } from "../documents.ts";
import { API_CATALOG_LINK, type Document, documentFile, hashedTag, sendKept } from "../kept.ts";
import { prefersMarkdown } from "../negotiation.ts";
import { sendNotFound, sendPage, withDirectory } from "../page-replies.ts";
import { registerBulkDownloads } from "./bulk.ts";
import { registerDirectoryPage } from "./directory-page.ts";
import { registerLists } from "./lists.ts";
import { readOnlyRoute } from "./read-only.ts";
import { registerReleaseFiles } from "./releases.ts";

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
export const pagesPlugin: FastifyPluginAsync<{ served: ServedView; answers: Part<AnswerCache | null> }> = async (
  app,
  { served, answers },
) => {
  /**
   * A page of the view: negotiated at its own URL (Markdown or HTML by the Accept header, `Vary:
   * Accept`), always Markdown at its Markdown URL (`…/index.md`), as a static host serves it.
   * `documentOf` finds the page's documents: by default those the manifest lists.
   */
  function page(
    view: SnapshotView,
    request: FastifyRequest,
    reply: FastifyReply,
    pagePath: string,
    negotiated: boolean,
    documentOf = (path: string): Document | undefined => snapshotPage(view, path),
  ): FastifyReply {
    const markdown = !negotiated || prefersMarkdown(request.headers.accept);
    const document = documentOf(markdown ? markdownPath(pagePath) : htmlPath(pagePath));
    if (document === undefined) return sendNotFound(view, request, reply, markdown);
    return sendPage(view, reply, document, markdown, markdownPath(pagePath), negotiated);
  }

  /**
   * The business named in the URL, checked against the directory (503 when it is unavailable).
   * Its profile is rendered from its listing on request (and kept in a bounded cache): at
   * 100,000 listings, pre-rendered profiles read into memory took 46 s to load and 2 GB.
   */
  function businessPage(request: FastifyRequest, reply: FastifyReply, negotiated: boolean) {
    const view = servedView(served);
    const markdown = !negotiated || prefersMarkdown(request.headers.accept);
    const slug = slugOf(request);
    if (slug.length > BUSINESS_IDENTIFIER_MAX_LENGTH || !IDENTIFIER.test(slug)) return sendNotFound(view, request, reply, markdown);
    return withDirectory(view, request, reply, markdown, () => {
      const directory = directoryOf(view);
      const rank = findBusiness(directory, slug);
      if (rank === undefined) return sendNotFound(view, request, reply, markdown);
      const canonical = slugAt(directory.listings, rank);
      if (canonical !== slug) {
        // A UUID (or an id in capitals) names the listing too; its page lives at the slug.
        const target = businessPagePath(canonical);
        return reply.redirect(markdown && request.url.endsWith("/index.md") ? markdownPath(target) : target, 301);
      }
      const { site } = view.snapshot;
      return page(view, request, reply, businessPagePath(slug), negotiated, (path) =>
        renderedDocument(view, path, () => {
          const listing = listingAt(directory, rank);
          return path.endsWith(".md") ? profileMarkdown(site, listing) : profileHtml(site, listing);
        }),
      );
    });
  }

  const cacheable = { cacheable: true };
  /** The routes of one page: negotiated at `pattern`, Markdown at its Markdown URL. */
  const pageRoutes = (pattern: string, answer: (request: FastifyRequest, reply: FastifyReply, negotiated: boolean) => FastifyReply) => {
    readOnlyRoute(app, { url: pattern, config: cacheable, handler: async (request, reply) => answer(request, reply, true) });
    readOnlyRoute(app, { url: markdownPath(pattern), config: cacheable, handler: async (request, reply) => answer(request, reply, false) });
  };

  for (const path of [HOME_PATH, CONTACT_PATH, API_DOCS_PATH]) {
    pageRoutes(path, (request, reply, negotiated) => page(servedView(served), request, reply, path, negotiated));
  }
  pageRoutes(OFFERING_PAGE_PATTERN, (request, reply, negotiated) =>
    page(servedView(served), request, reply, offeringPagePath(slugOf(request)), negotiated),
  );
  pageRoutes(BUSINESS_PAGE_PATTERN, businessPage);

  registerDirectoryPage(app, served, answers);
  registerLists(app, served);
  registerBulkDownloads(app, served);
  registerReleaseFiles(app, served, answers);

  /** A file the build wrote, as it is; `link`, when given, is its Link header. */
  const file = (path: string, type: string, link?: string) =>
    readOnlyRoute(app, {
      url: path,
      config: cacheable,
      handler: async (request, reply) => {
        const view = servedView(served);
        const document = snapshotPage(view, path);
        if (document === undefined) return sendNotFound(view, request, reply);
        return sendKept(reply, documentFile(document, type, link));
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
    const sent = {
      body,
      headers: [
        ["content-type", type],
        ["etag", hashedTag(body)],
      ] as const,
    };
    readOnlyRoute(app, {
      url: path,
      config: cacheable,
      handler: async (_request, reply) => sendKept(reply, sent),
    });
  }
};
