import { LLMS_PATH } from "../contract.ts";
import type { SiteInfo } from "../schemas/content.ts";
import { escapeHtml, plainTextParagraphs } from "./escape.ts";
import { type LayoutInput, layout } from "./layout.ts";
import { agentPointer, fenced, longestBacktickRun, mdText, oneLine, untrustedDescription } from "./markdown.ts";

/**
 * A page as data, built once per page kind, and its two renderings: HTML for people and
 * Markdown for agents. Both are written from the same blocks, so they say the same sentences
 * and facts; only what suits one reader is marked for that reader alone (the search form and
 * breadcrumb for people, links to data files and agent notes for agents).
 *
 * Who wrote each piece of text decides how it is written out: a plain string is the site's own
 * words or an editor's one-line text (escaped in HTML, kept as it is in Markdown), `supplied` is
 * text a business wrote (escaped in HTML, escaped in Markdown so it cannot turn into markup), and
 * a business's description is an `untrusted` block (plain paragraphs in HTML, fenced under the
 * untrusted label in Markdown, whatever heading the HTML gives it) or a card's `excerpt` (fenced
 * in Markdown too).
 */

/** A link: `href` for the HTML (site-relative or absolute), `md` for the Markdown (a site path gets the base URL). */
export interface Link {
  readonly link: readonly Inline[];
  readonly href: string;
  /** Where the Markdown links to; defaults to `href`. */
  readonly md?: string;
  readonly rel?: string;
  readonly className?: string;
}

export type Inline =
  | string
  | { readonly supplied: string }
  | { readonly code: string }
  | { readonly strong: string }
  /** Visually hidden in the HTML (it completes a link's name for screen readers), plain text in Markdown. */
  | { readonly hidden: readonly Inline[] }
  /** Words for agents only (a note on whose text follows, a URL to fetch): in Markdown, not in HTML. */
  | { readonly agents: readonly Inline[] }
  | Link;

/** One line of a card: inline text, or an excerpt of a business's description. */
type CardLine = { readonly text: readonly Inline[]; readonly className?: string } | { readonly excerpt: string };

export interface Card {
  readonly title: readonly Inline[];
  readonly lines: readonly CardLine[];
}

declare const cardHtmlBrand: unique symbol;
declare const cardMarkdownBrand: unique symbol;

/**
 * A card's HTML as this file writes it, from a Card (so escaped as any card's), in UTF-8 and
 * after the newline that a list of cards writes before each: made once, written again as it is,
 * without being encoded again for each page (pageHtmlBytes).
 */
export type CardHtml = Buffer & { readonly [cardHtmlBrand]: true };
/** A card's Markdown as this file writes it, from a Card. */
export type CardMarkdown = string & { readonly [cardMarkdownBrand]: true };

/**
 * Cards rendered before the page (src/http/page-parts.ts keeps them by listing): the
 * page asks for the rendering it writes, and only that one is made.
 */
export interface RenderedCards {
  readonly length: number;
  html(): readonly CardHtml[];
  markdown(): readonly CardMarkdown[];
}

/** Who a block is for when it is not for both: people (HTML only) or agents (Markdown only). */
type Audience = { readonly only?: "people" | "agents" };

