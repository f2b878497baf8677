import { LIST_LINES_MAX_CHARACTERS } from "../contract.ts";
import { pageStarts } from "../core/lists.ts";
import type { PublicBusiness } from "../schemas/business.ts";
import type { ListPaging } from "../snapshot/files.ts";
import { businessListItemMarkdown } from "./business.ts";
import { indexLine } from "./llms-index.ts";

/**
 * How a list of `listings` (in directory order) is paged: its pages by the length of their
 * Markdown entries, its llms.txt index's parts by the length of its lines. The build pages every
 * list with this and records the result in the snapshot; the server reads it from there.
 */
export function listPaging(baseUrl: string, listings: readonly PublicBusiness[]): ListPaging {
  const at = (entry: number) => listings[entry] as PublicBusiness;
  return {
    pages: pageStarts(listings.length, (entry) => businessListItemMarkdown(baseUrl, at(entry)).length + 1, LIST_LINES_MAX_CHARACTERS),
    parts: pageStarts(listings.length, (entry) => indexLine(at(entry)).length + 1, LIST_LINES_MAX_CHARACTERS),
  };
}
