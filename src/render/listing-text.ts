import { COUNTRY_CODES } from "../schemas/countries.ts";

/**
 * How a listing's place and description read in a card: the pages' cards (business.ts) and the
 * MCP App's (build/mcp-app/, which bundles this file for the browser). Pure: no import, nothing
 * of Node.js.
 */

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });
/** Every assigned code's name, looked up once: Intl.DisplayNames#of costs microseconds, and pages name countries often. */
const COUNTRY_NAMES: ReadonlyMap<string, string> = new Map(COUNTRY_CODES.map((code) => [code, regionNames.of(code) ?? code]));

/** A country's English name ("United Kingdom" for GB); a code no country has is left as it is. */
export function countryName(code: string): string {
  return COUNTRY_NAMES.get(code) ?? code;
}

/** The fields of a listing's location that a card shows. */
interface Place {
  readonly location: { readonly city: string; readonly region: string; readonly country: string };
}

/** Where a listing is, for a card: "Leeds, West Yorkshire, United Kingdom". */
export function placeOf({ location }: Place): string {
  return `${location.city}, ${location.region}, ${countryName(location.country)}`;
}

/** The start of a description, cut at a word near `max` characters: a card's summary. One pass over its start. */
export function excerpt(text: string, max = 160): string {
  // Only the start can be shown (a description may be 3,000 characters); Markdown marks and line breaks go.
  const plain = text
    .slice(0, max + 40)
    .replace(/[#*_`>[\]]+|\s+/g, (match) => (/\s/.test(match) ? " " : ""))
    .trim();
  if (plain.length <= max && text.length <= max + 40) return plain;
  let end = plain.lastIndexOf(" ", max);
  if (end < max / 2) end = max;
  while (end > 0 && ",.;: ".includes(plain[end - 1] ?? "")) end -= 1;
  return `${plain.slice(0, end)}…`;
}
