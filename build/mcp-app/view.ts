/**
 * The app's DOM, built with createElement and textContent only: every listing field was
 * supplied by the business and is never parsed as HTML. Pure rendering; app.ts wires the actions.
 */
import { safeHttpUrl } from "../../src/render/escape.ts";
import { excerpt, placeOf } from "../../src/render/listing-text.ts";

/** The fields of a listing the cards show (PublicBusiness, src/schemas/business.ts). */
export interface Listing {
  readonly name: string;
  readonly service: string;
  readonly category: string;
  readonly description: string;
  readonly location: { readonly city: string; readonly region: string; readonly country: string };
  readonly quoteUrl: string;
}

/** An element with its class and text. */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Whether `value` has a listing's fields, as strings: anything else is not drawn. */
export function isListing(value: unknown): value is Listing {
  if (typeof value !== "object" || value === null) return false;
  const listing = value as Record<string, unknown>;
  const location = listing.location as Record<string, unknown> | null | undefined;
  return (
    ["name", "service", "category", "description", "quoteUrl"].every((key) => typeof listing[key] === "string") &&
    typeof location === "object" &&
    location !== null &&
    ["city", "region", "country"].every((key) => typeof location[key] === "string")
  );
}

/**
 * One listing as a card: its name (a heading), service and category, place, the start of its
 * description set apart as the business's own words, and "Request a quote" when its quoteUrl is
 * an http(s) URL, which `onQuote` is given.
 */
export function card(listing: Listing, onQuote: (url: string) => void): HTMLLIElement {
  const item = element("li", "card");
  const article = element("article");
  article.append(
    element("h2", "name", listing.name),
    element("p", "service", `${listing.service} · ${listing.category}`),
    element("p", "place", placeOf(listing)),
  );
  const words = element("figure", "supplied");
  words.append(
    element("figcaption", undefined, "In the business's own words"),
    element("blockquote", undefined, excerpt(listing.description)),
  );
  article.append(words);
  const quoteUrl = safeHttpUrl(listing.quoteUrl);
  if (quoteUrl !== null) {
    const button = element("button", "quote", "Request a quote");
    button.type = "button";
    button.append(element("span", "visually-hidden", ` from ${listing.name}`));
    button.addEventListener("click", () => onQuote(quoteUrl));
    article.append(button);
  }
  item.append(article);
  return item;
}

/** A button with its label that calls `action`, or is disabled when there is none. */
export function actionButton(label: string, action: (() => void) | null): HTMLButtonElement {
  const button = element("button", undefined, label);
  button.type = "button";
  if (action === null) button.disabled = true;
  else button.addEventListener("click", action);
  return button;
}
