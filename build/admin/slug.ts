/**
 * A new file's name and folder, chosen when it is first saved, as `npm run new` chooses them: the
 * dev server answers (scripts/dev-admin/), and they are put in the entry for the collection's
 * templates (build/decap-config.ts), never in the file (format.ts).
 */
import type { Immutable } from "./decap.ts";
import { COLLECTIONS, NEW_FILE_KEYS, NEW_SLUG_PATH } from "./names.ts";

/** What the slug is made from, by collection: the name, and a listing's city and country. */
function slugQuery(collection: unknown, data: Immutable): URLSearchParams | null {
  const name = String(data.get("name") ?? "");
  if (collection === COLLECTIONS.offerings) return new URLSearchParams({ kind: "offering", name });
  if (collection !== COLLECTIONS.listings) return null;
  const place = (key: string) => String(data.getIn(["location", key]) ?? "");
  return new URLSearchParams({ kind: "listing", name, city: place("city"), country: place("country") });
}

async function withNewSlug({ entry }: { entry: Immutable }): Promise<Immutable | undefined> {
  const data = entry.get("data") as Immutable;
  const query = entry.get("newRecord") === true ? slugQuery(entry.get("collection"), data) : null;
  if (query === null) return undefined;
  const response = await fetch(`${NEW_SLUG_PATH}?${query}`);
  // Not under npm run dev (a hosted editor, content/README.md): the collection's own slug template names the file.
  if (response.status === 404) return undefined;
  const answer = (await response.json().catch(() => ({}))) as { slug?: string; folder?: string; error?: string };
  if (!response.ok || answer.slug === undefined) throw new Error(`no file name could be chosen: ${answer.error ?? response.status}`);
  return data.set(NEW_FILE_KEYS.slug, answer.slug).set(NEW_FILE_KEYS.folder, answer.folder ?? "");
}

export function registerNewSlugs(): void {
  window.CMS.registerEventListener({ name: "preSave", handler: withNewSlug });
}
