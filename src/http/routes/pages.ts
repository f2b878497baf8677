import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, directoryUnavailable } from "../../core/errors.ts";
import type { CatalogService } from "../../core/service.ts";
import { type DirectoryView, directoryHtml, directoryProblemMarkdown, directoryResultsMarkdown } from "../../pages/directory.ts";
import { parseDirectoryQuery } from "../../pages/directory-query.ts";
import { prefersMarkdown } from "../../pages/negotiation.ts";
import { notFoundHtml, notFoundMarkdown } from "../../pages/not-found.ts";
import {
  API_DOCS_PATH,
  businessPagePath,
  CONTACT_PATH,
  DIRECTORY_PATH,
  HOME_PATH,
  htmlPath,
  LLMS_FULL_PATH,
  LLMS_PATH,
  markdownPath,
  offeringPagePath,
  ROBOTS_PATH,
  SITEMAP_PATH,
  STYLESHEET_PATH,
} from "../../pages/paths.ts";
import { directoryIdentifierProperty } from "../../schemas/parameters.ts";
import { documentTag } from "../caching.ts";
import type { NotFoundPage } from "../errors.ts";
import { readOnlyRoute } from "../read-only.ts";

const HTML = "text/html; charset=utf-8";
const MARKDOWN = "text/markdown; charset=utf-8";

/** Headers of HTML pages: no script at all, styles and images from this site only, forms to this site only. */
const HTML_SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
};
const TEXT_TYPES = ["text/markdown", "text/plain", "text/css", "application/xml"];

const IDENTIFIER = new RegExp(directoryIdentifierProperty.pattern);

function linkHeaders(markdownUrl: string | null): string[] {
  const describedBy = `<${LLMS_PATH}>; rel="describedby"`;
  return markdownUrl === null ? [describedBy] : [`<${markdownUrl}>; rel="alternate"; type="text/markdown"`, describedBy];
}

/**
 * Pages for people (HTML) and agents (Markdown): the homepage, guides, directory, profiles.
 * Returns the 404 page that unknown paths outside /api/ get.
 */
