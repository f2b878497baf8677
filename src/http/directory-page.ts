import etag from "etag";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DIRECTORY_PATH, HTML_TYPE, htmlPath, MARKDOWN_TYPE, markdownPath } from "../contract.ts";
import type { CatalogService } from "../core/service.ts";
import { helpForEmptySearch } from "../core/suggest.ts";
import { directoryHtml, directoryHtmlBytes, directoryMarkdown } from "../render/directory.ts";
import { directoryCards } from "../render/directory-cards.ts";
import { type DirectoryPageQuery, directoryMarkdownHref, parseDirectoryQuery } from "../render/directory-form.ts";
import type { DirectoryChoices, EmptySearchOffer } from "../render/directory-view.ts";
import type { DirectorySearchQuery } from "../schemas/parameters.ts";
import { prefersMarkdown } from "./negotiation.ts";
import { choicesFor, linkHeaders, sendBody, sendDocument, snapshotPage, withDirectory } from "./page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

/**
 * The directory search page, `/businesses`: the search form, a page of results with the total,
 * and what to try when nothing is found. Its Markdown URL answers a query too
 * (`/businesses/index.md?q=plumb&offset=20`), so that an agent can follow every Markdown link
 * without headers; without a query it is the overview a static host serves.
 */
export function registerDirectoryPage(app: FastifyInstance, service: CatalogService): void {
  /** The countries and services to choose from, or none while the directory is unavailable. */
  function directoryChoices(): DirectoryChoices | undefined {
    const snapshot = service.current();
    return snapshot.directory === null ? undefined : choicesFor(snapshot, snapshot.directory);
  }

  /** What a search that found nothing offers: a place or spelling it may have meant, and the services with their counts. */
  function emptySearchOffer(query: DirectorySearchQuery): EmptySearchOffer {
    const directory = service.directory();
    return {
      ...helpForEmptySearch(directory, query),
      services: choicesFor(service.current(), directory).services,
    };
  }

  /** The page for a valid query: the pre-rendered first page when nothing was filled in, else rendered now. */
  function directoryResults(reply: FastifyReply, markdown: boolean, parsed: Extract<DirectoryPageQuery, { ok: true }>): FastifyReply {
    const snapshot = service.current();
    // The page is a function of the snapshot and of what was asked (the form, as typed, and the
    // page's type): its tag is made from those, not by hashing the rendered page.
    reply.header("etag", etag(`${snapshot.manifest.version}|${markdown ? "md" : "html"}|${JSON.stringify([parsed.form, parsed.query])}`));
    const result = service.searchBusinessRanks(parsed.query);
    const untouched = !parsed.searched && result.offset === 0;
    const nothing = result.ranks.length === 0 && result.offset === 0;
    const offer = nothing && parsed.searched ? emptySearchOffer(parsed.query) : undefined;
    if (markdown) {
      const overview = untouched ? snapshotPage(snapshot, markdownPath(DIRECTORY_PATH)) : undefined;
      if (overview !== undefined) return sendDocument(reply, MARKDOWN_TYPE, overview);
    } else {
      // The build wrote the first page for static hosts; it is this very page when no field holds text.
      const blankForm = Object.values(parsed.form).every((value) => value === "");
      const firstPage = untouched && blankForm ? snapshotPage(snapshot, htmlPath(DIRECTORY_PATH)) : undefined;
      if (firstPage !== undefined) return sendDocument(reply, HTML_TYPE, firstPage);
    }
    // Counting every match costs a walk over them: made only for a page rendered now (not the pre-rendered ones above).
    const counted = nothing ? undefined : service.narrowingCounts(parsed.query);
    const { ranks, ...paging } = result;
    const view = {
      kind: "results",
      form: parsed.form,
      searched: parsed.searched,
      // Each listing's card is made once per snapshot (src/render/directory-cards.ts); the page joins them.
      page: { ...paging, cards: directoryCards(service.directory(), snapshot.site.baseUrl, ranks) },
      total: counted?.total ?? 0,
      offer,
      ...(parsed.searched && counted !== undefined ? { facets: counted } : {}),
    } as const;
    const choices = choicesFor(snapshot, service.directory());
    return markdown
      ? sendBody(reply, snapshot, MARKDOWN_TYPE, directoryMarkdown(snapshot.site, view, choices))
      : sendBody(reply, snapshot, HTML_TYPE, directoryHtmlBytes(snapshot.site, view, choices));
  }

  /** `markdown` is fixed for the Markdown URL, and follows the Accept header at the page's own. */
  function directoryPage(request: FastifyRequest, reply: FastifyReply, markdown: boolean): FastifyReply {
    const parsed = parseDirectoryQuery(request.query as Record<string, unknown>);
    reply.header("link", linkHeaders(directoryMarkdownHref(parsed.form, parsed.ok ? parsed.query.offset : 0)));
    if (!parsed.ok) {
      const snapshot = service.current();
      const view = { kind: "invalid", form: parsed.form, field: parsed.field, message: parsed.message } as const;
      reply.code(400);
      return markdown
        ? sendBody(reply, snapshot, MARKDOWN_TYPE, directoryMarkdown(snapshot.site, view, directoryChoices()))
        : sendBody(reply, snapshot, HTML_TYPE, directoryHtml(snapshot.site, view, directoryChoices()));
    }
    return withDirectory(service, request, reply, markdown, () => directoryResults(reply, markdown, parsed));
  }

  readOnlyRoute(app, {
    url: DIRECTORY_PATH,
    config: { cacheable: true },
    handler: async (request, reply) => {
      reply.header("vary", "Accept");
      return directoryPage(request, reply, prefersMarkdown(request.headers.accept));
    },
  });
  readOnlyRoute(app, {
    url: markdownPath(DIRECTORY_PATH),
    config: { cacheable: true },
    handler: async (request, reply) => directoryPage(request, reply, true),
  });
}
