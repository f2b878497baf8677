import type { Offering } from "../schemas/offering.ts";
import { words } from "../snapshot/text.ts";
import type { Catalog } from "../snapshot/types.ts";

/**
 * Offerings search (contract §4): every term must start a word of the name, description,
 * audience or a feature; catalog order. Without searchable terms, the whole catalog.
 */
export function searchOfferings(catalog: Catalog, q: string | undefined): Offering[] {
  if (q === undefined || words(q).length === 0) return [...catalog.offerings];
  return catalog.index
    .search(q)
    .map((result) => result.id as number)
    .sort((a, b) => a - b)
    .flatMap((position) => catalog.offerings[position] ?? []);
}