export function pageRoutes(app: FastifyInstance, service: CatalogService): NotFoundPage {
  app.addHook("onSend", async (_request, reply, payload) => {
    const type = String(reply.getHeader("content-type") ?? "");
    if (type.startsWith("text/html")) reply.headers(HTML_SECURITY_HEADERS);
    else if (TEXT_TYPES.some((prefix) => type.startsWith(prefix))) reply.header("x-content-type-options", "nosniff");
    return payload;
  });

  /** A 404 page, Markdown when asked for (or when the URL itself was a Markdown URL), HTML otherwise. */
  function sendNotFound(request: FastifyRequest, reply: FastifyReply, markdown = prefersMarkdown(request.headers.accept)): FastifyReply {
    const snapshot = service.current();
    const site = snapshot.site;
    reply.code(404).header("vary", "Accept").header("link", linkHeaders(null));
    return markdown
      ? reply.type(MARKDOWN).send(notFoundMarkdown(site, snapshot.catalog.offerings))
      : reply.type(HTML).send(notFoundHtml(site, snapshot.catalog.offerings));
  }

  /** The directory's pages when the directory data is unavailable: 503, never an empty result. */
  function sendUnavailable(reply: FastifyReply, markdown: boolean, error: ApiError): FastifyReply {
    const site = service.current().site;
    const view = { kind: "unavailable", form: {} } as const;
    reply
      .code(503)
      .headers(error.headers)
      .header("vary", "Accept")
      .header("link", linkHeaders(markdownPath(DIRECTORY_PATH)));
    return markdown ? reply.type(MARKDOWN).send(directoryProblemMarkdown(site, view)) : reply.type(HTML).send(directoryHtml(site, view));
  }

  /** Runs a directory lookup; a 503 becomes the unavailable page, a 404 the not-found page. */
  function withDirectory(request: FastifyRequest, reply: FastifyReply, markdown: boolean, lookup: () => FastifyReply): FastifyReply {
    try {
      return lookup();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 503) return sendUnavailable(reply, markdown, error);
      if (error.status === 404) return sendNotFound(request, reply, markdown);
      throw error;
    }
  }

  /** A document of the snapshot, with its ETag set once per snapshot; undefined when there is none. */
  function pageBody(reply: FastifyReply, path: string): string | undefined {
    const snapshot = service.current();
    const body = snapshot.pages.get(path);
    if (body !== undefined) reply.header("etag", documentTag(snapshot, path, body));
    return body;
  }

  /** A pre-rendered page: Markdown or HTML by the Accept header, `Vary: Accept` either way. */
  function sendPage(request: FastifyRequest, reply: FastifyReply, pagePath: string): FastifyReply {
    const markdown = prefersMarkdown(request.headers.accept);
    const body = pageBody(reply, markdown ? markdownPath(pagePath) : htmlPath(pagePath));
    if (body === undefined) return sendNotFound(request, reply, markdown);
    reply.header("vary", "Accept").header("link", linkHeaders(markdownPath(pagePath)));
    return reply.type(markdown ? MARKDOWN : HTML).send(body);
  }

  /** A Markdown URL (`.../index.md`): always Markdown, as a static host would serve it. */
  function sendMarkdown(request: FastifyRequest, reply: FastifyReply, pagePath: string): FastifyReply {
    const body = pageBody(reply, markdownPath(pagePath));
    if (body === undefined) return sendNotFound(request, reply, true);
    reply.header("link", linkHeaders(markdownPath(pagePath)));
    return reply.type(MARKDOWN).send(body);
  }

  /** The business named in the URL, checked against the directory (503 when it is unavailable). */
  function businessPage(
    request: FastifyRequest,
    reply: FastifyReply,
    markdown: boolean,
    send: (pagePath: string) => FastifyReply,
  ): FastifyReply {
    const { slug } = request.params as { slug: string };
    if (slug.length > directoryIdentifierProperty.maxLength || !IDENTIFIER.test(slug)) return sendNotFound(request, reply, markdown);
    return withDirectory(request, reply, markdown, () => {
      const business = service.getBusiness(slug);
      if (business.slug !== slug) {
        // A UUID (or an id in capitals) names the listing too; its page lives at the slug.
        const target = businessPagePath(business.slug);
        return reply.redirect(markdown && request.url.endsWith("/index.md") ? markdownPath(target) : target, 301);
      }
      return send(businessPagePath(slug));
    });
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

  page(HOME_PATH, HOME_PATH);
  page(CONTACT_PATH, CONTACT_PATH);
  page(API_DOCS_PATH, API_DOCS_PATH);
  for (const path of [HOME_PATH, CONTACT_PATH, API_DOCS_PATH]) markdownFile(path);

  readOnlyRoute(app, {
    url: "/offerings/:slug",
    config: cacheable,
    handler: async (request, reply) => sendPage(request, reply, offeringPagePath((request.params as { slug: string }).slug)),
  });
  readOnlyRoute(app, {
    url: "/offerings/:slug/index.md",
    config: cacheable,
    handler: async (request, reply) => sendMarkdown(request, reply, offeringPagePath((request.params as { slug: string }).slug)),
  });

  readOnlyRoute(app, {
    url: "/businesses/:slug",
    config: cacheable,
    handler: async (request, reply) => {
      const markdown = prefersMarkdown(request.headers.accept);
      return businessPage(request, reply, markdown, (pagePath) => sendPage(request, reply, pagePath));
    },
  });
  readOnlyRoute(app, {
    url: "/businesses/:slug/index.md",
    config: cacheable,
    handler: async (request, reply) => businessPage(request, reply, true, (pagePath) => sendMarkdown(request, reply, pagePath)),
  });

  readOnlyRoute(app, {
    url: DIRECTORY_PATH,
    config: cacheable,
    handler: async (request, reply) => {
      const markdown = prefersMarkdown(request.headers.accept);
      const site = service.current().site;
      reply.header("vary", "Accept").header("link", linkHeaders(markdownPath(DIRECTORY_PATH)));
      const parsed = parseDirectoryQuery(request.query as Record<string, unknown>);
      if (!parsed.ok) {
        const view = { kind: "invalid", form: parsed.form, field: parsed.field, message: parsed.message } as const;
        reply.code(400);
        return markdown
          ? reply.type(MARKDOWN).send(directoryProblemMarkdown(site, view))
          : reply.type(HTML).send(directoryHtml(site, view));
      }
      return withDirectory(request, reply, markdown, () => {
        const result = service.searchBusinesses(parsed.query);
        if (markdown) {
          const overview = service.current().pages.get(markdownPath(DIRECTORY_PATH));
          const body =
            !parsed.searched && result.offset === 0 && overview !== undefined
              ? overview
              : directoryResultsMarkdown(site, parsed.form, result);
          return reply.type(MARKDOWN).send(body);
        }
        const view: DirectoryView = { kind: "results", form: parsed.form, searched: parsed.searched, page: result };
        return reply.type(HTML).send(directoryHtml(site, view));
      });
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
        const body = pageBody(reply, path);
        return body === undefined ? sendNotFound(request, reply) : reply.type(type).send(body);
      },
    });
  file(LLMS_PATH, "text/plain; charset=utf-8");
  file(LLMS_FULL_PATH, "text/plain; charset=utf-8");
  file(SITEMAP_PATH, "application/xml; charset=utf-8");
  file(ROBOTS_PATH, "text/plain; charset=utf-8");
  file(STYLESHEET_PATH, "text/css; charset=utf-8");

  return (request, reply) => sendNotFound(request, reply);
}
