import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  API_DOCS_PATH,
  BUSINESS_IDENTIFIER_MAX_LENGTH,
  businessPagePath,
  CONTACT_PATH,
  CSS_TYPE,
  DIRECTORY_PATH,
  HOME_PATH,
  HTML_TYPE,
  htmlPath,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MARKDOWN_TYPE,
  markdownPath,
  offeringPagePath,
  ROBOTS_PATH,
  SITEMAP_PATH,
  STYLESHEET_PATH,
  TEXT_TYPE,
  XML_TYPE,
} from "../contract.ts";
import { ApiError, directoryUnavailable } from "../core/errors.ts";
import type { CatalogService } from "../core/service.ts";
import { directoryHtml, directoryProblemMarkdown, directoryResultsMarkdown } from "../render/directory.ts";
import { type DirectoryPageQuery, parseDirectoryQuery } from "../render/directory-form.ts";
import { notFoundHtml, notFoundMarkdown } from "../render/not-found.ts";
import { directoryIdentifierProperty } from "../schemas/parameters.ts";
import type { Snapshot } from "../snapshot/types.ts";
import { type Document, snapshotDocument } from "./caching.ts";
import type { NotFoundPage } from "./errors.ts";
import { prefersMarkdown } from "./negotiation.ts";
import { readOnlyRoute } from "./read-only.ts";

/** Headers of HTML pages: no script at all, styles and images from this site only, forms to this site only. */
const HTML_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};
/** Headers of every other page and file: its type is the one we say. */
const TEXT_HEADERS = { "x-content-type-options": "nosniff" };

const IDENTIFIER = new RegExp(directoryIdentifierProperty.pattern);

/** The `:slug` of a page URL: pages take no schema, so a bad slug is their own 404, not an API error. */
function slugOf(request: FastifyRequest): string {
  return (request.params as { slug: string }).slug;
}

function linkHeaders(markdownUrl: string | null): string[] {
  const describedBy = `<${LLMS_PATH}>; rel="describedby"`;
  return markdownUrl === null ? [describedBy] : [`<${markdownUrl}>; rel="alternate"; type="text/markdown"`, describedBy];
}

/** Sends a page body of `type` with the headers every page of that type carries. */
function sendBody(reply: FastifyReply, type: string, body: string | Buffer): FastifyReply {
  return reply
    .headers(type === HTML_TYPE ? HTML_HEADERS : TEXT_HEADERS)
    .type(type)
    .send(body);
}

/** Sends a document made once per snapshot, with its entity tag. */
function sendDocument(reply: FastifyReply, type: string, document: Document): FastifyReply {
  return sendBody(reply.header("etag", document.etag), type, document.body);
}

/** A page the build wrote into the snapshot (`/llms.txt`, `/offerings/x/index.md`), hashed once. */
function snapshotPage(snapshot: Snapshot, path: string): Document | undefined {
  return snapshotDocument(snapshot, path, () => snapshot.pages.get(path));
}

/** A page rendered from the snapshot alone (404, 503), rendered and hashed once. */
function renderedOnce(snapshot: Snapshot, key: string, render: () => string): Document {
  // `render` always returns a body, so the document always exists.
  return snapshotDocument(snapshot, key, render) as Document;
}

/** The 404 page, Markdown when asked for (or when the URL itself was a Markdown URL), HTML otherwise. */
function sendNotFound(
  service: CatalogService,
  request: FastifyRequest,
  reply: FastifyReply,
  markdown = prefersMarkdown(request.headers.accept),
) {
  const snapshot = service.current();
  const { site, catalog } = snapshot;
  reply.code(404).header("vary", "Accept").header("link", linkHeaders(null));
  return markdown
    ? sendBody(reply, MARKDOWN_TYPE, renderedOnce(snapshot, "404.md", () => notFoundMarkdown(site, catalog.offerings)).body)
    : sendBody(reply, HTML_TYPE, renderedOnce(snapshot, "404.html", () => notFoundHtml(site, catalog.offerings)).body);
}

/** The page every unknown path outside the API gets. */
export function notFoundPage(service: CatalogService): NotFoundPage {
  return (request, reply) => sendNotFound(service, request, reply);
}