export type Block = Audience &
  (
    | { readonly kind: "heading"; readonly level: 1 | 2 | 3; readonly text: readonly Inline[]; readonly id?: string }
    | { readonly kind: "paragraph"; readonly text: readonly Inline[]; readonly className?: string; readonly role?: "status" }
    /** Label and value pairs: a `dl` in HTML, `- Label: value` in Markdown. */
    | { readonly kind: "facts"; readonly rows: readonly (Audience & { readonly label: string; readonly value: readonly Inline[] })[] }
    /** Questions and answers: a `dl` in HTML, a heading per question in Markdown. */
    | { readonly kind: "faq"; readonly items: readonly { readonly question: string; readonly answer: string }[] }
    | {
        readonly kind: "list";
        readonly items: readonly (readonly Inline[])[];
        readonly ordered?: boolean;
        readonly className?: string;
      }
    | { readonly kind: "cards"; readonly cards: readonly Card[]; readonly headingLevel?: 2 | 3 }
    /** Cards rendered before the page, by renderCardHtml and renderCardMarkdown (heading level 3). */
    | { readonly kind: "rendered-cards"; readonly cards: RenderedCards }
    /** A section with its heading: `<section>` in HTML, a heading in Markdown. */
    | {
        readonly kind: "section";
        readonly id: string;
        readonly level?: 2 | 3;
        readonly heading: readonly Inline[];
        readonly blocks: readonly Block[];
        readonly className?: string;
        /** An id for the section element itself (a link target such as `#steps`). */
        readonly anchor?: string;
      }
    /** Columns side by side in HTML; one after another in Markdown. */
    | { readonly kind: "columns"; readonly columns: readonly (readonly Block[])[] }
    /** Something the visitor must see now (a problem with the search): an alert box in HTML. */
    | { readonly kind: "notice"; readonly title: string; readonly text: readonly Inline[]; readonly id?: string }
    /** Editors' Markdown: the Markdown as written, and its sanitised HTML (made by `editorial`, markdown-html.ts). */
    | { readonly kind: "editorial"; readonly markdown: string; readonly html: string }
    /** A business's description: plain paragraphs in HTML, fenced and labelled in Markdown. */
    | { readonly kind: "untrusted"; readonly id: string; readonly heading: string; readonly label: string; readonly text: string }
    /** HTML for people only (a form or the pager): controls, never a fact or a sentence the Markdown lacks. */
    | { readonly kind: "html"; readonly html: string; readonly only: "people" }
    /** Markdown for agents only (how to search, data files, more links). */
    | { readonly kind: "markdown"; readonly markdown: string; readonly only: "agents" }
  );

export interface PageModel extends Omit<LayoutInput, "site" | "main"> {
  readonly blocks: readonly Block[];
}

export function supplied(text: string): Inline {
  return { supplied: text };
}

export function link(label: string | readonly Inline[], href: string, more: Omit<Link, "link" | "href"> = {}): Link {
  return { link: typeof label === "string" ? [label] : label, href, ...more };
}

/** The llms.txt link an agent-facing list of further links ends with. */
export const LLMS_ITEM: readonly Inline[] = [link("llms.txt", LLMS_PATH), ": the index of this site for agents"];

/** A page's "More" links for agents (Markdown only), llms.txt last. */
export function moreForAgents(items: readonly (readonly Inline[])[]): Block {
  return { kind: "section", id: "more", only: "agents", heading: ["More"], blocks: [{ kind: "list", items: [...items, LLMS_ITEM] }] };
}

const forPeople = <T extends Audience>(items: readonly T[]) => items.filter((item) => item.only !== "agents");
const forAgents = <T extends Audience>(items: readonly T[]) => items.filter((item) => item.only !== "people");

// HTML

function isLink(inline: Exclude<Inline, string>): inline is Link {
  return "link" in inline;
}

function inlineHtml(inlines: readonly Inline[]): string {
  return inlines
    .map((inline) => {
      if (typeof inline === "string") return escapeHtml(inline);
      if (isLink(inline)) {
        const attributes = [
          ...(inline.className === undefined ? [] : [`class="${inline.className}"`]),
          `href="${escapeHtml(inline.href)}"`,
          ...(inline.rel === undefined ? [] : [`rel="${inline.rel}"`]),
        ];
        return `<a ${attributes.join(" ")}>${inlineHtml(inline.link)}</a>`;
      }
      if ("supplied" in inline) return escapeHtml(inline.supplied);
      if ("code" in inline) return `<code>${escapeHtml(inline.code)}</code>`;
      if ("strong" in inline) return `<strong>${escapeHtml(inline.strong)}</strong>`;
      if ("agents" in inline) return "";
      return `<span class="visually-hidden">${inlineHtml(inline.hidden)}</span>`;
    })
    .join("");
}

const classAttribute = (className: string | undefined) => (className === undefined ? "" : ` class="${className}"`);

function cardHtml(card: Card, headingLevel: number): string {
  const h = `h${headingLevel}`;
  const lines = card.lines.map((line) =>
    "excerpt" in line ? `<p>${escapeHtml(line.excerpt)}</p>` : `<p${classAttribute(line.className)}>${inlineHtml(line.text)}</p>`,
  );
  return `<li class="card">\n<${h}>${inlineHtml(card.title)}</${h}>\n${lines.join("\n")}\n</li>`;
}

