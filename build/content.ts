import type { Dirent } from "node:fs";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import matter from "gray-matter";
import { parseDocument, parse as parseYaml, YAMLParseError } from "yaml";
import { type BuildCache, type CachedFile, RACY_MS, sha256 } from "./cache.ts";
import { frontMatterBounds, type Pointer, positionAt } from "./positions.ts";

/** One editor's file, read but not yet validated. */
export interface SourceFile {
  /** Path relative to the content folder, with `/` separators, as editors see it in errors. */
  readonly file: string;
  /** The base name without `.md`. */
  readonly slug: string;
  readonly data: Record<string, unknown>;
  readonly body: string;
  /**
   * For a file read unchanged from the last build's cache, where it was valid, the cache's entry:
   * its own checks are not run again, and what that build made of it is used again.
   */
  readonly cached?: CachedFile;
}

/** Something wrong (or, as a warning, doubtful) in an editor's file. */
export interface ContentProblem {
  /** Path relative to the content folder. */
  readonly file: string;
  readonly field: string;
  readonly message: string;
  /** What in the file is to blame; turned into `line` and `column` after validation (build/positions.ts). */
  readonly at?: Pointer;
  /** 1-based; absent when the problem is about no place in a file (a missing file, a folder). */
  readonly line?: number;
  readonly column?: number;
}

/** `content/services.yml`, read but not yet validated. */
export interface ServicesFile {
  readonly file: string;
  readonly data: unknown;
}

export interface RawContent {
  readonly site: SourceFile | null;
  /** The service vocabulary; null when the file does not exist (services are then free text). */
  readonly services: ServicesFile | null;
  readonly offerings: SourceFile[];
  readonly businesses: SourceFile[];
  readonly problems: ContentProblem[];
}

/**
 * Reading is synchronous and one file at a time: for many small files it is several times faster
 * than the promise API (measured: 100,000 listing files in 0.6 s against 5 s with 64 reads in
 * flight), and it holds one file descriptor, however many files there are.
 */
export function markdownFiles(dir: string, files: string[] = []): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return files;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    // Joined as text, not by path.join, which normalises every path again: 0.15-0.25 s of 0.3-0.4 s for 100,000 files.
    const path = `${dir}${sep}${entry.name}`;
    // Appending in place: spreading a folder of 100,000+ paths into push() overflows the stack.
    if (entry.isDirectory()) markdownFiles(path, files);
    // A README explains a folder to editors; it is not content.
    else if (entry.isFile() && entry.name.endsWith(".md") && entry.name.toLowerCase() !== "readme.md") files.push(path);
  }
  return files;
}

/** How a file's identity on disk is compared with the cache's: size, times and inode. */
function statOf(path: string, started: number): string | null {
  const { size, mtimeMs, ctimeMs, ino } = statSync(path);
  return Math.max(mtimeMs, ctimeMs) > started - RACY_MS ? null : `${size}:${mtimeMs}:${ctimeMs}:${ino}`;
}

/**
 * The front matter and body as copies of their own: the parser's strings are slices of the
 * file's text, which each keeps whole (at 100,000 listings 1.8 KB a file held against 1.1 KB).
 */
function ownCopy(data: Record<string, unknown>, body: string): { data: Record<string, unknown>; body: string } {
  return structuredClone({ data, body });
}

/** A file as the cache has it. */
function fromCache(file: string, slug: string, cached: CachedFile): SourceFile {
  return { file, slug, data: cached.data, body: cached.body, cached };
}

/** The content folder, and its path as its files' paths start (path.join normalises it: once, not once a file). */
interface Root {
  readonly path: string;
  readonly prefix: string;
}

