import type { FastifyReply } from "fastify";
import { HTML_TYPE, MARKDOWN_TYPE } from "../contract.ts";

/**
 * The headers every HTML and Markdown answer carries besides its Link and Vary: `Content-Signal`,
 * what the site allows done with its content (site.md's `contentSignal`), and on Markdown
 * `x-markdown-tokens`, an estimate of the body's size in tokens. Both are worked out once per
 * document (src/http/caching.ts keeps them with it), and for a page rendered for one request
 * (a directory search), once for that request.
 */

/** Characters per token: the usual rule of thumb for English text and the tokenizers of today's models. */
const CHARACTERS_PER_TOKEN = 4;
/** The second half of a character written as two UTF-16 units (an emoji, say). */
const LOW_SURROGATE = /[\uDC00-\uDFFF]/g;

/**
 * An estimate, not a count, of how many tokens `text` makes for a language model: its characters
 * (Unicode code points) divided by four, rounded up. No tokenizer is installed, and every model's
 * differs; the estimate is for sizing a context window, not for billing.
 */
export function estimateTokens(text: string): number {
  const characters = text.length - (text.match(LOW_SURROGATE)?.length ?? 0);
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/** What a page's headers are made from: its body's token estimate and the site's content signal. */
export interface PageFacts {
  readonly tokens: number;
  readonly contentSignal: string | undefined;
}

/** Sets the headers of an answer of `type`: Content-Signal on HTML and Markdown, x-markdown-tokens on Markdown. */
export function setPageHeaders(reply: FastifyReply, type: string, facts: PageFacts): void {
  if (type !== MARKDOWN_TYPE && type !== HTML_TYPE) return;
  if (facts.contentSignal !== undefined) reply.header("content-signal", facts.contentSignal);
  if (type === MARKDOWN_TYPE) reply.header("x-markdown-tokens", String(facts.tokens));
}
