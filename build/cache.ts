import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { SNAPSHOT_FILES } from "../src/snapshot/files.ts";

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
const CACHE_FORMAT_VERSION = 1;

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
  /** The front matter as parsed, without `private` (never published, never checked past its type). */
  readonly data: Record<string, unknown>;
  readonly body: string;
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

/** The cache file's first line; then one line per content file, `[file, CachedFile]`. */
interface CacheHeader {
  readonly format: number;
  readonly fingerprint: string;
  readonly baseUrl: string;
  readonly pages: PageInputs | null;
}

interface CacheFile extends CacheHeader {
  /** Each file's entry, with the line it was read from (written again as it is while the file is unchanged). */
  readonly files: ReadonlyMap<string, { readonly entry: CachedFile; readonly line: Buffer }>;
}

/** A file changed less than this before the build started may change again unseen within its timestamp's tick. */
export const RACY_MS = 2000;

export const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Where the cache of the snapshot in `distDir` is kept: beside it, never inside. */
export function cacheDir(distDir: string): string {
  const target = resolve(distDir);
  return join(dirname(target), `.${basename(target)}-cache`);
}

const CACHE_FILE = "cache.ndjson";

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
  readonly #fingerprint: string;
  readonly #baseUrl: string;
  readonly #previous: CacheFile | null;
  /** What this build read: an entry, or the previous cache's line for an unchanged file. */
  readonly #files = new Map<string, CachedFile | Buffer>();
  /** Why the previous cache is not used, for --verbose; null when it is. */
  readonly unused: string | null;

  private constructor(dir: string, baseUrl: string, previous: CacheFile | null, fingerprint: string, unused: string | null) {
    this.#dir = dir;
    this.#baseUrl = baseUrl;
    this.#previous = previous;
    this.#fingerprint = fingerprint;
    this.unused = unused;
  }

  /** The cache of `distDir`'s snapshot; with `clean`, or when it is unusable, an empty one. */
  static open(distDir: string, baseUrl: string, { clean = false } = {}): BuildCache {
    const dir = cacheDir(distDir);
    const fingerprint = codeFingerprint();
    if (clean) return new BuildCache(dir, baseUrl, null, fingerprint, "--clean");
    let previous: CacheFile;
    try {
      previous = readCache(join(dir, CACHE_FILE));
    } catch {
      return new BuildCache(dir, baseUrl, null, fingerprint, "no readable cache");
    }
    const unused =
      previous.format !== CACHE_FORMAT_VERSION
        ? "cache from another format"
        : previous.fingerprint !== fingerprint
          ? "cache from other code"
          : previous.baseUrl !== baseUrl
            ? "cache for another BASE_URL"
            : null;
    return new BuildCache(dir, baseUrl, unused === null ? previous : null, fingerprint, unused);
  }

  /** What the last build read from `file`, if it was read with a usable cache. */
  file(file: string): CachedFile | undefined {
    const found = this.#previous?.files.get(file)?.entry;
    return typeof found?.sha256 === "string" && typeof found.body === "string" && typeof found.data === "object" ? found : undefined;
  }

  /** Records what this build read from `file` (for a file unchanged, the very entry `file()` gave). */
  keep(file: string, entry: CachedFile): void {
    const previous = this.#previous?.files.get(file);
    this.#files.set(file, previous?.entry === entry ? previous.line : entry);
  }

  /** What the pages of the snapshot in `distDir` were made from, if it is still the snapshot the cache describes. */
  pageInputs(distDir: string): PageInputs | null {
    const pages = this.#previous?.pages ?? null;
    if (pages === null) return null;
    try {
      const manifest = JSON.parse(readFileSync(join(distDir, SNAPSHOT_FILES.manifest), "utf8")) as { version?: unknown; builtAt?: unknown };
      return `${manifest.version} ${manifest.builtAt}` === pages.snapshot ? pages : null;
    } catch {
      return null;
    }
  }

  /**
   * Writes the cache for the snapshot just swapped in. Written beside, then renamed: a build
   * stopped half-way leaves the old cache, which then no longer matches dist/'s manifest.
   */
  async save(pages: PageInputs): Promise<void> {
    const header: CacheHeader = { format: CACHE_FORMAT_VERSION, fingerprint: this.#fingerprint, baseUrl: this.#baseUrl, pages };
    await mkdir(this.#dir, { recursive: true });
    const temporary = join(this.#dir, `${CACHE_FILE}.${process.pid}`);
    try {
      // A line per file, written a thousand at a time: at a million listings the whole would be longer than a string can be.
      const fd = openSync(temporary, "w");
      try {
        writeSync(fd, `${JSON.stringify(header)}\n`);
        const newline = Buffer.from("\n");
        let lines: Buffer[] = [];
        for (const [file, entry] of this.#files) {
          lines.push(Buffer.isBuffer(entry) ? entry : Buffer.from(JSON.stringify([file, entry])), newline);
          if (lines.length === 2000) {
            writeSync(fd, Buffer.concat(lines));
            lines = [];
          }
        }
        if (lines.length > 0) writeSync(fd, Buffer.concat(lines));
      } finally {
        closeSync(fd);
      }
      await rename(temporary, join(this.#dir, CACHE_FILE));
    } finally {
      await rm(temporary, { force: true });
    }
    // What a build stopped while writing the cache left (a build still running keeps its own).
    for (const name of readdirSync(this.#dir)) {
      const pid = Number(name.slice(CACHE_FILE.length + 1));
      if (name.startsWith(`${CACHE_FILE}.`) && !running(pid)) await rm(join(this.#dir, name), { force: true });
    }
  }
}

/** Whether a process with this id is running. */
function running(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Reads a cache file; throws when it is not one. */
function readCache(path: string): CacheFile {
  const bytes = readFileSync(path);
  let start = bytes.indexOf(10);
  if (start === -1) throw new Error("not a cache");
  const header = JSON.parse(bytes.toString("utf8", 0, start)) as CacheHeader;
  if (typeof header !== "object" || header === null) throw new Error("not a cache");
  const files = new Map<string, { entry: CachedFile; line: Buffer }>();
  for (start += 1; start < bytes.length; ) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    const line = bytes.subarray(start, end);
    const [file, entry] = JSON.parse(line.toString("utf8")) as [string, CachedFile];
    files.set(file, { entry, line });
    start = end + 1;
  }
  return { ...header, files };
}
