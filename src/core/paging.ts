import { DIRECTORY_MAX_OFFSET } from "../contract.ts";

export interface Page<T> {
  items: T[];
  limit: number;
  offset: number;
  nextOffset: number | null;
}

/**
 * The slice `[offset, offset + limit)` of `all`, and where the next page starts: only when more
 * items exist and the next offset stays within the browsing limit.
 */
export function page<T>(all: readonly T[], offset: number, limit: number): Page<T> {
  const end = offset + limit;
  const nextOffset = all.length > end && end <= DIRECTORY_MAX_OFFSET ? end : null;
  return { items: all.slice(offset, end), limit, offset, nextOffset };
}
