import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { PagingLengths } from "../src/render/list-paging.ts";
import { SNAPSHOT_FILES } from "../src/snapshot/files.ts";
import { readSegments, removeLeftovers, SegmentWriter, StoredEntry, writeAtomically } from "./cache-files.ts";
import type { OwnWarnings } from "./warnings.ts";

/**
 * What a build keeps for the next one (incremental builds, `npm run build` without `--clean`):
 * each content file's parsed and validated front matter and body, keyed by its path and the
 * SHA-256 of its bytes, and what the pages of the snapshot it wrote were made from (see
 * PageInputs). The next build reparses only the files whose bytes changed and rewrites only the
 * pages whose inputs changed.
 *
 * It lives beside `dist/`, never in it (`.dist-cache/` for `dist/`): it holds listings that are
 * not approved and editors' fields that are never published, and a static host serves `dist/`
 * whole. A cache that cannot be read, was written by another version of the build (the
 * fingerprint of its code and dependencies) or for another BASE_URL is ignored: the build is then
 * a full one, as with `--clean`.
 */

/** Bump when the cache's layout or meaning changes. */
const CACHE_FORMAT_VERSION = 2;

/** One content file as the last build read it. */
export interface CachedFile {
  /**
   * Size, modification and change times and inode when the file was read: while they are the
   * same, the file is taken as unchanged without reading it (git's index does the same). Null
   * for a file changed within RACY_MS of the build that read it, which is always read again.
   */
  readonly stat: string | null;
  /** SHA-256 of the file's bytes. */
  readonly sha256: string;
  /** The front matter as parsed; `private` (never published, never checked past its type) is left out when saved. */
  readonly data: Record<string, unknown>;
  readonly body: string;
  /** For a valid listing, what it warns about on its own (build/warnings.ts), once a build has validated it. */
  readonly own?: OwnWarnings;
  /** For an approved listing, what the build made of it, once it has (kept while the file's bytes are the same). */
  readonly listing?: CachedListing;
}

/**
 * What an approved listing gives every build while its file is the same (and the code and
 * BASE_URL, which a cache is for): work per listing that an incremental build would otherwise do
 * again for 100,000 listings to find that one changed.
 */
export interface CachedListing {
  /** SHA-256 of its public JSON line (a line of businesses.ndjson): whether its profile page is kept. */
  readonly lineSha256: string;
  /** How long it is in its lists' pages and llms.txt indexes (src/render/list-paging.ts). */
  readonly paging: PagingLengths;
}

/**
 * What the pages of the snapshot were made from: a page whose inputs are the same in the next
 * build is the same page, so it is kept rather than written again (build/emit.ts).
 */
export interface PageInputs {
  /** The snapshot these pages are in: its manifest's version and builtAt. */
  readonly snapshot: string;
  /** What every page depends on: the site facts and the base URL. */
  readonly pages: string;
  /** Each listing's profile, by slug: SHA-256 of its public JSON line. */
  readonly profiles: Record<string, string>;
  /** Each list's folder (below businesses/), by path: SHA-256 of its paging and its listings' lines. */
  readonly listFolders: Record<string, string>;
}

/** What every file of the cache starts with: which build's cache it is. */
interface CacheHeader {
  readonly format: number;
  readonly fingerprint: string;
  readonly baseUrl: string;
}

/** The pages file: the header and what the pages of the snapshot were made from. */
interface PagesFile extends CacheHeader {
  readonly pages: PageInputs | null;
}

/** A file changed less than this before the build started may change again unseen within its timestamp's tick. */
export const RACY_MS = 2000;

export const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Where the cache of the snapshot in `distDir` is kept: beside it, never inside. */
export function cacheDir(distDir: string): string {
  const target = resolve(distDir);
  return join(dirname(target), `.${basename(target)}-cache`);
}

/** What the pages were made from; the files' entries are in segments (build/cache-files.ts). */
const PAGES_FILE = "pages.json";

/** The single file format 1 kept everything in. */
const FORMAT_1_FILE = "cache.ndjson";

/**
 * A digest of the build's own code and its dependencies' versions: a cache written by other code
 * may hold what that code parsed or rendered differently.
 */
function codeFingerprint(): string {
  const root = new URL("..", import.meta.url).pathname;
  const hash = createHash("sha256").update(String(CACHE_FORMAT_VERSION));
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(join(root, dir)).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(dir, name);
      if (/\.(ts|mts|js|mjs|json)$/.test(name)) hash.update(path).update(readFileSync(join(root, path)));
      else if (!name.includes(".")) walk(path);
    }
  };
  for (const dir of ["build", "src", "schemas"]) walk(dir);
  for (const file of ["package-lock.json", "package.json"]) {
    try {
      hash.update(readFileSync(join(root, file)));
    } catch {
      // Not in every installation.
    }
  }
  return hash.digest("hex");
}

/** The previous build's cache, and what this build records for the next. */
export class BuildCache {
  readonly #dir: string;
  /** The header line of every file this cache writes. */
  readonly #header: string;
  readonly #previous: ReadonlyMap<string, StoredEntry<CachedFile>>;
  readonly #pages: PageInputs | null;
  /** What this build read: an entry, or the previous cache's entry for an unchanged file. */
  readonly #files: SegmentWriter<CachedFile>;
  /** Why the previous cache is not used, for --verbose; null when it is. */
  readonly unused: string | null;
  readonly #usable: boolean;
  /** Documents made by this build for the cache (made()), by file name. */
  readonly #made = new Map<string, string>();
  /** The page inputs save() wrote; null before it has run. */
  #savedPages: PageInputs | null = null;

