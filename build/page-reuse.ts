import { access, mkdir, readdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DIRECTORY_PATH } from "../src/contract.ts";
import type { DirectorySummary } from "../src/render/directory-lists.ts";
import type { PublicBusiness } from "../src/schemas/business.ts";
import type { DirectoryIndex } from "../src/snapshot/directory-index.ts";
import { pageFile } from "../src/snapshot/files.ts";
import { type PageInputs, sha256 } from "./cache.ts";

/**
 * Keeping the previous snapshot's pages. Writing a listing's page means a folder and a file, and
 * creating (or hard-linking) 100,000 of them took 30 s and more on this project's disks; so an
 * incremental build does not copy the folder of listing pages (`businesses/`: the profiles and
 * the lists by country and service) at all. It writes the pages whose inputs changed beside it,
 * and when the new snapshot is complete, moves the previous snapshot's folder into the new one
 * (one rename), moves the changed pages in and the replaced and removed ones out (a rename each),
 * then swaps the new snapshot in as a full build does. The previous snapshot is without that
 * folder only between the first rename and the swap (a rename per changed page); if a rename
 * fails, those already made are undone and the previous snapshot stays as it was.
 */

/** The folder of listing pages: the directory's first page, the profiles, the lists. */
export const LISTINGS_FOLDER = pageFile(DIRECTORY_PATH);

/** The files of a profile's folder: its Markdown and its HTML (build/pages.ts). */
const PROFILE_FILES = 2;

/** What this snapshot's pages are made from (PageInputs without the snapshot's identity). */
export type NextInputs = Omit<PageInputs, "snapshot">;

/**
 * The inputs of every page below LISTINGS_FOLDER, from the SHA-256 of each listing's line, by
 * rank (`lineHashes`: the cache has those of unchanged listings, and hashing 100,000 lines took
 * 1-2 s of an incremental build). Without `profiles` (STATIC_PAGES=false) no profile has pages.
 */
export function nextInputs(
  siteKey: unknown,
  businesses: readonly PublicBusiness[],
  lineHashes: readonly string[],
  index: DirectoryIndex,
  summary: DirectorySummary,
  withProfiles: boolean,
): NextInputs & { readonly listFiles: ReadonlyMap<string, number> } {
  const profiles: Record<string, string> = {};
  if (withProfiles) for (const [rank, business] of businesses.entries()) profiles[business.slug] = lineHashes[rank] as string;
  const listFolders: Record<string, string> = {};
  const listFiles = new Map<string, number>();
  const lists = [
    ...summary.countries.map((list) => ({
      list,
      kind: "country",
      postings: index.countryPostings,
      entry: index.countries.indexOf(list.code),
    })),
    ...summary.services.map((list, entry) => ({ list, kind: "service", postings: index.servicePostings, entry })),
  ];
  for (const { list, kind, postings, entry } of lists) {
    const folder = listFolder(list.indexPathOf(1));
    const digest = [JSON.stringify([kind, list.title, list.total, list.paging])];
    for (let at = postings.offsets[entry] ?? 0; at < (postings.offsets[entry + 1] ?? 0); at += 1)
      digest.push(lineHashes[postings.values[at] ?? 0] ?? "");
    listFolders[folder] = sha256(digest.join("\n"));
    listFiles.set(folder, 2 * list.paging.pages.length + list.paging.parts.length);
  }
  return { pages: sha256(JSON.stringify([siteKey, withProfiles])), profiles, listFolders, listFiles };
}

/** A list's folder below LISTINGS_FOLDER, from the path of its first index part (every file of a list is in it). */
function listFolder(indexPath: string): string {
  const folder = dirname(pageFile(indexPath));
  if (!folder.startsWith(`${LISTINGS_FOLDER}/`)) throw new Error(`the list ${indexPath} is not below /${LISTINGS_FOLDER}`);
  return folder.slice(LISTINGS_FOLDER.length + 1);
}

/** Which pages of the previous snapshot this one keeps, and which it replaces or drops. */
export class PageReuse {
  /** Paths below LISTINGS_FOLDER (a profile's folder, a list's folder) to take out of the previous snapshot's folder. */
  readonly dropped: string[] = [];
  /** Files the kept pages hold. */
  readonly keptFiles: number;
  readonly #previous: PageInputs;
  readonly #next: NextInputs;

  constructor(previous: PageInputs, next: NextInputs & { readonly listFiles: ReadonlyMap<string, number> }) {
    this.#previous = previous;
    this.#next = next;
    let kept = 0;
    for (const [slug, hash] of Object.entries(previous.profiles)) {
      if (next.profiles[slug] === hash) kept += PROFILE_FILES;
      else this.dropped.push(slug);
    }
    for (const [folder, hash] of Object.entries(previous.listFolders)) {
      if (next.listFolders[folder] === hash) kept += next.listFiles.get(folder) ?? 0;
      else this.dropped.push(folder);
    }
    this.keptFiles = kept;
  }

  keepsProfile(slug: string): boolean {
    return this.#previous.profiles[slug] === this.#next.profiles[slug];
  }

  keepsList(indexPath: string): boolean {
    const folder = listFolder(indexPath);
    return this.#previous.listFolders[folder] === this.#next.listFolders[folder];
  }

  /**
   * Moves the previous snapshot's listing pages (`previous`/LISTINGS_FOLDER) into `staging`,
   * the replaced and dropped ones out to `trash`, and the new ones in from `fresh` (what this
   * build wrote below LISTINGS_FOLDER). Returns the undo of every move, for when the swap fails.
   */
  async move(previous: string, staging: string, fresh: string, trash: string): Promise<() => Promise<void>> {
    const done: [from: string, to: string][] = [];
    const undo = async () => {
      for (const [from, to] of done.reverse()) await rename(to, from);
    };
    const move = async (from: string, to: string) => {
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
      done.push([from, to]);
    };
    const target = join(staging, LISTINGS_FOLDER);
    try {
      await move(join(previous, LISTINGS_FOLDER), target);
      const written = await this.#written(fresh);
      let n = 0;
      for (const unit of [...this.dropped, ...written]) {
        if (await exists(join(target, unit))) await move(join(target, unit), join(trash, String(n++)));
      }
      for (const unit of written) await move(join(fresh, unit), join(target, unit));
    } catch (error) {
      await undo();
      throw error;
    }
    return undo;
  }

  /** What this build wrote below LISTINGS_FOLDER, as the units it replaces: files at the top, profiles' folders, lists' folders. */
  async #written(fresh: string): Promise<string[]> {
    const files = (await readdir(fresh, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
    const profiles = Object.keys(this.#next.profiles).filter((slug) => !this.keepsProfile(slug));
    const lists = Object.keys(this.#next.listFolders).filter(
      (folder) => this.#previous.listFolders[folder] !== this.#next.listFolders[folder],
    );
    return [...files, ...profiles, ...lists];
  }
}

/** Whether a path exists. */
async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
