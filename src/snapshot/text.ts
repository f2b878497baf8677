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
  // In printable ASCII, the letters, marks and digits are [A-Za-z0-9] (the common case).
  if (PLAIN.test(text)) return plainWords(text);
  return text
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** A letter or digit of ASCII. */
function isAsciiWordChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
}

/**
 * words() of printable ASCII in one pass, without regular expressions (a search's hot path):
 * runs of [A-Za-z0-9], joined across `'`, anything else separating.
 */
function plainWords(text: string): string[] {
  const found: string[] = [];
  // The current word's parts before an apostrophe, and where its current run of letters started.
  let word = "";
  let start = -1;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isAsciiWordChar(code)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0) {
      word += text.slice(start, i);
      start = -1;
    }
    if (code === 0x27) continue;
    if (word !== "") {
      found.push(word);
      word = "";
    }
  }
  if (start >= 0) word += text.slice(start);
  if (word !== "") found.push(word);
  return found;
}

const nameCollator = new Intl.Collator("en", { sensitivity: "base" });

/**
 * Directory order (contract §4): by name, ignoring case and accents, ties by slug, so the same
 * listings always come in the same order.
 */
export function compareByNameThenSlug(a: { name: string; slug: string }, b: { name: string; slug: string }): number {
  return nameCollator.compare(a.name, b.name) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);
}
