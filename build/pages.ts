import type { Model } from "./derive.ts";

/**
 * The documents written beside the data, by URL path: Markdown pages, llms.txt and the like.
 * The server answers them from memory; a static host serves them from dist/ as they are.
 */
export function pages(_model: Model): Map<string, string> {
  return new Map();
}
