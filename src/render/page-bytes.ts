import type { SiteInfo } from "../schemas/content.ts";
import { layoutAround } from "./layout.ts";
import { type Block, blockHtml, type CardHtml, keptCardsHtml, type PageModel, SECTION_CLOSING, sectionOpening } from "./page-model.ts";

/**
 * A page rendered from its model (page-model.ts) as the bytes it is sent as, for a page rendered
 * per request around cards kept as bytes (the directory's search page): the same bytes as
 * pageHtml's string in UTF-8, without copying the cards into a string first.
 */

/** A page written as it is sent: its text as it comes, each kept card's bytes as they are. */
class HtmlWriter {
  readonly #parts: Buffer[] = [];
  #text = "";

  text(text: string): void {
    this.#text += text;
  }

  /** A list of cards, as keptCardsHtml writes it: each card begins with the newline before it (renderCardHtml). */
  cards(cards: readonly CardHtml[]): void {
    if (cards.length === 0) {
      this.text(keptCardsHtml(cards));
      return;
    }
    this.text('<ul class="cards">');
    this.#parts.push(Buffer.from(this.#text), ...cards);
    this.#text = "\n</ul>";
  }

  bytes(): Buffer {
    return Buffer.concat([...this.#parts, Buffer.from(this.#text)]);
  }
}

/** blocksHtml written by `html`: the same text, with the cards of sections (where a page has them) as their kept bytes. */
function writeBlocks(blocks: readonly Block[], html: HtmlWriter): void {
  let first = true;
  for (const block of blocks) {
    const direct = block.kind === "section" || block.kind === "rendered-cards";
    const text = direct ? "" : blockHtml(block);
    if (direct ? block.only === "agents" : text === "") continue;
    if (!first) html.text("\n");
    first = false;
    if (block.kind === "section") {
      html.text(sectionOpening(block));
      writeBlocks(block.blocks, html);
      html.text(SECTION_CLOSING);
    } else if (block.kind === "rendered-cards") html.cards(block.cards.html());
    else html.text(text);
  }
}

/**
 * The page as a complete HTML document in UTF-8: pageHtml's bytes, but its kept cards are copied
 * as they are, never into one string with the rest (cards hold “…”, which makes a string of two
 * bytes a character, encoded whole again to be sent).
 */
export function pageHtmlBytes(site: SiteInfo, page: PageModel): Buffer {
  const { blocks, ...rest } = page;
  const [head, foot] = layoutAround({ ...rest, site });
  const html = new HtmlWriter();
  html.text(head);
  writeBlocks(blocks, html);
  html.text(foot);
  return html.bytes();
}
