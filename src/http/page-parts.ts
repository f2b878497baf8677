import { directoryOf, listingAt } from "../core/directory.ts";
import { businessCard } from "../render/business.ts";
import { type DirectorySummary, directorySummary } from "../render/directory-lists.ts";
import { choicesOf, type DirectoryChoices } from "../render/directory-view.ts";
import { type CardHtml, type CardMarkdown, type RenderedCards, renderCardHtml, renderCardMarkdown } from "../render/page-model.ts";
import { RankCache } from "../snapshot/rank-cache.ts";
import type { Part, SnapshotView } from "../snapshot/view.ts";

/**
 * What the pages render once per view and then only join (render/ itself keeps nothing): the
 * directory's lists by country and service, the choices its page offers, and each listing's card.
 */

/** The directory's lists by country and service; directory_unavailable without a directory. */
const SUMMARY: Part<DirectorySummary> = {
  name: "directory lists",
  make: (view) => directorySummary(directoryOf(view).index, view.snapshot.manifest.lists),
};

export function summaryOf(view: SnapshotView): DirectorySummary {
  return view.get(SUMMARY);
}

/** The directory's countries and services to choose from, each with the list of exactly its listings, and the form's countries. */
const CHOICES: Part<DirectoryChoices> = {
  name: "directory choices",
  make: (view) => {
    const choices = choicesOf(summaryOf(view));
    // Each set of options (none chosen, or one of the countries) is rendered once: at most one per country.
    const options = new Map<string, string>();
    const form = {
      codes: choices.form.codes,
      options(chosen: string) {
        let made = options.get(chosen);
        if (made === undefined) {
          made = choices.form.options(chosen);
          options.set(chosen, made);
        }
        return made;
      },
    };
    return { ...choices, form };
  },
};

export function choicesFor(view: SnapshotView): DirectoryChoices {
  return view.get(CHOICES);
}

/** The characters each rendering's cards may hold per view (a card is about 700). */
const CARD_CHARACTERS = 16 * 2 ** 20;

/**
 * Each listing's card, made from its listing once per view and kept by rank within a bound (a
 * million listings' cards are not held: see RankCache), so a listing read from disk is read once
 * per card. A search's page joins its cards; it renders none.
 */
const CARDS: Part<{ readonly html: RankCache<CardHtml>; readonly markdown: RankCache<CardMarkdown> }> = {
  name: "cards",
  make: (view) => {
    const count = directoryOf(view).listings.count;
    return { html: new RankCache(count, CARD_CHARACTERS), markdown: new RankCache(count, CARD_CHARACTERS) };
  },
};

/** The cards of the listings at `ranks`, in that order (a Markdown card's links are absolute, to the view's base URL). */
export function cardsOf(view: SnapshotView, ranks: readonly number[]): RenderedCards {
  const directory = directoryOf(view);
  const kept = view.get(CARDS);
  const { baseUrl } = view.snapshot.site;
  return {
    length: ranks.length,
    html: () => ranks.map((rank) => kept.html.get(rank) ?? kept.html.set(rank, renderCardHtml(businessCard(listingAt(directory, rank))))),
    markdown: () =>
      ranks.map(
        (rank) => kept.markdown.get(rank) ?? kept.markdown.set(rank, renderCardMarkdown(baseUrl, businessCard(listingAt(directory, rank)))),
      ),
  };
}
