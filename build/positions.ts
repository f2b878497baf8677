import { readFileSync } from "node:fs";
import { join } from "node:path";
import matter from "gray-matter";
import { isMap, isScalar, isSeq, type Node, parseDocument } from "yaml";
import { type ContentProblem, SERVICES_FILE } from "./content.ts";

/**
 * Where a content problem is, as `line:column` (both from 1) in its file: editors' terminals and
 * tools link `path:line:col`, and GitHub annotates that line of a pull request.
 *
 * Files are parsed once, fast, by gray-matter's YAML engine, which keeps no positions. The
 * `yaml` package's documents do, but parse several times slower (measured: 140 µs a listing
 * against 20 µs; 14 s more at 100,000 listings), so only the files a problem is about are read
 * again and parsed for positions, after validation.
 */

/** A key path into a file's YAML: mapping keys and list indexes, as Ajv's instance paths name them. */
type YamlPath = readonly (string | number)[];

/** What a problem points at. */
export type Pointer =
  /** The key of the entry at the path, or for an empty path the first line of the front matter (the mapping). */
  | { readonly key: YamlPath }
  /** The value at the path (for a missing value: the closest key above it). */
  | { readonly value: YamlPath }
  /** The Markdown body, at this offset into its trimmed text. */
  | { readonly body: number }
  /** The file as a whole (its name, say): its first line. */
  | { readonly file: true };

export interface Position {
  readonly line: number;
  readonly column: number;
}

/** The YAML text of a file and where it starts; for a Markdown file, where its body starts too. */
interface Layout {
  readonly yaml: string;
  /** Offset of `yaml` in the file. */
  readonly yamlStart: number;
  /** Offset of the first non-blank character of the body (Markdown files). */
  readonly bodyStart: number;
  readonly text: string;
}

/** gray-matter's reading of a file with its YAML left unparsed: only where the `---` lines split it. */
const SPLIT_ONLY = { engines: { yaml: () => ({}) } };

/**
 * Where a Markdown file's YAML is (between its `---` lines) and where its body starts, as
 * gray-matter splits the file, without parsing the YAML. The YAML keeps the line break before the
 * closing `---` (where a parser stops on an unclosed value).
 */
export function frontMatterBounds(text: string): { yamlStart: number; yamlEnd: number; bodyOffset: number } {
  let split: { matter: string; content: string };
  try {
    split = matter(text, SPLIT_ONLY);
  } catch {
    // A language gray-matter has no engine for (`--- name: x`): no front matter it can read.
    return { yamlStart: 0, yamlEnd: 0, bodyOffset: 0 };
  }
  if (split.matter === "") {
    const bodyOffset = text.length - split.content.length;
    return { yamlStart: bodyOffset, yamlEnd: bodyOffset, bodyOffset };
  }
  // gray-matter's `matter` is the text right after the opening ---, up to the closing ---'s line break.
  const yamlStart = text.indexOf(split.matter);
  const yamlEnd = Math.min(yamlStart + split.matter.length + 1, text.length);
  return { yamlStart, yamlEnd, bodyOffset: text.length - split.content.length };
}

function layoutOf(file: string, text: string): Layout {
  if (file === SERVICES_FILE) return { yaml: text, yamlStart: 0, bodyStart: text.length, text };
  const { yamlStart, yamlEnd, bodyOffset } = frontMatterBounds(text);
  // The body's first character; for a body with none, where the body would begin.
  const body = text.slice(bodyOffset);
  const blank = body.length - body.trimStart().length;
  const bodyStart = bodyOffset + (blank === body.length ? 0 : blank);
  return { yaml: text.slice(yamlStart, yamlEnd), yamlStart, bodyStart, text };
}

/** 1-based line and column of an offset into `text`. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The collection or scalar at `path`, or null. */
function nodeAt(root: unknown, path: YamlPath): Node | null {
  let node: unknown = root;
  for (const step of path) {
    if (isMap(node)) {
      node = node.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === String(step))?.value ?? null;
    } else if (isSeq(node)) {
      node = node.items[Number(step)] ?? null;
    } else return null;
  }
  return node as Node | null;
}

