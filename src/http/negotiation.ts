import Negotiator from "negotiator";

const AVAILABLE = ["text/html", "text/markdown"];

/**
 * True when the Accept header prefers Markdown (interface §7): q-values are honoured, and
 * anything else (no Accept, `*\/*`, `text/*`, types we don't serve, a browser's header) is HTML.
 * On equal preference HTML wins, unless the client named Markdown first.
 */
export function prefersMarkdown(accept: string | string[] | undefined): boolean {
  const header = Array.isArray(accept) ? accept.join(", ") : accept;
  if (header === undefined || header.trim() === "") return false;
  return new Negotiator({ headers: { accept: header } }).mediaType(AVAILABLE) === "text/markdown";
}
