import type { FastifyReply, FastifyRequest } from "fastify";
import { API_CATALOG_PATH, DIRECTORY_PATH, HTML_TYPE, LLMS_PATH, MARKDOWN_TYPE, markdownPath } from "../contract.ts";
import { ApiError } from "../core/errors.ts";
import type { CatalogService } from "../core/service.ts";
import { directoryHtml, directoryMarkdown } from "../render/directory.ts";
import { type DirectorySummary, directorySummary } from "../render/directory-lists.ts";
import { choicesOf, type DirectoryChoices } from "../render/directory-view.ts";
import { notFoundHtml, notFoundMarkdown } from "../render/not-found.ts";
import { contentSignalOf } from "../schemas/content.ts";
import type { Directory, Snapshot } from "../snapshot/types.ts";
import { type Document, snapshotDocument } from "./caching.ts";
import type { NotFoundPage } from "./errors.ts";
import { prefersMarkdown } from "./negotiation.ts";
import { estimateTokens, setPageHeaders } from "./page-headers.ts";

/**
 * What every page route answers with: the headers pages carry, documents kept per snapshot, and
 * the 404 and 503 pages. Security headers (CSP, nosniff, referrer policy) are set for every
 * answer by src/http/security.ts; Content-Signal and x-markdown-tokens by src/http/page-headers.ts.
 */

/** The `Link` to the API catalog (RFC 9727 §3): on every page, and on the catalog itself. */
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`;

/** The `Link` headers of a page: its Markdown URL (when it has one), llms.txt and the API catalog. */
export function linkHeaders(markdownUrl: string | null): string[] {
  const shared = [`<${LLMS_PATH}>; rel="describedby"`, API_CATALOG_LINK];
  return markdownUrl === null ? shared : [`<${markdownUrl}>; rel="alternate"; type="text/markdown"`, ...shared];
}

/** Sends a page of `type` rendered for this request from `snapshot`: its text, or its bytes already in UTF-8. */
export function sendBody(reply: FastifyReply, snapshot: Snapshot, type: string, body: string | Buffer): FastifyReply {
  // Only Markdown (always text) carries the estimate: an HTML page (a search's, often large) is not read for it.
  const tokens = type === MARKDOWN_TYPE && typeof body === "string" ? estimateTokens(body) : 0;
  setPageHeaders(reply, type, { tokens, contentSignal: contentSignalOf(snapshot.site) });
  return reply.type(type).send(body);
}

/** Sends a document made once per snapshot, without its entity tag (an error page: errors are never cached). */
function sendUntagged(reply: FastifyReply, type: string, document: Document): FastifyReply {
  setPageHeaders(reply, type, document);
  return reply.type(type).send(document.body);
}

/** Sends a document made once per snapshot, with its entity tag. */
export function sendDocument(reply: FastifyReply, type: string, document: Document): FastifyReply {
  return sendUntagged(reply.header("etag", document.etag), type, document);
}

/** A page the build wrote into the snapshot (`/llms.txt`, `/offerings/x/index.md`), hashed once. */
export function snapshotPage(snapshot: Snapshot, path: string): Document | undefined {
  return snapshotDocument(snapshot, path, () => snapshot.pages.get(path));
}

/** A page rendered from the snapshot alone (404, 503), rendered and hashed once. */
function renderedOnce(snapshot: Snapshot, key: string, render: () => string): Document {
  // `render` always returns a body, so the document always exists.
  return snapshotDocument(snapshot, key, render) as Document;
}

/** The 404 page, Markdown when asked for (or when the URL itself was a Markdown URL), HTML otherwise. */
export function sendNotFound(
  service: CatalogService,
  request: FastifyRequest,
  reply: FastifyReply,
  markdown = prefersMarkdown(request.headers.accept),
): FastifyReply {
  const snapshot = service.current();
  const { site, catalog } = snapshot;
  reply.code(404).header("vary", "Accept").header("link", linkHeaders(null));
  return markdown
    ? sendUntagged(
        reply,
        MARKDOWN_TYPE,
        renderedOnce(snapshot, "404.md", () => notFoundMarkdown(site, catalog.offerings)),
      )
    : sendUntagged(
        reply,
        HTML_TYPE,
        renderedOnce(snapshot, "404.html", () => notFoundHtml(site, catalog.offerings)),
      );
}

/** The page every unknown path outside the API gets: Markdown for a Markdown URL (`….md`) or when Markdown is preferred. */
export function notFoundPage(service: CatalogService): NotFoundPage {
  return (request, reply) =>
    sendNotFound(service, request, reply, (request.url.split("?", 1)[0] ?? "").endsWith(".md") || prefersMarkdown(request.headers.accept));
}

/** The directory's pages when the directory data is unavailable: 503, never an empty result. */
function sendUnavailable(service: CatalogService, reply: FastifyReply, markdown: boolean, error: ApiError): FastifyReply {
  const snapshot = service.current();
  const view = { kind: "unavailable", form: {} } as const;
  reply
    .code(503)
    .headers(error.headers)
    .header("vary", "Accept")
    .header("link", linkHeaders(markdownPath(DIRECTORY_PATH)));
  return markdown
    ? sendUntagged(
        reply,
        MARKDOWN_TYPE,
        renderedOnce(snapshot, "503.md", () => directoryMarkdown(snapshot.site, view)),
      )
    : sendUntagged(
        reply,
        HTML_TYPE,
        renderedOnce(snapshot, "503.html", () => directoryHtml(snapshot.site, view)),
      );
}

/** Runs a directory lookup; a 503 becomes the unavailable page, a 404 the not-found page. */
export function withDirectory(
  service: CatalogService,
  request: FastifyRequest,
  reply: FastifyReply,
  markdown: boolean,
  lookup: () => FastifyReply,
): FastifyReply {
  try {
    return lookup();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 503) return sendUnavailable(service, reply, markdown, error);
    if (error.status === 404) return sendNotFound(service, request, reply, markdown);
    throw error;
  }
}

const summaryBySnapshot = new WeakMap<object, DirectorySummary>();

/** The directory's lists by country and service, derived once per snapshot. */
export function summaryOf(snapshot: Snapshot, directory: Directory): DirectorySummary {
  let summary = summaryBySnapshot.get(snapshot);
  if (summary === undefined) {
    summary = directorySummary(directory.index, snapshot.manifest.lists);
    summaryBySnapshot.set(snapshot, summary);
  }
  return summary;
}

const choicesBySummary = new WeakMap<DirectorySummary, DirectoryChoices>();

/** The directory's countries and services to choose from (the directory page's form and lists), derived once per snapshot. */
export function choicesFor(snapshot: Snapshot, directory: Directory): DirectoryChoices {
  const summary = summaryOf(snapshot, directory);
  let choices = choicesBySummary.get(summary);
  if (choices === undefined) {
    choices = choicesOf(summary);
    choicesBySummary.set(summary, choices);
  }
  return choices;
}