/** The key node of the entry at `path` (a list item has no key: the item itself). */
function keyAt(root: unknown, path: YamlPath): Node | null {
  if (path.length === 0) return root as Node | null;
  const parent = nodeAt(root, path.slice(0, -1));
  const step = path[path.length - 1];
  if (isMap(parent)) {
    const pair = parent.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
    return (pair?.key as Node | undefined) ?? null;
  }
  if (isSeq(parent)) return (parent.items[Number(step)] as Node | undefined) ?? null;
  return null;
}

/** Offset into the YAML text of what the pointer names; the closest enclosing key when it is absent. */
function yamlOffset(root: unknown, pointer: { key: YamlPath } | { value: YamlPath }): number {
  const path = "key" in pointer ? pointer.key : pointer.value;
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const at = path.slice(0, depth);
    const node = depth === path.length && "value" in pointer ? (nodeAt(root, at) ?? keyAt(root, at)) : keyAt(root, at);
    if (node?.range !== undefined && node.range !== null) return node.range[0];
  }
  return 0;
}

/** Finds, in one file's text, the position each pointer names. */
function locator(file: string, text: string): (pointer: Pointer) => Position {
  const layout = layoutOf(file, text);
  let root: unknown;
  const yamlRoot = () => {
    if (root === undefined) root = parseDocument(layout.yaml, { uniqueKeys: false }).contents;
    return root;
  };
  return (pointer) => {
    if ("file" in pointer) return { line: 1, column: 1 };
    if ("body" in pointer) return positionAt(layout.text, Math.min(layout.bodyStart + pointer.body, layout.text.length));
    const offset = topLevelOffset(layout.yaml, pointer) ?? yamlOffset(yamlRoot(), pointer);
    // An empty front matter (or none) has no mapping to point at: the first line.
    return positionAt(layout.text, layout.yaml.trim() === "" ? 0 : layout.yamlStart + Math.max(offset, firstContent(layout.yaml)));
  };
}

/**
 * The common case without parsing: a plain top-level key (`name: …`) at the start of its line,
 * and its value on the same line. Anything else (nested, quoted keys, values on later lines) is
 * left to the parsed document. A large directory can have thousands of warnings of this kind.
 */
function topLevelOffset(yaml: string, pointer: { key: YamlPath } | { value: YamlPath }): number | undefined {
  const path = "key" in pointer ? pointer.key : pointer.value;
  const key = path[0];
  if (path.length !== 1 || typeof key !== "string" || !/^[A-Za-z][\w-]*$/.test(key)) return undefined;
  const match = new RegExp(`(^|\\n)${key}:([ \\t]*)(?=\\S)(?!#)`).exec(yaml);
  if (match === null) return undefined;
  const keyAt = match.index + (match[1] ?? "").length;
  if ("key" in pointer) return keyAt;
  const valueAt = keyAt + key.length + 1 + (match[2] ?? "").length;
  // A block scalar's value starts on a later line: leave it to the document.
  return /[|>]/.test(yaml[valueAt] ?? "") ? undefined : valueAt;
}

/** Offset of the first character of the YAML that is not blank (where a mapping starts). */
function firstContent(yaml: string): number {
  const match = /\S/.exec(yaml);
  return match === null ? 0 : match.index;
}

/** The problems with the line and column each pointer names; each file a pointer names is read once. */
export function withPositions<P extends ContentProblem>(root: string, problems: readonly P[]): P[] {
  const locators = new Map<string, ((pointer: Pointer) => Position) | null>();
  const locate = (file: string): ((pointer: Pointer) => Position) | null => {
    let found = locators.get(file);
    if (found === undefined) {
      try {
        found = locator(file, readFileSync(join(root, file), "utf8"));
      } catch {
        // Unreadable, or gone since it was read: the problem keeps its file name alone.
        found = null;
      }
      locators.set(file, found);
    }
    return found;
  };
  return problems.map((problem) => {
    if (problem.at === undefined || problem.line !== undefined) return problem;
    const position = locate(problem.file)?.(problem.at);
    return position === undefined ? problem : { ...problem, ...position };
  });
}
