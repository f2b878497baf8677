/**
 * Escaping for each context a page writes text into. Everything a business supplied, and
 * everything an editor wrote outside a Markdown body, goes through one of these.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = new RegExp(HTML_SPECIAL.source, "g");

/** Text for HTML element content or a double-quoted attribute value (most text has nothing to escape, and is returned as it is). */
export function escapeHtml(text: string): string {
  return HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIALS, (char) => HTML_ESCAPES[char] ?? char) : text;
}

/**
 * The URL normalised when it is absolute http(s), otherwise null: `javascript:`, `data:` and
 * anything unparsable never become a link. WHATWG serialisation percent-encodes spaces, quotes
 * and angle brackets, so the result is safe inside `<...>` in Markdown too.
 */
export function safeHttpUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  if (parsed.username !== "" || parsed.password !== "") return null;
  return parsed.href;
}

/** An editor's link: absolute http(s), or a site-relative path (`/docs/api`). */
export function safeLink(href: string): string | null {
  if (/^\/(?![/\\])/.test(href)) {
    const url = safeHttpUrl(`http://site.invalid${href}`);
    return url === null ? null : url.slice("http://site.invalid".length);
  }
  return safeHttpUrl(href);
}

/**
 * JSON for a `<script type="application/ld+json">` data block: `<`, `>` and `&` are escaped so
 * no text can close the element or open a comment, and U+2028/2029 stay legal.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Plain text as HTML paragraphs: blank lines separate paragraphs, single newlines stay (CSS pre-line). */
export function plainTextParagraphs(text: string, className = "plain-text"): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => `<p class="${className}">${escapeHtml(paragraph)}</p>`)
    .join("\n");
}

/** Text for XML element content (sitemap). */
export function escapeXml(text: string): string {
  return escapeHtml(text);
}
