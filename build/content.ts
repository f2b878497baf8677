import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import matter from "gray-matter";

/** One editor's file, read but not yet validated. */
export interface SourceFile {
  /** Path relative to the content folder, with `/` separators, as editors see it in errors. */
  readonly file: string;
  /** The base name without `.md`. */
  readonly slug: string;
  readonly data: Record<string, unknown>;
  readonly body: string;
}

/** A file that could not be read or whose front matter is not YAML. */
export interface ContentProblem {
  readonly file: string;
  readonly field: string;
  readonly message: string;
}

export interface RawContent {
  readonly site: SourceFile | null;
  readonly offerings: SourceFile[];
  readonly businesses: SourceFile[];
  readonly problems: ContentProblem[];
}

async function markdownFiles(root: string, dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await markdownFiles(root, path)));
    // A README explains a folder to editors; it is not content.
    else if (entry.isFile() && entry.name.endsWith(".md") && entry.name.toLowerCase() !== "readme.md") files.push(path);
  }
  return files;
}

async function readSource(root: string, path: string, problems: ContentProblem[]): Promise<SourceFile | null> {
  const file = relative(root, path).split(sep).join("/");
  const slug = path.slice(path.lastIndexOf(sep) + 1, -".md".length);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    problems.push({ file, field: "(file)", message: missing ? "is missing" : "cannot be read" });
    return null;
  }
  try {
    // An empty options object keeps gray-matter from caching results across builds.
    const parsed = matter(text, {});
    const data = parsed.data as unknown;
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      problems.push({ file, field: "(front matter)", message: "must be a YAML mapping between --- lines" });
      return null;
    }
    return { file, slug, data: data as Record<string, unknown>, body: parsed.content };
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "").replace(/:\s*$/, "") : "unreadable";
    problems.push({ file, field: "(front matter)", message: `is not valid YAML: ${reason}` });
    return null;
  }
}

/** Reads every editor's file under `root`: `site.md`, `offerings/**`, `businesses/**`. */
export async function readContent(root: string): Promise<RawContent> {
  const problems: ContentProblem[] = [];
  const read = async (paths: string[]) =>
    (await Promise.all(paths.map((path) => readSource(root, path, problems)))).filter((f): f is SourceFile => f !== null);

  const [site] = await read([join(root, "site.md")]);
  const offerings = await read(await markdownFiles(root, join(root, "offerings")));
  const businesses = await read(await markdownFiles(root, join(root, "businesses")));
  return { site: site ?? null, offerings, businesses, problems };
}
