import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";
import type { Block } from "./page-model.ts";

/**
 * Editors' Markdown (guides, the homepage intro, our own documentation) as HTML. marked does
 * not sanitise: raw HTML and `javascript:` links pass through it, so its output always goes
 * through sanitize-html with a short allow-list. Business text never comes here: it is escaped
 * as plain text (src/pages/escape.ts).
 */

const marked = new Marked({ gfm: true, async: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "del",
    "code",
    "pre",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  allowedAttributes: { a: ["href", "title"], th: ["align"], td: ["align"], ol: ["start"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // A level-1 heading is the page's own title; an editor's `#` becomes the next level down.
  transformTags: { h1: "h2" },
};

function markdownToHtml(markdown: string): string {
  const html = marked.parse(markdown) as string;
  return sanitizeHtml(html, SANITIZE).trim();
}

/**
 * A block of editors' Markdown, its HTML made here: pages with editors' text (the homepage,
 * guides, the API documentation) are all rendered by the build, so the server's own pages never
 * load marked or sanitize-html (about 0.2–0.3 s of its start).
 */
export function editorial(markdown: string): Extract<Block, { kind: "editorial" }> {
  return { kind: "editorial", markdown, html: markdownToHtml(markdown) };
}
