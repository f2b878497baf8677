/**
 * Text folding and word splitting shared by the build (which indexes) and the server
 * (which searches), so both see the same words.
 */

/** Letters that Unicode decomposition does not reduce to ASCII but people type as ASCII. */
const SPECIAL_FOLDS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ł: "l",
  ı: "i",
};
const SPECIAL_FOLD_PATTERN = new RegExp(`[${Object.keys(SPECIAL_FOLDS).join("")}]`, "g");

/** Printable ASCII: nothing to strip or spell out. */
const PLAIN = /^[ -~]*$/;

/** Lower-cases and strips accents: `Café` → `cafe`, `Straße` → `strasse`. */
export function fold(text: string): string {
  // The common case, and on a search's hot path.
  if (PLAIN.test(text)) return text.toLowerCase();
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(SPECIAL_FOLD_PATTERN, (letter) => SPECIAL_FOLDS[letter] ?? letter);
}

/**
 * Splits text into words: apostrophes join (`O'Brien` → `OBrien`, `Joe’s` → `Joes`), any other
 * character that is not a letter, mark or digit separates.
 */
export function words(text: string): string[] {
  return text
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Made at the first comparison: the build sorts, the server (which would spend 35 ms making it at start) does not. */
let nameCollator: Intl.Collator | undefined;

/**
 * Directory order (interface §4): by name, ignoring case and accents, ties by slug, so the same
 * listings always come in the same order.
 */
export function compareByNameThenSlug(a: { name: string; slug: string }, b: { name: string; slug: string }): number {
  nameCollator ??= new Intl.Collator("en", { sensitivity: "base" });
  return nameCollator.compare(a.name, b.name) || compareCodeUnits(a.slug, b.slug);
}

/** Strings by their UTF-16 code units, the same on every machine: slugs after the name, the index's keys, the catalog's words. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
