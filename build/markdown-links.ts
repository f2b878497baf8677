import { Lexer, type Token } from "marked";

export interface MarkdownLink {
  readonly href: string;
  /** Where the link starts in the text (its `[`), for a `line:col`. */
  readonly offset: number;
  readonly image: boolean;
}

/** Every link and image of a Markdown text (not those in code), via marked's lexer, in order. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let from = 0;
  const visit = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === "link" || token.type === "image") {
        const href = (token as Token & { href: string }).href;
        // A link inside a list item or quote has its raw text without the item's indentation: find its target instead.
        let offset = markdown.indexOf(token.raw, from);
        if (offset === -1) offset = markdown.indexOf(`](${href}`, from);
        if (offset === -1) offset = markdown.indexOf(href, from);
        if (offset !== -1) from = offset;
        links.push({ href, offset: Math.max(offset, 0), image: token.type === "image" });
      }
      const children = (token as { tokens?: Token[] }).tokens;
      if (children !== undefined) visit(children);
      const items = (token as { items?: { tokens: Token[] }[] }).items;
      if (items !== undefined) for (const item of items) visit(item.tokens);
    }
  };
  visit(new Lexer({ gfm: true }).lex(markdown));
  return links;
}
