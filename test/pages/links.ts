import { Lexer, type Token } from "marked";

/** Every link destination in a Markdown document (links and autolinks, not code), via marked's lexer. */
export function markdownLinks(markdown: string): string[] {
  const found: string[] = [];
  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === "link") found.push((token as Token & { href: string }).href);
      const children = (token as { tokens?: Token[] }).tokens;
      if (children !== undefined) walk(children);
      const items = (token as { items?: { tokens: Token[] }[] }).items;
      if (items !== undefined) for (const item of items) walk(item.tokens);
    }
  };
  walk(new Lexer({ gfm: true }).lex(markdown));
  return found;
}

/** Every <loc> of a sitemap. */
export function sitemapLinks(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => (match[1] ?? "").replace(/&amp;/g, "&"));
}
