import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { markdownLinks } from "../build/markdown-links.ts";
import { LLMS_FULL_PATH, LLMS_MAX_CHARACTERS, LLMS_PATH } from "../src/contract.ts";

/**
 * An agent's walk of the llms.txt tree: from /llms.txt, follow only the links to this site's
 * `.txt` indexes (to any depth; not llms-full.txt, the whole catalog's text in one file, which
 * is no index), and collect every Markdown link they hold. What the agent
 * readiness test checks on the sample content and `npm run bench` measures at every size: every
 * approved profile is reached, and no file read is LLMS_MAX_CHARACTERS or longer.
 */

export interface LlmsCrawl {
  /** Every `.txt` file read, from /llms.txt on. */
  readonly files: number;
  /** The longest file read, in characters. */
  readonly longest: { readonly url: string; readonly characters: number };
  /** Files of LLMS_MAX_CHARACTERS or more. */
  readonly tooLong: readonly string[];
  /** Index links that did not answer 200. */
  readonly broken: readonly string[];
  /** Every Markdown URL (`.md`) the indexes link, without its fragment. */
  readonly markdown: ReadonlySet<string>;
}

/**
 * Walks the tree of `baseUrl` (the site's BASE_URL, as its links give it), reading each file with
 * `read` (so the same walk runs against a server, a static host or files). Files are read `width`
 * at a time.
 */
export async function crawlLlms(
  baseUrl: string,
  read: (url: string) => Promise<{ status: number; text: string }>,
  width = 8,
): Promise<LlmsCrawl> {
  const seen = new Set<string>([`${baseUrl}${LLMS_PATH}`, `${baseUrl}${LLMS_FULL_PATH}`]);
  const queue = [`${baseUrl}${LLMS_PATH}`];
  const markdown = new Set<string>();
  const tooLong: string[] = [];
  const broken: string[] = [];
  let longest = { url: "", characters: 0 };
  let files = 0;
  const visit = async (url: string) => {
    const { status, text } = await read(url);
    if (status !== 200) {
      broken.push(url);
      return;
    }
    files += 1;
    if (text.length > longest.characters) longest = { url, characters: text.length };
    if (text.length >= LLMS_MAX_CHARACTERS) tooLong.push(url);
    for (const href of markdownLinks(text).map((link) => link.href)) {
      if (!href.startsWith(`${baseUrl}/`)) continue;
      const target = href.split("#", 1)[0] ?? href;
      if (target.endsWith(".md")) markdown.add(target);
      else if (target.endsWith(".txt") && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  };
  while (queue.length > 0) await Promise.all(queue.splice(0, width).map(visit));
  return { files, longest, tooLong, broken, markdown };
}

/** The walk a bench size reports: index files read, the longest, and how many approved profiles it reached. */
export interface LlmsWalk {
  readonly files: number;
  readonly longestCharacters: number;
  readonly tooLong: number;
  readonly reached: number;
  readonly profiles: number;
  readonly seconds: number;
}

/** Walks the tree of the snapshot in `dist` (built for `baseUrl`) from its files, as a static host would serve them. */
export async function walkDist(dist: string, baseUrl: string): Promise<LlmsWalk> {
  const started = performance.now();
  const crawl = await crawlLlms(baseUrl, async (url) => {
    try {
      return { status: 200, text: await readFile(join(dist, url.slice(baseUrl.length)), "utf8") };
    } catch {
      return { status: 404, text: "" };
    }
  });
  const seconds = (performance.now() - started) / 1000;
  // Line by line: at a million listings the file (724 MB) is longer than a string can be.
  let profiles = 0;
  let reached = 0;
  for await (const line of createInterface({ input: createReadStream(join(dist, "data/businesses.ndjson")) })) {
    if (line === "") continue;
    profiles += 1;
    if (crawl.markdown.has((JSON.parse(line) as { markdownUrl: string }).markdownUrl)) reached += 1;
  }
  return { files: crawl.files, longestCharacters: crawl.longest.characters, tooLong: crawl.tooLong.length, reached, profiles, seconds };
}
