import { lowerBound } from "../snapshot/lower-bound.ts";
import { compareCodeUnits, fold, words as wordsOf } from "../snapshot/text.ts";
import type { Part, SnapshotView } from "../snapshot/view.ts";

/**
 * The words of the snapshot's offerings index, sorted, each with the positions (catalog order)
 * of the offerings that have it in a searched field. Read once per snapshot from the index
 * itself (its serialised form, MiniSearch's public toJSON), so the build's index stays the one
 * source of what q matches; searching it is a binary search per term, where MiniSearch's own
 * search scores every match (BM25) and cost tens of µs for an order the interface does not use (interface §4).
 */
interface OfferingWords {
  readonly words: readonly string[];
  readonly positions: readonly (readonly number[])[];
}

const OFFERING_WORDS: Part<OfferingWords> = {
  name: "offering words",
  make: (view) => {
    const { documentIds, index } = view.snapshot.catalog.index.toJSON();
    const entries: [string, number[]][] = [];
    for (const [word, fields] of index) {
      const positions = new Set<number>();
      for (const documents of Object.values(fields)) {
        for (const shortId of Object.keys(documents)) {
          // A document the index has discarded is no match (as MiniSearch's search skips it).
          if (Object.hasOwn(documentIds, shortId)) positions.add(documentIds[shortId] as number);
        }
      }
      if (positions.size > 0) entries.push([word, [...positions]]);
    }
    entries.sort(([a], [b]) => compareCodeUnits(a, b));
    return { words: entries.map(([word]) => word), positions: entries.map(([, positions]) => positions) };
  },
};

/**
 * Offerings search (interface §4): every term must start a word of the name, description,
 * audience or a feature; catalog order. The positions of the offerings found, or null for the
 * whole catalog (no q, or no searchable terms in it).
 */
export function offeringsMatching(view: SnapshotView, q: string | undefined): readonly number[] | null {
  if (q === undefined) return null;
  // Split and folded as the index's options split and fold (src/snapshot/search-index.ts).
  const typed = wordsOf(q);
  if (typed.length === 0) return null;
  const { words, positions } = view.get(OFFERING_WORDS);
  // How many terms so far each offering has matched: it stays in only while it matches every one.
  const matched = new Uint32Array(view.snapshot.catalog.offerings.length);
  let terms = 0;
  for (const word of typed) {
    const term = fold(word);
    // A word that folds to nothing is no term (MiniSearch drops it from the query too).
    if (term === "") continue;
    for (let i = lowerBound(words.length, (at) => (words[at] as string) < term); i < words.length; i += 1) {
      if (!(words[i] as string).startsWith(term)) break;
      for (const position of positions[i] as readonly number[]) if (matched[position] === terms) matched[position] = terms + 1;
    }
    terms += 1;
  }
  const found: number[] = [];
  if (terms === 0) return found;
  for (let position = 0; position < matched.length; position += 1) if (matched[position] === terms) found.push(position);
  return found;
}
