import { Marked, type Token, type Tokens } from "marked";
import { HTMLElement, type Node, NodeType, parse } from "node-html-parser";

/**
 * The comparison AFDocs' markdown-content-parity check makes between a page's HTML and its
 * Markdown (afdocs/dist/checks/observability/markdown-content-parity.js, which exports none of
 * it), redone here: the HTML's <main> without chrome, split into lines at block elements, each
 * line of 20 characters or more normalised and looked for in the normalised text of the Markdown.
 * The HTML is read by node-html-parser, the parser the check itself uses; the Markdown by marked's
 * lexer, whose tokens carry the same text as the mdast nodes the check reads.
 */

const STRIP_TAGS = new Set([
  "script",
  "style",
  "nav",
  "footer",
  "header",
  "noscript",
  "button",
  "svg",
  "aside",
  "select",
  "input",
  "textarea",
]);
const STRIP_CLASS_PARTS = [
  "breadcrumb",
  "pagination",
  "prev-next",
  "prevnext",
  "page-nav",
  "feedback",
  "helpful",
  "table-of-contents",
  "toc",
];
const BLOCK_TAGS = new Set(
  "p div h1 h2 h3 h4 h5 h6 li tr td th blockquote pre dt dd figcaption section article details summary br hr".split(" "),
);

/** Chrome the check removes from the content before reading it. */
function stripped(element: HTMLElement): boolean {
  const className = element.getAttribute("class") ?? "";
  const label = element.getAttribute("aria-label");
  const rel = element.getAttribute("rel");
  return (
    element.hasAttribute("data-markdown-ignore") ||
    STRIP_TAGS.has(element.tagName.toLowerCase()) ||
    STRIP_CLASS_PARTS.some((part) => className.includes(part)) ||
    className.split(/\s+/).includes("sr-only") ||
    label === "breadcrumb" ||
    label === "pagination" ||
    label === "Anchor" ||
    rel === "prev" ||
    rel === "next"
  );
}

/** The text of a node, with a line break before and after each block element. */
function walk(node: Node): string {
  if (node.nodeType === NodeType.TEXT_NODE) return node.text;
  if (!(node instanceof HTMLElement)) return "";
  const inner = node.childNodes.map(walk).join("");
  return BLOCK_TAGS.has(node.tagName?.toLowerCase() ?? "") ? `\n${inner}\n` : inner;
}

/** The largest list's count of direct items. */
function largestList(element: HTMLElement): number {
  const lists = element.querySelectorAll("ul, ol");
  return Math.max(
    0,
    ...lists.map((list) => list.childNodes.filter((child) => child instanceof HTMLElement && child.tagName === "LI").length),
  );
}

/** The HTML's content as the check reads it: its text with line breaks at blocks, and its largest list. */
function htmlContent(html: string): { text: string; listItems: number } {
  // A <pre>'s code is text to the check, as to a browser: node-html-parser keeps it raw by default.
  const root = parse(html, { blockTextElements: { script: true, noscript: true, style: true } });
  const content = root.querySelector("main") ?? root.querySelector("body") ?? root;
  for (const element of content.querySelectorAll("*")) if (stripped(element)) element.remove();
  for (const element of content.querySelectorAll("*")) {
    const text = element.text;
    if (text.length < 100) continue;
    const links = element.querySelectorAll("a");
    if (links.length < 10) continue;
    const linkText = links.reduce((sum, a) => sum + a.text.length, 0);
    if (linkText / text.length > 0.7) element.remove();
  }
  return { text: walk(content), listItems: largestList(content) };
}

// Markdown

const lexer = new Marked({ gfm: true, async: false });

/** The text of a Markdown token as the check reads the mdast: text, code and link text, not URLs. */
function tokenText(token: Token): string {
  switch (token.type) {
    case "space":
    case "hr":
    case "def":
      return "";
    case "text":
      return "tokens" in token && token.tokens !== undefined ? tokensText(token.tokens, "") : parse(token.text).text;
    case "escape":
    case "codespan":
    case "code":
      return token.text;
    case "br":
      return "\n";
    case "image":
      return token.text;
    case "html":
      return walk(parse(token.text));
    case "list":
      return (token as Tokens.List).items.map(tokenText).join("\n");
    case "list_item":
    case "blockquote":
      return tokensText((token as Tokens.ListItem).tokens, "\n");
    case "table": {
      const table = token as Tokens.Table;
      return [table.header, ...table.rows].map((row) => row.map((cell) => tokensText(cell.tokens, "")).join("\n")).join("\n");
    }
    default:
      return "tokens" in token && token.tokens !== undefined ? tokensText(token.tokens, "") : "";
  }
}

function tokensText(tokens: readonly Token[], separator: string): string {
  return tokens
    .filter((token) => token.type !== "space")
    .map(tokenText)
    .join(separator);
}

function largestMarkdownList(tokens: readonly Token[]): number {
  let largest = 0;
  for (const token of tokens) {
    if (token.type === "list") {
      const items = (token as Tokens.List).items;
      largest = Math.max(largest, new Set(items.map((item) => normalize(tokenText(item)))).size);
      for (const item of items) largest = Math.max(largest, largestMarkdownList(item.tokens));
    } else if (token.type === "blockquote") {
      largest = Math.max(largest, largestMarkdownList((token as Tokens.Blockquote).tokens));
    }
  }
  return largest;
}

/** The check's normalisation, applied to both sides. */
export function normalize(text: string): string {
  return text
    .replace(/\u200B|\u200C|\u200D|\uFEFF/g, "")
    .replace(/[\u2018\u2019\u201A]/g, "'")
    .replace(/[\u201C\u201D\u201E]/g, '"')
    .replace(/[\u2013\u2014]/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/<([^>\n]+)>/g, "$1")
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:[-*+]|\d+\.)\s+/, "");
}

const NOISE = [
  /^last updated/,
  /^was this page helpful/,
  /^thank you for your feedback/,
  /^previous\s+\S.*next\s+\S/,
  /^start from the beginning$/,
  /^join our .* server/,
  /^loading video content/,
  /^\/.+\/.+/,
  /^for ai agents:/,
];

export interface Parity {
  /** The HTML's lines the check compares, each once. */
  readonly lines: readonly string[];
  /** Those the Markdown does not contain. */
  readonly missing: readonly string[];
  /** The largest list's item count on each side (the check compares them from 20 items up). */
  readonly listItems: { readonly html: number; readonly markdown: number };
}

/** How a page's HTML and Markdown compare, line by line, as the AFDocs check compares them. */
export function parity(html: string, markdown: string): Parity {
  const content = htmlContent(html);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of content.text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.length < 20 || NOISE.some((pattern) => pattern.test(trimmed.toLowerCase()))) continue;
    const key = normalize(trimmed);
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(trimmed);
  }
  const tokens = lexer.lexer(markdown);
  const text = normalize(tokensText(tokens, "\n"));
  return {
    lines,
    missing: lines.filter((line) => !text.includes(normalize(line))),
    listItems: { html: content.listItems, markdown: largestMarkdownList(tokens) },
  };
}

/** The normalised text of a Markdown document, as the check searches it. */
export function markdownText(markdown: string): string {
  return normalize(tokensText(lexer.lexer(markdown), "\n"));
}