/** A card's HTML on its own, as a cards block writes it (its heading at level 3), after its newline: to be kept and written again. */
export function renderCardHtml(card: Card): CardHtml {
  return Buffer.from(`\n${cardHtml(card, 3)}`) as CardHtml;
}

const cardsHtml = (cards: readonly string[]) => `<ul class="cards">\n${cards.join("\n")}\n</ul>`;
/** Cards kept as bytes, as a cards block writes them (each begins with its newline): as a string, where a page is one (pageHtml). */
export const keptCardsHtml = (cards: readonly CardHtml[]) => cardsHtml(cards.map((card) => card.toString().slice(1)));

export function blockHtml(block: Block): string {
  if (block.only === "agents") return "";
  switch (block.kind) {
    case "heading":
      return `<h${block.level}${block.id === undefined ? "" : ` id="${block.id}"`}>${inlineHtml(block.text)}</h${block.level}>`;
    case "paragraph":
      return `<p${classAttribute(block.className)}${block.role === undefined ? "" : ` role="${block.role}"`}>${inlineHtml(block.text)}</p>`;
    case "facts":
      return `<dl class="facts">\n${forPeople(block.rows)
        .map(({ label, value }) => `<dt>${escapeHtml(label)}</dt><dd>${inlineHtml(value)}</dd>`)
        .join("\n")}\n</dl>`;
    case "faq":
      return `<dl class="faq">\n${block.items.map(({ question, answer }) => `<dt>${escapeHtml(question)}</dt><dd>${escapeHtml(answer)}</dd>`).join("\n")}\n</dl>`;
    case "list": {
      const tag = block.ordered === true ? "ol" : "ul";
      return `<${tag}${classAttribute(block.className)}>\n${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join("\n")}\n</${tag}>`;
    }
    case "cards":
      return cardsHtml(block.cards.map((card) => cardHtml(card, block.headingLevel ?? 3)));
    case "rendered-cards":
      return keptCardsHtml(block.cards.html());
    case "section":
      return `${sectionOpening(block)}${blocksHtml(block.blocks)}${SECTION_CLOSING}`;
    case "columns":
      return `<div class="browse-columns">\n${block.columns.map((column) => `<div>${blocksHtml(column)}</div>`).join("\n")}\n</div>`;
    case "notice":
      return `<div class="notice"${block.id === undefined ? "" : ` id="${block.id}"`} role="alert"><h2>${escapeHtml(block.title)}</h2><p>${inlineHtml(block.text)}</p></div>`;
    case "editorial":
      return block.html;
    case "untrusted":
      return `<section aria-labelledby="${block.id}" class="untrusted">
<h2 id="${block.id}">${escapeHtml(block.heading)}</h2>
<p class="label">${escapeHtml(block.label)}</p>
${plainTextParagraphs(block.text)}
</section>`;
    case "html":
      return block.html;
  }
}

type Section = Extract<Block, { kind: "section" }>;

export function sectionOpening(block: Section): string {
  const level = block.level ?? 2;
  const anchor = block.anchor === undefined ? "" : ` id="${block.anchor}"`;
  return `<section aria-labelledby="${block.id}"${classAttribute(block.className)}${anchor}>
<h${level} id="${block.id}">${inlineHtml(block.heading)}</h${level}>
`;
}

export const SECTION_CLOSING = "\n</section>";

function blocksHtml(blocks: readonly Block[]): string {
  return blocks
    .map(blockHtml)
    .filter((html) => html !== "")
    .join("\n");
}

/** The page as a complete HTML document. */
export function pageHtml(site: SiteInfo, page: PageModel): string {
  const { blocks, ...rest } = page;
  return layout({ ...rest, site, main: blocksHtml(blocks) });
}

// Markdown

function mdLabel(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\[\]]/g, "\\$&");
}