/**
 * Pages for people (HTML) and agents (Markdown): the homepage, guides, directory, profiles, and
 * the files beside them. An encapsulated plugin: its routes set their own headers, and nothing
 * here touches the API's or MCP's responses.
 */
export const pagesPlugin: FastifyPluginAsync<{ service: CatalogService }> = async (app, { service }) => {
  /** The directory's pages when the directory data is unavailable: 503, never an empty result. */
  function sendUnavailable(reply: FastifyReply, markdown: boolean, error: ApiError): FastifyReply {
    const snapshot = service.current();
    const view = { kind: "unavailable", form: {} } as const;
    reply
      .code(503)
      .headers(error.headers)
      .header("vary", "Accept")
      .header("link", linkHeaders(markdownPath(DIRECTORY_PATH)));
    return markdown
      ? sendBody(reply, MARKDOWN_TYPE, renderedOnce(snapshot, "503.md", () => directoryProblemMarkdown(snapshot.site, view)).body)
      : sendBody(reply, HTML_TYPE, renderedOnce(snapshot, "503.html", () => directoryHtml(snapshot.site, view)).body);
  }

  /** Runs a directory lookup; a 503 becomes the unavailable page, a 404 the not-found page. */
  function withDirectory(request: FastifyRequest, reply: FastifyReply, markdown: boolean, lookup: () => FastifyReply): FastifyReply {
    try {
      return lookup();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 503) return sendUnavailable(reply, markdown, error);
      if (error.status === 404) return sendNotFound(service, request, reply, markdown);
      throw error;
    }
  }

  /** A pre-rendered page: Markdown or HTML by the Accept header, `Vary: Accept` either way. */
  function sendPage(request: FastifyRequest, reply: FastifyReply, pagePath: string): FastifyReply {
    const markdown = prefersMarkdown(request.headers.accept);
    const document = snapshotPage(service.current(), markdown ? markdownPath(pagePath) : htmlPath(pagePath));
    if (document === undefined) return sendNotFound(service, request, reply, markdown);
    reply.header("vary", "Accept").header("link", linkHeaders(markdownPath(pagePath)));
    return sendDocument(reply, markdown ? MARKDOWN_TYPE : HTML_TYPE, document);
  }

  /** A Markdown URL (`.../index.md`): always Markdown, as a static host would serve it. */
  function sendMarkdown(request: FastifyRequest, reply: FastifyReply, pagePath: string): FastifyReply {
    const document = snapshotPage(service.current(), markdownPath(pagePath));
    if (document === undefined) return sendNotFound(service, request, reply, true);
    reply.header("link", linkHeaders(markdownPath(pagePath)));
    return sendDocument(reply, MARKDOWN_TYPE, document);
  }

  /** The business named in the URL, checked against the directory (503 when it is unavailable). */
  function businessPage(request: FastifyRequest, reply: FastifyReply, markdown: boolean, send: (pagePath: string) => FastifyReply) {
    const slug = slugOf(request);
    if (slug.length > BUSINESS_IDENTIFIER_MAX_LENGTH || !IDENTIFIER.test(slug)) return sendNotFound(service, request, reply, markdown);
    return withDirectory(request, reply, markdown, () => {
      const business = service.getBusiness(slug).value;
      if (business.slug !== slug) {
        // A UUID (or an id in capitals) names the listing too; its page lives at the slug.
        const target = businessPagePath(business.slug);
        return reply.redirect(markdown && request.url.endsWith("/index.md") ? markdownPath(target) : target, 301);
      }
      return send(businessPagePath(slug));
    });
  }

  /** The directory page for a valid query: the pre-rendered first page when nothing was filled in, else rendered now. */
  function directoryResults(reply: FastifyReply, markdown: boolean, parsed: Extract<DirectoryPageQuery, { ok: true }>): FastifyReply {
    const snapshot = service.current();
    const result = service.searchBusinesses(parsed.query).value;
    const untouched = !parsed.searched && result.offset === 0;
    if (markdown) {
      const overview = untouched ? snapshotPage(snapshot, markdownPath(DIRECTORY_PATH)) : undefined;
      return overview === undefined
        ? sendBody(reply, MARKDOWN_TYPE, directoryResultsMarkdown(snapshot.site, parsed.form, result))
        : sendDocument(reply, MARKDOWN_TYPE, overview);
    }
    // The build wrote the first page for static hosts; it is this very page when no field holds text.
    const blankForm = Object.values(parsed.form).every((value) => value === "");
    const firstPage = untouched && blankForm ? snapshotPage(snapshot, htmlPath(DIRECTORY_PATH)) : undefined;
    return firstPage === undefined
      ? sendBody(
          reply,
          HTML_TYPE,
          directoryHtml(snapshot.site, { kind: "results", form: parsed.form, searched: parsed.searched, page: result }),
        )
      : sendDocument(reply, HTML_TYPE, firstPage);
  }

  const cacheable = { cacheable: true };
  const page = (url: string, pagePath: string) =>
    readOnlyRoute(app, { url, config: cacheable, handler: async (request, reply) => sendPage(request, reply, pagePath) });
  const markdownFile = (pagePath: string) =>
    readOnlyRoute(app, {
      url: markdownPath(pagePath),
      config: cacheable,
      handler: async (request, reply) => sendMarkdown(request, reply, pagePath),
    });

  for (const path of [HOME_PATH, CONTACT_PATH, API_DOCS_PATH]) {
    page(path, path);
    markdownFile(path);
  }

  readOnlyRoute(app, {
    url: offeringPagePath(":slug"),
    config: cacheable,
    handler: async (request, reply) => sendPage(request, reply, offeringPagePath(slugOf(request))),
  });
  readOnlyRoute(app, {
    url: markdownPath(offeringPagePath(":slug")),
    config: cacheable,
    handler: async (request, reply) => sendMarkdown(request, reply, offeringPagePath(slugOf(request))),
  });

  readOnlyRoute(app, {
    url: businessPagePath(":slug"),
    config: cacheable,
    handler: async (request, reply) =>
      businessPage(request, reply, prefersMarkdown(request.headers.accept), (pagePath) => sendPage(request, reply, pagePath)),
  });
  readOnlyRoute(app, {
    url: markdownPath(businessPagePath(":slug")),
    config: cacheable,
    handler: async (request, reply) => businessPage(request, reply, true, (pagePath) => sendMarkdown(request, reply, pagePath)),
  });

  readOnlyRoute(app, {
    url: DIRECTORY_PATH,
    config: cacheable,
    handler: async (request, reply) => {
      const markdown = prefersMarkdown(request.headers.accept);
      reply.header("vary", "Accept").header("link", linkHeaders(markdownPath(DIRECTORY_PATH)));
      const parsed = parseDirectoryQuery(request.query as Record<string, unknown>);
      if (!parsed.ok) {
        const site = service.current().site;
        const view = { kind: "invalid", form: parsed.form, field: parsed.field, message: parsed.message } as const;
        reply.code(400);
        return markdown
          ? sendBody(reply, MARKDOWN_TYPE, directoryProblemMarkdown(site, view))
          : sendBody(reply, HTML_TYPE, directoryHtml(site, view));
      }
      return withDirectory(request, reply, markdown, () => directoryResults(reply, markdown, parsed));
    },
  });
  readOnlyRoute(app, {
    url: markdownPath(DIRECTORY_PATH),
    config: cacheable,
    handler: async (request, reply) =>
      withDirectory(request, reply, true, () => {
        if (service.current().directory === null) throw directoryUnavailable();
        return sendMarkdown(request, reply, DIRECTORY_PATH);
      }),
  });

  const file = (path: string, type: string) =>
    readOnlyRoute(app, {
      url: path,
      config: cacheable,
      handler: async (request, reply) => {
        const document = snapshotPage(service.current(), path);
        return document === undefined ? sendNotFound(service, request, reply) : sendDocument(reply, type, document);
      },
    });
  file(LLMS_PATH, TEXT_TYPE);
  file(LLMS_FULL_PATH, TEXT_TYPE);
  file(SITEMAP_PATH, XML_TYPE);
  file(ROBOTS_PATH, TEXT_TYPE);
  file(STYLESHEET_PATH, CSS_TYPE);
};
