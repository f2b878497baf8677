import { listingAt } from "../core/directory.ts";
import { RankCache } from "../snapshot/rank-cache.ts";
import type { Directory } from "../snapshot/types.ts";
import { businessCard } from "./business.ts";
import { type CardHtml, type CardMarkdown, type RenderedCards, renderCardHtml, renderCardMarkdown } from "./page-model.ts";

/**
 * The directory page's cards, each made once per snapshot from its listing and kept by rank,
 * like the listings' JSON and MCP's escaped copies: a search's page joins its cards, it renders
 * none. Each rendering is made when a page first asks for it, and kept within a bound (a million
 * listings' cards are not held: see RankCache), so a listing read from disk is read once per card.
 */

/** The characters each rendering's cards may hold per directory (a card is about 700). */
const CARD_CHARACTERS = 16 * 2 ** 20;

interface Kept {
  readonly baseUrl: string;
  readonly html: RankCache<CardHtml>;
  readonly markdown: RankCache<CardMarkdown>;
}

const keptByDirectory = new WeakMap<Directory, Kept>();

function keptFor(directory: Directory, baseUrl: string): Kept {
  let kept = keptByDirectory.get(directory);
  // A directory belongs to one snapshot, and so to one base URL; a different one starts afresh.
  if (kept?.baseUrl !== baseUrl) {
    const count = directory.listings.count;
    kept = { baseUrl, html: new RankCache(count, CARD_CHARACTERS), markdown: new RankCache(count, CARD_CHARACTERS) };
    keptByDirectory.set(directory, kept);
  }
  return kept;
}

/** The cards of the listings at `ranks`, in that order, for a page of `baseUrl` (its Markdown's links are absolute). */
export function directoryCards(directory: Directory, baseUrl: string, ranks: readonly number[]): RenderedCards {
  const kept = keptFor(directory, baseUrl);
  return {
    length: ranks.length,
    html: () => ranks.map((rank) => kept.html.get(rank) ?? kept.html.set(rank, renderCardHtml(businessCard(listingAt(directory, rank))))),
    markdown: () =>
      ranks.map(
        (rank) => kept.markdown.get(rank) ?? kept.markdown.set(rank, renderCardMarkdown(baseUrl, businessCard(listingAt(directory, rank)))),
      ),
  };
}