/** Reads the file; with a cache, a file whose stat or bytes are as the last build saw them is not parsed again. */
function readSource(root: Root, path: string, problems: ContentProblem[], cache?: ReadCache): SourceFile | null {
  // The path is root joined with the file's: cut, not path.relative (which resolves both: 1-2 s for 100,000 files in a loaded profile).
  const cut = path.startsWith(root.prefix) ? path.slice(root.prefix.length) : relative(root.path, path);
  const file = sep === "/" ? cut : cut.split(sep).join("/");
  // Cut from `file`, which is kept, not from `path`, which a slice would keep whole.
  const slug = file.slice(file.lastIndexOf("/") + 1, -".md".length);
  const cached = cache?.cache.file(file);
  let stat: string | null = null;
  let text: string;
  try {
    if (cache !== undefined) {
      if (cached !== undefined && cached.stat !== null && cache.unchanged?.(file) === true) {
        cache.cache.keep(file, cached);
        return fromCache(file, slug, cached);
      }
      stat = statOf(path, cache.started);
      if (cached !== undefined && stat !== null && cached.stat === stat) {
        cache.cache.keep(file, cached);
        return fromCache(file, slug, cached);
      }
    }
    text = readFileSync(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    problems.push({ file, field: "(file)", message: missing ? "is missing" : "cannot be read" });
    return null;
  }
  const digest = cache === undefined ? "" : sha256(text);
  if (cache !== undefined && cached !== undefined && cached.sha256 === digest) {
    cache.cache.keep(file, stat === cached.stat ? cached : { ...cached, stat });
    return fromCache(file, slug, cached);
  }
  if (unclosedFrontMatter(text)) {
    problems.push({ file, field: "(front matter)", ...noClosingLine(file, text) });
    return null;
  }
  try {
    // An empty options object keeps gray-matter from caching results across builds.
    const parsed = matter(text, {});
    const data = parsed.data as unknown;
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      problems.push({ file, field: "(front matter)", message: "must be a YAML mapping between --- lines", at: { key: [] } });
      return null;
    }
    const source = { file, slug, ...ownCopy(data as Record<string, unknown>, parsed.content) };
    // Kept for the next build, which uses it only if this one succeeds (every file valid); `private` is left out when it is saved.
    cache?.cache.keep(file, { stat, sha256: digest, data: source.data, body: source.body });
    return source;
  } catch (error) {
    problems.push({ file, field: "(front matter)", ...brokenFrontMatter(text, error) });
    return null;
  }
}

/** The parser's reason without the position it appends (the problem carries the position). */
function yamlReason(error: unknown): string {
  if (!(error instanceof Error)) return "unreadable";
  const first = (error instanceof YAMLParseError ? error.message.replace(/^YAML\w*: /, "") : error.message).split("\n")[0] ?? "";
  return first.replace(/:\s*$/, "").replace(/ at line \d+, column \d+$/, "");
}

/**
 * Why and where a front matter is not YAML. gray-matter's parser (js-yaml) only says where it
 * gave up, which for a tab or a bad indent is a line or more later; the `yaml` package names the
 * first line at fault, so the text between the `---` lines is parsed again by it. Its lines are
 * counted from the file's second line (the first is the opening `---`).
 */
function brokenFrontMatter(text: string, error: unknown): Pick<ContentProblem, "message" | "at" | "line" | "column"> {
  const { yamlStart, yamlEnd } = frontMatterBounds(text);
  const first = parseDocument(text.slice(yamlStart, yamlEnd)).errors[0];
  const at = first?.linePos?.[0];
  if (first !== undefined && at !== undefined) {
    // The YAML starts on the opening --- line, after the ---.
    return { message: `is not valid YAML: ${yamlReason(first)}`, line: at.line, column: at.line === 1 ? at.col + 3 : at.col };
  }
  const message = `is not valid YAML: ${yamlReason(error)}`;
  const mark = (error as { mark?: { line?: unknown; column?: unknown } }).mark;
  if (typeof mark?.line !== "number" || typeof mark.column !== "number") return { message, at: { file: true } };
  // js-yaml counts lines from the opening `---` line.
  return { message, line: mark.line + 1, column: mark.column + 1 };
}

/**
 * Whether the file opens a front matter and has no line to close it, as gray-matter reads it
 * (`---` at the start, not followed by a fourth `-`; no later line that starts with `---`). It
 * then reads the whole file as the front matter, and the body as YAML: editors would be told of
 * implicit keys, or of unknown keys made from their description's words.
 */
function unclosedFrontMatter(text: string): boolean {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return text.startsWith("---", start) && text[start + 3] !== "-" && text.indexOf("\n---", start + 3) === -1;
}