  private constructor(dir: string, header: string, previous: Previous | null, unused: string | null) {
    this.#dir = dir;
    this.#header = header;
    this.#previous = previous?.entries ?? new Map();
    this.#pages = previous?.pages ?? null;
    this.#files = new SegmentWriter(previous?.counts ?? null);
    this.unused = unused;
    this.#usable = previous !== null;
  }

  /** The cache of `distDir`'s snapshot; with `clean`, or when it is unusable, an empty one. */
  static open(distDir: string, baseUrl: string, { clean = false } = {}): BuildCache {
    const dir = cacheDir(distDir);
    const header = JSON.stringify({ format: CACHE_FORMAT_VERSION, fingerprint: codeFingerprint(), baseUrl } satisfies CacheHeader);
    if (clean) return new BuildCache(dir, header, null, "--clean");
    let previous: PagesFile;
    try {
      previous = JSON.parse(readFileSync(join(dir, PAGES_FILE), "utf8")) as PagesFile;
      if (typeof previous !== "object" || previous === null) throw new Error("not a cache");
    } catch {
      return new BuildCache(dir, header, null, "no readable cache");
    }
    const ours = JSON.parse(header) as CacheHeader;
    const unused =
      previous.format !== ours.format
        ? "cache from another format"
        : previous.fingerprint !== ours.fingerprint
          ? "cache from other code"
          : previous.baseUrl !== baseUrl
            ? "cache for another BASE_URL"
            : null;
    if (unused !== null) return new BuildCache(dir, header, null, unused);
    return new BuildCache(dir, header, { ...readSegments<CachedFile>(dir, header), pages: previous.pages ?? null }, null);
  }

  /** What the last build read from `file`, if it was read with a usable cache. */
  file(file: string): CachedFile | undefined {
    const found = this.#previous.get(file)?.entry;
    return typeof found?.sha256 === "string" && typeof found.body === "string" && typeof found.data === "object" ? found : undefined;
  }

  /** Records what this build read from `file` (for a file unchanged, the very entry `file()` gave). */
  keep(file: string, entry: CachedFile): void {
    const previous = this.#previous.get(file);
    this.#files.set(file, previous?.entry === entry ? previous : entry);
  }

  /**
   * A document the build makes from its own code alone (the MCP App, bundled by esbuild: 0.5-1 s),
   * taken from the cache when the cache is usable (the same code), else made and kept by save().
   */
  async made(name: string, make: () => Promise<string>): Promise<string> {
    if (this.#usable) {
      try {
        const text = readFileSync(join(this.#dir, name), "utf8");
        const end = text.indexOf("\n");
        if (end !== -1 && text.slice(0, end) === this.#header) return text.slice(end + 1);
      } catch {
        // Not made yet, or unreadable: made again.
      }
    }
    const text = await make();
    this.#made.set(name, text);
    return text;
  }

  /** Records what the listing in `file` (which this build read) warns about on its own. */
  keepOwn(file: string, own: OwnWarnings): void {
    this.#amend(file, { own });
  }

  /** Records what this build made of the approved listing in `file` (which it read). */
  keepListing(file: string, listing: CachedListing): void {
    this.#amend(file, { listing });
  }

  #amend(file: string, made: Pick<CachedFile, "own" | "listing">): void {
    const kept = this.#files.get(file);
    const entry = kept instanceof StoredEntry ? kept.entry : kept;
    if (entry !== undefined) this.#files.set(file, { ...entry, ...made });
  }

  /** What the pages of the snapshot in `distDir` were made from, if it is still the snapshot the cache describes. */
  pageInputs(distDir: string): PageInputs | null {
    const pages = this.#pages;
    if (pages === null) return null;
    try {
      const manifest = JSON.parse(readFileSync(join(distDir, SNAPSHOT_FILES.manifest), "utf8")) as { version?: unknown; builtAt?: unknown };
      return `${manifest.version} ${manifest.builtAt}` === pages.snapshot ? pages : null;
    } catch {
      return null;
    }
  }

  /**
   * Writes the cache for the snapshot just swapped in: the segments that changed, then the pages
   * file, each beside then renamed. A build stopped half-way leaves segments that still say what
   * their files parse to, and a pages file that no longer matches dist/'s manifest.
   */
  async save(pages: PageInputs): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    this.#files.write(this.#dir, this.#header, entryLine);
    for (const [name, text] of this.#made) writeAtomically(this.#dir, name, [`${this.#header}\n`, text]);
    const header = JSON.parse(this.#header) as CacheHeader;
    writeAtomically(this.#dir, PAGES_FILE, [JSON.stringify({ ...header, pages } satisfies PagesFile)]);
    removeLeftovers(this.#dir, [FORMAT_1_FILE]);
    this.#savedPages = pages;
  }

  /**
   * Once save() has run: the cache it wrote, for a next build in this process (`npm run dev`),
   * which need not read it back. An entry this build made is read back from its line, as a build
   * reading the cache from the disk would have it.
   */
  next(): BuildCache {
    if (this.#savedPages === null) throw new Error("BuildCache.next() before save()");
    const saved = this.#files.saved((file, entry) => (JSON.parse(entryLine(file, entry)) as [string, CachedFile])[1]);
    return new BuildCache(this.#dir, this.#header, { ...saved, pages: this.#savedPages }, null);
  }
}

/** An entry's line in its segment. */
function entryLine(file: string, entry: CachedFile): string {
  return JSON.stringify([file, withoutPrivate(entry)]);
}

/** An entry as it is saved: without the front matter's `private`. */
function withoutPrivate(entry: CachedFile): CachedFile {
  if (!("private" in entry.data)) return entry;
  const { private: _, ...data } = entry.data;
  return { ...entry, data };
}

/** The previous cache as it was read. */
interface Previous {
  readonly entries: ReadonlyMap<string, StoredEntry<CachedFile>>;
  readonly counts: readonly number[];
  readonly pages: PageInputs | null;
}
