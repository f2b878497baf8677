import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { DIRECTORY_PATH, htmlPath, markdownPath } from "../../contract.ts";
import { type AnswerCache, type Kept, kept } from "../../core/answer-cache.ts";
import { pageSearch } from "../../core/answers.ts";
import { directoryOf, searchDirectory } from "../../core/directory.ts";
import { facetDirectory, PAGE_FACETS } from "../../core/facets.ts";
import { servedView } from "../../core/served.ts";
import { helpForEmptySearch } from "../../core/suggest.ts";
import { directoryHtml, directoryHtmlBytes, directoryMarkdown } from "../../render/directory.ts";
import { directoryMarkdownHref } from "../../render/directory-form.ts";
import type { DirectoryView } from "../../render/directory-view.ts";
import type { Part, ServedView, SnapshotView } from "../../snapshot/view.ts";
import { formKey, parseDirectoryQuery, type ValidPageQuery } from "../directory-query.ts";
import { snapshotPage } from "../documents.ts";
import { documentPage, keyedTag, pageKept, sendKept } from "../kept.ts";
import { prefersMarkdown } from "../negotiation.ts";
import { cardsOf, choicesFor } from "../page-parts.ts";
import { pageFacts, withDirectory } from "../page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

/**
 * The directory search page, `/businesses`: the search form, a page of results with the total
 * and the search's counts by service and country, and what to try when nothing is found. Its
 * Markdown URL answers a query too (`/businesses/index.md?q=plumb&offset=20`), so that an agent
 * can follow every Markdown link without headers; without a query it is the overview a static
 * host serves. A page is parsed, searched, rendered and kept in the view's answer cache under
 * the form as it was typed.
 */

/** The page of a valid query, rendered now: the search's page of cards, its total and counts, or what to try instead. */
function searchedPage(view: SnapshotView, parsed: ValidPageQuery, markdown: boolean, negotiated: boolean, key: string): Kept {
  const { site } = view.snapshot;
  const search = pageSearch(parsed.query);
  const { ranks, ...paging } = searchDirectory(view, search);
  const nothing = ranks.length === 0 && paging.offset === 0;
  // Counting every match costs a walk over them: made only for a page that shows matches.
  const facets = nothing ? undefined : facetDirectory(view, { ...search, limit: 1, offset: 0 }, PAGE_FACETS);
  const choices = choicesFor(view);
  const page: DirectoryView = {
    kind: "results",
    form: parsed.form,
    searched: parsed.searched,
    page: { ...paging, cards: cardsOf(view, ranks) },
    total: facets?.total ?? 0,
    ...(nothing && parsed.searched ? { offer: { ...helpForEmptySearch(view, parsed.query), services: choices.services } } : {}),
    ...(parsed.searched && facets !== undefined ? { facets } : {}),
  };
  const body = markdown ? directoryMarkdown(site, page, choices) : directoryHtmlBytes(site, page, choices);
  // A page is a function of the snapshot and of what was asked (the form as typed, the page's
  // type): its tag is made from those, not by hashing the rendered page.
  const facts = pageFacts(view, markdown, directoryMarkdownHref(parsed.form, parsed.query.offset), negotiated);
  return pageKept(body, keyedTag(view, markdown ? "dm" : "dh", key), facts);
}

/** The page for a valid query: the pre-rendered first page when nothing was filled in, else one kept or rendered now. */
function resultsPage(view: SnapshotView, parsed: ValidPageQuery, markdown: boolean, negotiated: boolean, cache: AnswerCache | null): Kept {
  // Without the directory every page of it is the 503 page, the pre-rendered first page too.
  directoryOf(view);
  const untouched = !parsed.searched && parsed.query.offset === 0;
  // The build wrote the first page (and the Markdown overview) for static hosts: it is this very page when no field holds text.
  const blankForm = Object.values(parsed.form).every((value) => value === "");
  const written =
    untouched && (markdown || blankForm)
      ? snapshotPage(view, markdown ? markdownPath(DIRECTORY_PATH) : htmlPath(DIRECTORY_PATH))
      : undefined;
  const markdownUrl = directoryMarkdownHref(parsed.form, parsed.query.offset);
  if (written !== undefined) return documentPage(written, pageFacts(view, markdown, markdownUrl, negotiated));
  const key = formKey(parsed);
  // The page's own URL answers with Vary: Accept, its Markdown URL without: two entries for the same Markdown.
  const representation = `${markdown ? "md" : "html"}${negotiated ? "" : " at its Markdown URL"}`;
  return kept(cache, `${representation} directory ${key}`, () => searchedPage(view, parsed, markdown, negotiated, key));
}

/** `markdown` is fixed for the Markdown URL, and follows the Accept header at the page's own. */
function directoryPage(
  view: SnapshotView,
  request: FastifyRequest,
  reply: FastifyReply,
  markdown: boolean,
  negotiated: boolean,
  answers: Part<AnswerCache | null>,
): FastifyReply {
  const parsed = parseDirectoryQuery(request.query as Record<string, unknown>);
  if (!parsed.ok) {
    const { site } = view.snapshot;
    const invalid = { kind: "invalid", form: parsed.form, field: parsed.field, message: parsed.message } as const;
    const choices = view.snapshot.directory === null ? undefined : choicesFor(view);
    const body = markdown ? directoryMarkdown(site, invalid, choices) : directoryHtml(site, invalid, choices);
    // Untagged: a 400 is an error, never cached.
    return sendKept(reply.code(400), pageKept(body, null, pageFacts(view, markdown, directoryMarkdownHref(parsed.form, 0), negotiated)));
  }
  return withDirectory(view, request, reply, markdown, () =>
    sendKept(reply, resultsPage(view, parsed, markdown, negotiated, view.get(answers))),
  );
}

export function registerDirectoryPage(app: FastifyInstance, served: ServedView, answers: Part<AnswerCache | null>): void {
  readOnlyRoute(app, {
    url: DIRECTORY_PATH,
    config: { cacheable: true },
    handler: async (request, reply) =>
      directoryPage(servedView(served), request, reply, prefersMarkdown(request.headers.accept), true, answers),
  });
  readOnlyRoute(app, {
    url: markdownPath(DIRECTORY_PATH),
    config: { cacheable: true },
    handler: async (request, reply) => directoryPage(servedView(served), request, reply, true, false, answers),
  });
}