/** What the body is called in each kind of file. */
function bodyName(file: string): string {
  if (file.startsWith("businesses/")) return "the description";
  if (file.startsWith("offerings/")) return "the guide";
  return "the homepage introduction";
}

/**
 * A line that reads as part of a front matter: blank, indented (a nested key, a value run on), a
 * comment, a list item, or a key such as `name:`. A sentence, even with a colon in it, does not.
 */
const FRONT_MATTER_LINE = /^(\s|#|-(\s|$)|("[^"]*"|'[^']*'|[A-Za-z_][\w-]*)[ \t]*:(\s|$)|$)/;

/**
 * The problem of a front matter with no closing line, where that line belongs: before the first
 * line that reads as the body's rather than the front matter's (the YAML parser would take most
 * sentences with a colon for keys), or after the file's last text when every line could be YAML.
 */
function noClosingLine(file: string, text: string): Pick<ContentProblem, "message" | "line" | "column"> {
  const message = `has no closing "---" line: end it with a line of three hyphens before ${bodyName(file)}`;
  const lines = text.split("\n");
  const body = lines.findIndex((line, index) => index > 0 && !FRONT_MATTER_LINE.test(line));
  return { message, ...(body === -1 ? positionAt(text, text.trimEnd().length) : { line: body + 1, column: 1 }) };
}

export const SERVICES_FILE = "services.yml";

/** The service vocabulary, if the file exists; a file that cannot be read or parsed is a problem. */
export function readServices(root: string, problems: ContentProblem[]): ServicesFile | null {
  let text: string;
  try {
    text = readFileSync(join(root, SERVICES_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    problems.push({ file: SERVICES_FILE, field: "(file)", message: "cannot be read" });
    return null;
  }
  try {
    return { file: SERVICES_FILE, data: parseYaml(text) as unknown };
  } catch (error) {
    const at = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
    problems.push({
      file: SERVICES_FILE,
      field: "(file)",
      message: `is not valid YAML: ${yamlReason(error)}`,
      ...(at === undefined ? { at: { file: true } } : { line: at.line, column: at.col }),
    });
    return null;
  }
}

/** The last build's cache as reading uses it: files changed since `started` - RACY_MS are always read again. */
interface ReadCache {
  readonly cache: BuildCache;
  /** When this build started (ms since the epoch). */
  readonly started: number;
  /**
   * Whether a file is known to be unchanged since the cache's build started (`npm run dev`'s
   * watcher has not seen it change): one the cache has, with a stat, is then taken from it
   * without a stat (at 100,000 listings the stats took 0.7 s).
   */
  readonly unchanged?: (file: string) => boolean;
}

/**
 * Whether a file (a path relative to the content folder, `/`-separated) is outside every path of
 * `changed`: not one of them, nor under one (a folder whose entries changed, or "" for all).
 */
export function unchangedBut(changed: ReadonlySet<string>): (file: string) => boolean {
  return (file) => {
    if (changed.has("") || changed.has(file)) return false;
    for (let at = file.indexOf("/"); at !== -1; at = file.indexOf("/", at + 1)) if (changed.has(file.slice(0, at))) return false;
    return true;
  };
}

/**
 * Reads every editor's file under `root`: `site.md`, `services.yml`, `offerings/**`, `businesses/**`.
 * With a cache (build/cache.ts), files unchanged since the last build are taken from it, and
 * what was read is recorded in it for the next build.
 */
export function readContent(root: string, cache?: ReadCache): RawContent {
  const problems: ContentProblem[] = [];
  const folder: Root = { path: root, prefix: `${join(root, ".")}${sep}` };
  const read = (paths: string[]) =>
    paths.map((path) => readSource(folder, path, problems, cache)).filter((f): f is SourceFile => f !== null);

  const [site] = read([join(root, "site.md")]);
  const services = readServices(root, problems);
  const offerings = read(markdownFiles(join(root, "offerings")));
  const businesses = read(markdownFiles(join(root, "businesses")));
  return { site: site ?? null, services, offerings, businesses, problems };
}
