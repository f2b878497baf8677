import { Readable } from "node:stream";
import etag from "etag";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  API_DOCS_PATH,
  BULK_JSON_PATH,
  BULK_NDJSON_PATH,
  BUSINESS_IDENTIFIER_MAX_LENGTH,
  businessPagePath,
  CONTACT_PATH,
  CSS_TYPE,
  countryListPath,
  DIRECTORY_PATH,
  FAVICON_PATH,
  HOME_PATH,
  HTML_TYPE,
  htmlPath,
  ICON_TYPE,
  JSON_TYPE,
  LIST_PAGE_SIZE,
  LLMS_FULL_PATH,
  LLMS_PATH,
  MARKDOWN_TYPE,
  markdownPath,
  NDJSON_TYPE,
  offeringPagePath,
  ROBOTS_PATH,
  SITEMAP_PATH,
  STYLESHEET_PATH,
  serviceListPath,
  sitemapPartPath,
  TEXT_TYPE,
  XML_TYPE,
} from "../contract.ts";
import { bulkListings, findBusiness, listingAt } from "../core/directory.ts";
import { ApiError } from "../core/errors.ts";
import type { CatalogService } from "../core/service.ts";
import { helpForEmptySearch } from "../core/suggest.ts";
import { profileHtml, profileMarkdown } from "../render/business.ts";
import {
  choicesOf,
  type DirectoryChoices,
  directoryHtml,
  directoryProblemMarkdown,
  directoryResultsMarkdown,
  type EmptySearchOffer,
} from "../render/directory.ts";
import { type DirectoryPageQuery, parseDirectoryQuery } from "../render/directory-form.ts";
import { type DirectorySummary, directorySummary, listMarkdown, listPageCount } from "../render/directory-lists.ts";
import { faviconIco } from "../render/favicon.ts";
import { notFoundHtml, notFoundMarkdown } from "../render/not-found.ts";
import { sitemapPages, sitemapPartCount, sitemapPartXml, sitemapXml } from "../render/sitemap.ts";
import { type DirectorySearchQuery, directoryIdentifierProperty } from "../schemas/parameters.ts";
import { bytesAt, holdListingFile, type ListingStore, slugAt } from "../snapshot/listings.ts";
import type { Directory, Snapshot } from "../snapshot/types.ts";
import { type Document, renderedDocument, snapshotDocument } from "./caching.ts";
import type { NotFoundPage } from "./errors.ts";
import { prefersMarkdown } from "./negotiation.ts";
import { readOnlyRoute } from "./read-only.ts";

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
  // Security headers (CSP, nosniff, referrer policy) are set for every answer by src/http/security.ts.
  return reply.type(type).send(body);
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

