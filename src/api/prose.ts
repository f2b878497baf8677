/**
 * A list in running text, "a, b and c": the tools' names here, and the documentation's lists of
 * versions and codes (src/render), which are written from the same tables.
 */
export function proseList(items: readonly string[], conjunction = "and"): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conjunction} ${items.at(-1)}`;
}