function inlineMarkdown(base: string, inlines: readonly Inline[], inLabel = false): string {
  return inlines
    .map((inline) => {
      if (typeof inline === "string") return inLabel ? mdLabel(inline) : inline.replace(/\s+/g, " ");
      if (isLink(inline)) {
        const target = inline.md ?? inline.href;
        return `[${inlineMarkdown(base, inline.link, true).trim()}](<${target.startsWith("/") ? base + target : target}>)`;
      }
      if ("supplied" in inline) {
        // mdText trims; the spaces around business text are the page's own.
        const [, before = "", after = ""] = /^(\s*)[\s\S]*?(\s*)$/.exec(inline.supplied) ?? [];
        return `${before === "" ? "" : " "}${mdText(inline.supplied)}${after === "" ? "" : " "}`;
      }
      if ("code" in inline) {
        const longest = longestBacktickRun(inline.code);
        const fence = "`".repeat(longest + 1);
        return longest === 0 ? `${fence}${inline.code}${fence}` : `${fence} ${inline.code} ${fence}`;
      }
      if ("strong" in inline) return `**${inline.strong}**`;
      return inlineMarkdown(base, "agents" in inline ? inline.agents : inline.hidden, inLabel);
    })
    .join("");
}

/** One item of a list block as the page's Markdown writes it, on one line (the lists' paging measures entries with it). */
export function listItemMarkdown(base: string, item: readonly Inline[], marker = "-"): string {
  return `${marker} ${inlineMarkdown(base, item).trim()}`;
}

const indent = (text: string) => text.replace(/\n(?!\n)/g, "\n  ");

/** A card as one list item: its title, then each line on a line of its own; an excerpt fenced below them. */
function cardMarkdown(base: string, card: Card): string {
  const lines = card.lines.flatMap((line) => ("excerpt" in line ? [] : [inlineMarkdown(base, line.text).trim()]));
  const excerpts = card.lines.flatMap((line) => ("excerpt" in line ? [`\n\n${fenced(line.excerpt)}`] : []));
  return indent(`- ${inlineMarkdown(base, card.title).trim()}${lines.map((line) => `\n${line}`).join("")}${excerpts.join("")}`);
}

/** A card's Markdown on its own, as a cards block writes it: to be kept and written again. */
export function renderCardMarkdown(base: string, card: Card): CardMarkdown {
  return cardMarkdown(base, card) as CardMarkdown;
}

function blockMarkdown(base: string, block: Block, level: number): string {
  if (block.only === "people") return "";
  switch (block.kind) {
    case "heading":
      return `${"#".repeat(block.level)} ${inlineMarkdown(base, block.text).trim()}`;
    case "paragraph":
      return inlineMarkdown(base, block.text).trim();
    case "facts":
      return forAgents(block.rows)
        .map(({ label, value }) => `- ${label}: ${inlineMarkdown(base, value).trim()}`)
        .join("\n");
    case "faq":
      return block.items.map(({ question, answer }) => `${"#".repeat(level + 1)} ${oneLine(question)}\n\n${oneLine(answer)}`).join("\n\n");
    case "list":
      return block.items.map((item, i) => listItemMarkdown(base, item, block.ordered === true ? `${i + 1}.` : "-")).join("\n");
    case "cards":
      return block.cards.map((card) => cardMarkdown(base, card)).join("\n");
    case "rendered-cards":
      return block.cards.markdown().join("\n");
    case "section": {
      const depth = block.level ?? 2;
      return [`${"#".repeat(depth)} ${inlineMarkdown(base, block.heading).trim()}`, blocksMarkdown(base, block.blocks, depth)]
        .filter((part) => part !== "")
        .join("\n\n");
    }
    case "columns":
      return block.columns.map((column) => blocksMarkdown(base, column, level)).join("\n\n");
    case "notice":
      return `${"#".repeat(level + 1)} ${oneLine(block.title)}\n\n${inlineMarkdown(base, block.text).trim()}`;
    case "editorial":
      return block.markdown.trim();
    case "untrusted":
      return untrustedDescription(block.text, block.label);
    case "markdown":
      return block.markdown;
  }
}

function blocksMarkdown(base: string, blocks: readonly Block[], level: number): string {
  return blocks
    .map((block) => blockMarkdown(base, block, level))
    .filter((markdown) => markdown !== "")
    .join("\n\n");
}

/** The page as Markdown: the pointer to llms.txt, then its blocks. */
export function pageMarkdown(site: SiteInfo, page: PageModel): string {
  return `${agentPointer(site.baseUrl)}\n\n${blocksMarkdown(site.baseUrl, page.blocks, 1)}\n`;
}
