/**
 * How a new file's slug is chosen, by `npm run new` and by the editor's form under `npm run dev`
 * (scripts/dev-admin/): the same words, the same folding, the same `-2`, `-3`… for a slug taken.
 */
import { basename } from "node:path";
import { fold, words } from "../src/snapshot/text.ts";
import { markdownFiles } from "./content.ts";
import { UUID_LIKE } from "./validate.ts";

/** A file name from words: `O'Brien & Sons, Dublin` → `obrien-sons-dublin`; letters outside a-z are dropped. */
function slugFrom(text: string): string {
  return words(fold(text))
    .map((word) => word.replace(/[^a-z0-9]+/g, "-"))
    .join("-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The words a listing's slug is made from: its name and city, unless the name already holds the city as words (`leeds-plumbing`, not `leeds-plumbing-leeds`). */
export function listingSlugWords(name: string, city: string): string {
  const namedAfterCity = `-${slugFrom(name)}-`.includes(`-${slugFrom(city)}-`);
  return `${name} ${namedAfterCity ? "" : city}`;
}

/** A slug made from `text` that is not in `taken`: the words as a slug, then `-2`, `-3`…; `kind` when the words make none. */
export function newSlug(text: string, taken: ReadonlySet<string>, kind: string): string {
  const made = slugFrom(text);
  const base = made === "" || UUID_LIKE.test(made) ? kind : made;
  let slug = base;
  for (let n = 2; taken.has(slug); n += 1) slug = `${base}-${n}`;
  return slug;
}

/** The folder of businesses/ a new listing is written in: its country's code, in lower case. */
export function listingFolder(country: string): string {
  return country.toLowerCase();
}

/** The slugs of the files already in a folder (and its sub-folders). */
export function slugsIn(dir: string): Set<string> {
  return new Set(markdownFiles(dir).map((path) => basename(path, ".md")));
}
