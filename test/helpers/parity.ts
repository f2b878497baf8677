import { Marked, type Token, type Tokens } from "marked";

/**
 * The comparison AFDocs' markdown-content-parity check makes between a page's HTML and its
 * Markdown (afdocs/dist/checks/observability/markdown-content-parity.js, which exports none of
 * it), redone here on the project's own parsers: the HTML's <main> without chrome, split into
 * lines at block elements, each line of 20 characters or more normalised and looked for in the
 * normalised text of the Markdown. The HTML is the project's own (well-formed, from the
 * renderers), so a small parser reads it; the Markdown is read by marked's lexer, whose tokens
 * carry the same text as the mdast nodes the check reads.
 */

interface Element {
  readonly tag: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: Node[];
  parent: Element | null;
}
type Node = Element | { readonly text: string };

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const RAW_TEXT = new Set(["script", "style", "textarea"]);
const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

const TAG =
  /<!--[\s\S]*?-->|<![^>]*>|<\/([a-zA-Z][a-zA-Z0-9]*)\s*>|<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

function parseHtml(html: string): Element {
  const root: Element = { tag: "#root", attributes: new Map(), children: [], parent: null };
  let current = root;
  let at = 0;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    if (match.index > at) current.children.push({ text: decode(html.slice(at, match.index)) });
    at = TAG.lastIndex;
    const [, closing, opening, attributeText = ""] = match;
    if (closing !== undefined) {
      const tag = closing.toLowerCase();
      let open: Element | null = current;
      while (open !== null && open.tag !== tag) open = open.parent;
      if (open?.parent) current = open.parent;
    } else if (opening !== undefined) {
      const tag = opening.toLowerCase();
      const attributes = new Map<string, string>();
      for (const [, name = "", double, single, bare] of attributeText.matchAll(ATTRIBUTE)) {
        attributes.set(name.toLowerCase(), decode(double ?? single ?? bare ?? ""));
      }
      const element: Element = { tag, attributes, children: [], parent: current };
      current.children.push(element);
      if (RAW_TEXT.has(tag)) {
        const end = html.toLowerCase().indexOf(`</${tag}`, at);
        const stop = end === -1 ? html.length : end;
        element.children.push({ text: html.slice(at, stop) });
        TAG.lastIndex = stop;
        at = stop;
      } else if (!VOID.has(tag)) {
        current = element;
      }
    }
  }
  if (at < html.length) current.children.push({ text: decode(html.slice(at)) });
  return root;
}

const isElement = (node: Node): node is Element => "tag" in node;

function descendants(element: Element): Element[] {
  return element.children.filter(isElement).flatMap((child) => [child, ...descendants(child)]);
}

function find(element: Element, tag: string): Element | undefined {
  return descendants(element).find((child) => child.tag === tag);
}

function textOf(node: Node): string {
  return isElement(node) ? node.children.map(textOf).join("") : node.text;
}

function remove(element: Element): void {
  const siblings = element.parent?.children;
  if (siblings === undefined) return;
  const index = siblings.indexOf(element);
  if (index !== -1) siblings.splice(index, 1);
}

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
function stripped(element: Element): boolean {
  const className = element.attributes.get("class") ?? "";
  const label = element.attributes.get("aria-label");
  const rel = element.attributes.get("rel");
  return (
    element.attributes.has("data-markdown-ignore") ||
    STRIP_TAGS.has(element.tag) ||
    STRIP_CLASS_PARTS.some((part) => className.includes(part)) ||
    className.split(/\s+/).includes("sr-only") ||
    label === "breadcrumb" ||
    label === "pagination" ||
    label === "Anchor" ||
    rel === "prev" ||
    rel === "next"
  );
}

function walk(node: Node): string {
  if (!isElement(node)) return node.text;
  const inner = node.children.map(walk).join("");
  return BLOCK_TAGS.has(node.tag) ? `\n${inner}\n` : inner;
}

/** The largest list's count of direct items. */
function largestList(element: Element): number {
  const lists = descendants(element).filter((child) => child.tag === "ul" || child.tag === "ol");
  return Math.max(0, ...lists.map((list) => list.children.filter((child) => isElement(child) && child.tag === "li").length));
}

/** The HTML's content as the check reads it: its text with line breaks at blocks, and its largest list. */
function htmlContent(html: string): { text: string; listItems: number } {
  const root = parseHtml(html);
  const content = find(root, "main") ?? find(root, "body") ?? root;
  for (const element of descendants(content)) if (stripped(element)) remove(element);
  for (const element of descendants(content)) {
    const text = textOf(element);
    if (text.length < 100) continue;
    const links = descendants(element).filter((child) => child.tag === "a");
    if (links.length < 10) continue;
    const linkText = links.reduce((sum, a) => sum + textOf(a).length, 0);
    if (linkText / text.length > 0.7) remove(element);
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
      return "tokens" in token && token.tokens !== undefined ? tokensText(token.tokens, "") : decode(token.text);
    case "escape":
    case "codespan":
    case "code":
      return token.text;
    case "br":
      return "\n";
    case "image":
      return token.text;
    case "html":
      return walk(parseHtml(token.text));
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
