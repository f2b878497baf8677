import type { FastifyReply, FastifyRequest } from "fastify";
import { errorHeaders } from "../api/error-headers.ts";
import { DIRECTORY_PATH, HTML_TYPE, MARKDOWN_TYPE, markdownPath } from "../contract.ts";
import { ApiError } from "../core/errors.ts";
import { servedView } from "../core/served.ts";
import { directoryHtml, directoryMarkdown } from "../render/directory.ts";
import { notFoundHtml, notFoundMarkdown } from "../render/not-found.ts";
import { contentSignalOf } from "../schemas/content.ts";
import type { Part, ServedView, SnapshotView } from "../snapshot/view.ts";
import { renderedOnce } from "./documents.ts";
import type { NotFoundPage } from "./hooks/errors.ts";
import { type Document, documentPage, type PageFacts, sendKept } from "./kept.ts";
import { prefersMarkdown } from "./negotiation.ts";

/**
 * What the page routes answer with besides their own pages: the facts every page's headers are
 * made from, and the 404 and 503 pages (made once per view). Security headers (CSP, nosniff,
 * referrer policy) are set for every answer by src/http/hooks/security.ts.
 */

/** site.md's Content-Signal, as the header writes it: once per view. */
const CONTENT_SIGNAL: Part<string | undefined> = { name: "content signal", make: (view) => contentSignalOf(view.snapshot.site) };

/** What a page of `view` sends beside its body: `markdown` or HTML, its Markdown URL, whether its URL is negotiated. */
export function pageFacts(view: SnapshotView, markdown: boolean, markdownUrl: string | null, negotiated: boolean): PageFacts {
  return { type: markdown ? MARKDOWN_TYPE : HTML_TYPE, markdownUrl, negotiated, contentSignal: view.get(CONTENT_SIGNAL) };
}

/** Sends a document of the view as a page: Markdown or HTML, at its Markdown URL or negotiated at its own. */
export function sendPage(
  view: SnapshotView,
  reply: FastifyReply,
  document: Document,
  markdown: boolean,
  markdownUrl: string,
  negotiated: boolean,
): FastifyReply {
  return sendKept(reply, documentPage(document, pageFacts(view, markdown, markdownUrl, negotiated)));
}

/** The 404 page, Markdown when asked for (or when the URL itself was a Markdown URL), HTML otherwise. */
export function sendNotFound(
  view: SnapshotView,
  request: FastifyRequest,
  reply: FastifyReply,
  markdown = prefersMarkdown(request.headers.accept),
): FastifyReply {
  const { site, catalog } = view.snapshot;
  const document = markdown
    ? renderedOnce(view, "404.md", () => notFoundMarkdown(site, catalog.offerings))
    : renderedOnce(view, "404.html", () => notFoundHtml(site, catalog.offerings));
  // Untagged: errors are never cached.
  return sendKept(reply.code(404), documentPage(document, pageFacts(view, markdown, null, true), false));
}

/** The page every unknown path outside the API gets: Markdown for a Markdown URL (`….md`) or when Markdown is preferred. */
export function notFoundPage(served: ServedView): NotFoundPage {
  return (request, reply) =>
    sendNotFound(
      servedView(served),
      request,
      reply,
      (request.url.split("?", 1)[0] ?? "").endsWith(".md") || prefersMarkdown(request.headers.accept),
    );
}

/** The directory's pages when the directory data is unavailable: 503, never an empty result. */
function sendUnavailable(view: SnapshotView, reply: FastifyReply, markdown: boolean, error: ApiError): FastifyReply {
  const { site } = view.snapshot;
  const unavailable = { kind: "unavailable", form: {} } as const;
  const document = markdown
    ? renderedOnce(view, "503.md", () => directoryMarkdown(site, unavailable))
    : renderedOnce(view, "503.html", () => directoryHtml(site, unavailable));
  reply.code(503).headers(errorHeaders(error));
  return sendKept(reply, documentPage(document, pageFacts(view, markdown, markdownPath(DIRECTORY_PATH), true), false));
}

/** Runs a directory lookup; a 503 becomes the unavailable page, a 404 the not-found page. */
export function withDirectory(
  view: SnapshotView,
  request: FastifyRequest,
  reply: FastifyReply,
  markdown: boolean,
  lookup: () => FastifyReply,
): FastifyReply {
  try {
    return lookup();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 503) return sendUnavailable(view, reply, markdown, error);
    if (error.status === 404) return sendNotFound(view, request, reply, markdown);
    throw error;
  }
}
