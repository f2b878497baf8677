import { DIRECTORY_MAX_OFFSET } from "../contract.ts";

export interface Page<T> {
  items: T[];
  limit: number;
  offset: number;
  nextOffset: number | null;
}

/**
 * Where the page after `[offset, offset + limit)` starts (interface §4): `offset + limit` when
 * more matches exist and it stays within the browsing limit, else null.
 */
export function nextOffset(offset: number, limit: number, more: boolean): number | null {
  const end = offset + limit;
  return more && end <= DIRECTORY_MAX_OFFSET ? end : null;
}

/** The slice `[offset, offset + limit)` of `all`, and where the next page starts. */
export function page<T>(all: readonly T[], offset: number, limit: number): Page<T> {
  return { items: all.slice(offset, offset + limit), limit, offset, nextOffset: nextOffset(offset, limit, all.length > offset + limit) };
}
