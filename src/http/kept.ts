import etag from "etag";
import type { FastifyReply } from "fastify";
import { API_CATALOG_PATH, JSON_TYPE, LLMS_PATH, MARKDOWN_TYPE } from "../contract.ts";
import type { Kept } from "../core/answer-cache.ts";
import type { SnapshotView } from "../snapshot/view.ts";

/**
 * The one place where an answer's entity tag and headers are made: a kept answer (src/core/
 * answer-cache.ts) is its bytes and these headers, sent as they are; Cache-Control and 304s are
 * the caching hook's (src/http/hooks/caching.ts), the security headers the security hook's.
 */

/** FNV-1a: a short, fast fingerprint of a key, for entity tags. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * The entity tag of an answer that the same snapshot always makes the same for the same key (a
 * search, a listing): its version, the answer's kind and the key's fingerprint, so the body is
 * never hashed. Strong: the same tag always means the same bytes.
 */
export function keyedTag(view: SnapshotView, kind: string, key: string): string {
  return `"${view.snapshot.manifest.version}-${kind}${fingerprint(key)}"`;
}

/** The entity tag of an answer there is one of per snapshot (the whole directory as a file). */
export function versionTag(view: SnapshotView, kind: string): string {
  return `"${view.snapshot.manifest.version}-${kind}"`;
}

/** The entity tag of a body, hashed: for answers whose bytes are the only thing that names them. */
export function hashedTag(body: Buffer | string): string {
  return etag(body);
}

/** A JSON answer as it is sent. */
export function jsonKept(body: Buffer, tag: string): Kept {
  return {
    body,
    headers: [
      ["content-type", JSON_TYPE],
      ["etag", tag],
    ],
  };
}

/** Characters per token: the usual rule of thumb for English text and the tokenizers of today's models. */
const CHARACTERS_PER_TOKEN = 4;
/** The second half of a character written as two UTF-16 units (an emoji, say). */
const LOW_SURROGATE = /[\uDC00-\uDFFF]/g;

/**
 * An estimate, not a count, of how many tokens `text` makes for a language model: its characters
 * (Unicode code points) divided by four, rounded up. No tokenizer is installed, and every model's
 * differs; the estimate is for sizing a context window, not for billing.
 */
function estimateTokens(text: string): number {
  const characters = text.length - (text.match(LOW_SURROGATE)?.length ?? 0);
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/** The `Link` to the API catalog (RFC 9727 §3): on every page, and on the catalog itself. */
export const API_CATALOG_LINK = `<${API_CATALOG_PATH}>; rel="api-catalog"`;

/** The `Link` headers of a page, as one value: its Markdown URL (when it has one), llms.txt and the API catalog. */
function pageLinks(markdownUrl: string | null): string {
  const shared = `<${LLMS_PATH}>; rel="describedby", ${API_CATALOG_LINK}`;
  return markdownUrl === null ? shared : `<${markdownUrl}>; rel="alternate"; type="text/markdown", ${shared}`;
}

/** What a page's headers are made from besides its body. */
export interface PageFacts {
  /** HTML_TYPE or MARKDOWN_TYPE. */
  readonly type: string;
  /** The Markdown URL its Link header names; null for a page that has none (404). */
  readonly markdownUrl: string | null;
  /** Whether the URL answers HTML or Markdown by the Accept header (Vary: Accept). */
  readonly negotiated: boolean;
  /** site.md's contentSignal, when it gives one. */
  readonly contentSignal: string | undefined;
}

/**
 * The headers of an HTML or Markdown page: its type and tag (none on an error page), `Vary:
 * Accept` where the URL is negotiated, its Link header, `Content-Signal`, and on Markdown
 * `x-markdown-tokens` (its body's estimate, `tokens`).
 */
function pageHeaders(tag: string | null, facts: PageFacts, tokens: number): [string, string][] {
  const headers: [string, string][] = [["content-type", facts.type]];
  if (tag !== null) headers.push(["etag", tag]);
  if (facts.negotiated) headers.push(["vary", "Accept"]);
  headers.push(["link", pageLinks(facts.markdownUrl)]);
  if (facts.contentSignal !== undefined) headers.push(["content-signal", facts.contentSignal]);
  if (facts.type === MARKDOWN_TYPE) headers.push(["x-markdown-tokens", String(tokens)]);
  return headers;
}

/** A page rendered for this request (a directory search's), as it is sent. */
export function pageKept(body: Buffer | string, tag: string | null, facts: PageFacts): Kept {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const tokens = facts.type === MARKDOWN_TYPE ? estimateTokens(typeof body === "string" ? body : body.toString("utf8")) : 0;
  return { body: bytes, headers: pageHeaders(tag, facts, tokens) };
}

/**
 * A body that cannot change within a snapshot (a page, openapi.json, a sitemap part), in UTF-8,
 * with its entity tag and token estimate, worked out once (src/http/documents.ts keeps it).
 */
export interface Document {
  readonly body: Buffer;
  readonly etag: string;
  readonly tokens: number;
}

/** A document of `key` (a Markdown document's key is a Markdown path, `….md`: only those are read for tokens). */
export function documentOf(key: string, text: string): Document {
  const body = Buffer.from(text);
  return { body, etag: hashedTag(body), tokens: key.endsWith(".md") ? estimateTokens(text) : 0 };
}

/** A kept document as a page is sent; `tagged` false for an error page (errors are never cached). */
export function documentPage(document: Document, facts: PageFacts, tagged = true): Kept {
  return { body: document.body, headers: pageHeaders(tagged ? document.etag : null, facts, document.tokens) };
}

/** A kept document as a file is sent (llms.txt, a sitemap part, the stylesheet): its type and tag, and a Link when it has one. */
export function documentFile(document: Document, type: string, link?: string): Kept {
  const headers: [string, string][] = [
    ["content-type", type],
    ["etag", document.etag],
  ];
  if (link !== undefined) headers.push(["link", link]);
  return { body: document.body, headers };
}

/** Sends a kept answer: its headers, one by one (reply.headers(object) would list and read the keys again), and its bytes. */
export function sendKept(reply: FastifyReply, kept: Kept): FastifyReply {
  const { headers } = kept;
  for (let i = 0; i < headers.length; i += 1) {
    const [name, value] = headers[i] as readonly [string, string];
    reply.header(name, value);
  }
  return reply.send(kept.body);
}