/** The page every unknown path outside the API gets: Markdown for a Markdown URL (`….md`) or when Markdown is preferred. */
export function notFoundPage(service: CatalogService): NotFoundPage {
  return (request, reply) =>
    sendNotFound(service, request, reply, (request.url.split("?", 1)[0] ?? "").endsWith(".md") || prefersMarkdown(request.headers.accept));
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

  /** A page the manifest lists: kept in memory from the snapshot. */
  function catalogDocument(path: string): Document | undefined {
    return snapshotPage(service.current(), path);
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
    return withDirectory(request, reply, markdown, () => {
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

  /** The countries and services to choose from, or none while the directory is unavailable. */
  function directoryChoices(): DirectoryChoices | undefined {
    const snapshot = service.current();
    return snapshot.directory === null ? undefined : choicesOf(derived(snapshot, snapshot.directory).summary);
  }

  /** What a search that found nothing offers: a place or spelling it may have meant, and the services with their counts. */
  function emptySearchOffer(query: DirectorySearchQuery): EmptySearchOffer {
    const directory = service.directory();
    const { summary } = derived(service.current(), directory);
    return {
      ...helpForEmptySearch(directory, query),
      services: summary.services.map((entry) => ({ name: entry.name, total: entry.total, markdownPath: entry.pathOf(1) })),
    };
  }

  /** The directory page for a valid query: the pre-rendered first page when nothing was filled in, else rendered now. */
  function directoryResults(reply: FastifyReply, markdown: boolean, parsed: Extract<DirectoryPageQuery, { ok: true }>): FastifyReply {
    const snapshot = service.current();
    // The page is a function of the snapshot and of what was asked (the form, as typed, and the
    // page's type): its tag is made from those, not by hashing the rendered page.
    reply.header("etag", etag(`${snapshot.manifest.version}|${markdown ? "md" : "html"}|${JSON.stringify([parsed.form, parsed.query])}`));
    const result = service.searchBusinesses(parsed.query).value;
    const untouched = !parsed.searched && result.offset === 0;
    const nothing = result.items.length === 0 && result.offset === 0;
    const offer = nothing && parsed.searched ? emptySearchOffer(parsed.query) : undefined;
    // The whole count costs a pass over the matches' bitmaps: made only for a page that shows it.
    const total = () => (nothing ? 0 : service.countBusinesses(parsed.query));
    if (markdown) {
      const overview = untouched ? snapshotPage(snapshot, markdownPath(DIRECTORY_PATH)) : undefined;
      return overview === undefined
        ? sendBody(reply, MARKDOWN_TYPE, directoryResultsMarkdown(snapshot.site, parsed.form, result, total(), offer))
        : sendDocument(reply, MARKDOWN_TYPE, overview);
    }
    // The build wrote the first page for static hosts; it is this very page when no field holds text.
    const blankForm = Object.values(parsed.form).every((value) => value === "");
    const firstPage = untouched && blankForm ? snapshotPage(snapshot, htmlPath(DIRECTORY_PATH)) : undefined;
    return firstPage === undefined
      ? sendBody(
          reply,
          HTML_TYPE,
          directoryHtml(
            snapshot.site,
            {
              kind: "results",
              form: parsed.form,
              searched: parsed.searched,
              page: result,
              total: total(),
              offer,
            },
            choicesOf(derived(snapshot, service.directory()).summary),
          ),
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
      businessPage(request, reply, prefersMarkdown(request.headers.accept), (pagePath, documentOf) =>
        sendPage(request, reply, pagePath, documentOf),
      ),
  });
  readOnlyRoute(app, {
    url: markdownPath(businessPagePath(":slug")),
    config: cacheable,
    handler: async (request, reply) =>
      businessPage(request, reply, true, (pagePath, documentOf) => sendMarkdown(request, reply, pagePath, documentOf)),
  });

  /**
   * The directory search page. `markdown` is fixed for the Markdown URL, which answers a query
   * too (`/businesses/index.md?q=plumb&offset=20`), so that an agent can follow every Markdown
   * link without headers; without a query it is the overview a static host serves.
   */
  function directoryPage(request: FastifyRequest, reply: FastifyReply, markdown: boolean): FastifyReply {
    reply.header("link", linkHeaders(markdownPath(DIRECTORY_PATH)));
    const parsed = parseDirectoryQuery(request.query as Record<string, unknown>);
    if (!parsed.ok) {
      const site = service.current().site;
      const view = { kind: "invalid", form: parsed.form, field: parsed.field, message: parsed.message } as const;
      reply.code(400);
      return markdown
        ? sendBody(reply, MARKDOWN_TYPE, directoryProblemMarkdown(site, view))
        : sendBody(reply, HTML_TYPE, directoryHtml(site, view, directoryChoices()));
    }
    return withDirectory(request, reply, markdown, () => directoryResults(reply, markdown, parsed));
  }

  readOnlyRoute(app, {
    url: DIRECTORY_PATH,
    config: cacheable,
    handler: async (request, reply) => {
      reply.header("vary", "Accept");
      return directoryPage(request, reply, prefersMarkdown(request.headers.accept));
    },
  });
  readOnlyRoute(app, {
    url: markdownPath(DIRECTORY_PATH),
    config: cacheable,
    handler: async (request, reply) => directoryPage(request, reply, true),
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
  file(ROBOTS_PATH, TEXT_TYPE);
  file(STYLESHEET_PATH, CSS_TYPE);

  const favicon = faviconIco();
  const faviconTag = etag(favicon);
  readOnlyRoute(app, {
    url: FAVICON_PATH,
    config: cacheable,
    handler: async (_request, reply) => reply.header("etag", faviconTag).type(ICON_TYPE).send(favicon),
  });

  /** A Markdown list by country or service (`page` 1-based), rendered on request from the index. */
  function sendList(request: FastifyRequest, reply: FastifyReply, kind: "country" | "service", name: string, pageText: string) {
    return withDirectory(request, reply, true, () => {
      const directory = service.directory();
      const snapshot = service.current();
      const page = /^[1-9][0-9]{0,6}$/.test(pageText) ? Number(pageText) : 0;
      const { summary } = derived(snapshot, directory);
      const country = kind === "country" ? summary.countries.find((list) => list.code.toLowerCase() === name) : undefined;
      const byService = kind === "service" ? summary.services.find((list) => list.slug === name) : undefined;
      const found = country ?? byService;
      if (found === undefined || page < 1 || page > listPageCount(found.total)) return sendNotFound(service, request, reply, true);
      const path = found.pathOf(page);
      if (request.url.split("?")[0] !== path) return sendNotFound(service, request, reply, true);
      const entry =
        country !== undefined ? directory.countryIndex.get(country.code) : directory.index.services.indexOf(byService?.name ?? "");
      const postings = country !== undefined ? directory.index.countryPostings : directory.index.servicePostings;
      const document = renderedDocument(snapshot, path, () => {
        const from = (postings.offsets[entry ?? 0] ?? 0) + (page - 1) * LIST_PAGE_SIZE;
        const ranks = postings.values.subarray(from, Math.min(from + LIST_PAGE_SIZE, (postings.offsets[entry ?? 0] ?? 0) + found.total));
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
  const listRoutes = (kind: "country" | "service", pathOf: (name: string, page: number) => string) => {
    readOnlyRoute(app, {
      url: pathOf(":name", 1),
      config: cacheable,
      handler: async (request, reply) => sendList(request, reply, kind, nameOf(request), "1"),
    });
    readOnlyRoute(app, {
      url: pathOf(":name", 2).replace("page-2", "page-:page"),
      config: cacheable,
      handler: async (request, reply) => sendList(request, reply, kind, nameOf(request), pageOf(request)),
    });
  };
  listRoutes("country", countryListPath);
  listRoutes("service", serviceListPath);

  /** sitemap.xml and its parts, rendered from the catalog's pages and the listings' slugs. */
  function sendSitemap(request: FastifyRequest, reply: FastifyReply, part: number | null) {
    const snapshot = service.current();
    const directory = snapshot.directory;
    const listings = directory?.listings;
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
    url: sitemapPartPath(1).replace("1.xml", ":part.xml"),
    config: cacheable,
    handler: async (request, reply) => {
      const text = (request.params as { part: string }).part;
      return sendSitemap(request, reply, /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : 0);
    },
  });

  /**
   * The whole directory for bulk use: the snapshot's own bytes, never copied when it holds them
   * whole; streamed from the file when it reads them from disk.
   */
  readOnlyRoute(app, {
    url: BULK_NDJSON_PATH,
    config: cacheable,
    handler: async (request, reply) =>
      withDirectory(request, reply, false, () => {
        const listings = bulkListings(service.directory());
        reply.header("etag", `"${service.current().manifest.version}-ndjson"`).type(NDJSON_TYPE);
        if (listings.bytes !== null) return reply.send(listings.bytes);
        return reply
          .header("content-length", listings.lineStarts[listings.count] ?? 0)
          .send(streamed(request, listings, fileChunks(listings)));
      }),
  });
  readOnlyRoute(app, {
    url: BULK_JSON_PATH,
    config: cacheable,
    handler: async (request, reply) =>
      withDirectory(request, reply, false, () => {
        const listings = bulkListings(service.directory());
        return reply
          .headers({ etag: `"${service.current().manifest.version}-json"`, "content-length": jsonArrayLength(listings) })
          .type(JSON_TYPE)
          .send(streamed(request, listings, jsonArrayOfLines(listings)));
      }),
  });
};

/** What the pages derive from a snapshot once: the directory's lists, and the site's pages for the sitemap. */
const derivedBySnapshot = new WeakMap<object, { summary: DirectorySummary }>();
function derived(snapshot: Snapshot, directory: Directory): { summary: DirectorySummary } {
  let found = derivedBySnapshot.get(snapshot);
  if (found === undefined) {
    found = { summary: directorySummary(directory.index) };
    derivedBySnapshot.set(snapshot, found);
  }
  return found;
}

function nameOf(request: FastifyRequest): string {
  return (request.params as { name: string }).name;
}

function pageOf(request: FastifyRequest): string {
  return (request.params as { page: string }).page;
}

/**
 * A stream of `chunks` read from the listings' file, which stays open until the stream has ended
 * or been destroyed (a HEAD, a 304, a client gone), even if a newer snapshot replaces this one.
 * A debug line says when it lets go: nothing else outside this module can tell.
 */
function streamed(request: FastifyRequest, listings: ListingStore, chunks: AsyncGenerator<Buffer>): Readable {
  const release = holdListingFile(listings);
  return Readable.from(chunks).once("close", () => {
    release();
    request.log.debug("bulk download closed; the listings file is no longer held for it");
  });
}

/** businesses.ndjson read from disk a megabyte at a time. */
async function* fileChunks(listings: ListingStore): AsyncGenerator<Buffer> {
  const size = listings.lineStarts[listings.count] ?? 0;
  const CHUNK = 2 ** 20;
  for (let from = 0; from < size; from += CHUNK) yield await bytesAt(listings, from, Math.min(from + CHUNK, size));
}

/** The length of businesses.json: every listing's bytes, plus "[\n", ",\n" between listings and "\n]\n". */
function jsonArrayLength(listings: ListingStore): number {
  const { count, lineStarts } = listings;
  return (lineStarts[count] ?? 0) - count + 2 + Math.max(0, count - 1) * 2 + 3;
}

/**
 * businesses.json made from businesses.ndjson as it streams: "[", the lines joined by ",", "]",
 * byte for byte the file the build wrote, without holding a second copy of the directory.
 */
async function* jsonArrayOfLines(listings: ListingStore): AsyncGenerator<Buffer> {
  const { count, lineStarts } = listings;
  yield Buffer.from("[\n");
  const CHUNK = 512;
  for (let from = 0; from < count; from += CHUNK) {
    const to = Math.min(from + CHUNK, count);
    const first = lineStarts[from] ?? 0;
    const lines = await bytesAt(listings, first, lineStarts[to] ?? 0);
    const pieces: Buffer[] = [];
    for (let rank = from; rank < to; rank += 1) {
      if (rank > 0) pieces.push(COMMA_NEWLINE);
      pieces.push(lines.subarray((lineStarts[rank] ?? 0) - first, (lineStarts[rank + 1] ?? 1) - 1 - first));
    }
    yield Buffer.concat(pieces);
  }
  yield Buffer.from("\n]\n");
}

const COMMA_NEWLINE = Buffer.from(",\n");
