import { isAbsolute, relative, resolve } from "node:path";
import type { ContentProblem } from "./content.ts";
import { withPositions } from "./positions.ts";
import { type ContentWarning, WARNING_KINDS, type WarningKind } from "./warnings.ts";

/**
 * Content errors and warnings as editors' tools read them. `text`: one line each,
 * `path:line:col: field: what is wrong` (warnings: `path:line:col: warning: field: …`), the form
 * terminals and editors turn into links. `github`: GitHub Actions workflow commands
 * (`::error file=…,line=…,col=…::…`), which annotate those lines of a pull request.
 *
 * Errors are always listed in full. Warnings can be cut to the first few of each kind, so that a
 * directory that warns about thousands of files still prints a page one can read: each kind cut
 * is then counted on a line of its own, in `text` a `warning:` line without a place, in `github`
 * a `::notice::`, which shows in the run's summary beside the annotations (GitHub itself shows
 * only the first few annotations of each severity per step).
 */

export const REPORT_FORMATS = ["text", "github"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

type Severity = "error" | "warning";

/** How many warnings of each kind `build` and `check` print unless asked for all of them. */
export const WARNINGS_PER_KIND = 20;

/** The option that asks for every warning. */
export const ALL_WARNINGS_OPTION = "all-warnings";

/** A content file's path as the person running the command can open it: from the working folder when it is below it. */
export function displayPath(contentDir: string, file: string): string {
  const absolute = resolve(contentDir, file);
  const fromHere = relative(process.cwd(), absolute);
  return fromHere.startsWith("..") || isAbsolute(fromHere) ? absolute : fromHere;
}

function byFile(a: ContentProblem, b: ContentProblem): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

/** By file, then line and column: the order an editor fixes them in. */
function inFileOrder<P extends ContentProblem>(problems: readonly P[]): P[] {
  return [...problems].sort((a, b) => byFile(a, b) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** GitHub's escaping of a workflow command's message. */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** GitHub's escaping of a workflow command's property value. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** One problem as one line of the format. */
function reportLine(contentDir: string, problem: ContentProblem, severity: Severity, format: ReportFormat): string {
  const path = displayPath(contentDir, problem.file);
  if (format === "github") {
    // A problem with no place in a file (a missing file, a folder) is annotated on the run, naming the path.
    if (problem.line === undefined) {
      return `::${severity} title=${escapeProperty(problem.field)}::${escapeData(`${path}: ${problem.message}`)}`;
    }
    const properties = `file=${escapeProperty(path)},line=${problem.line},col=${problem.column ?? 1},title=${escapeProperty(problem.field)}`;
    return `::${severity} ${properties}::${escapeData(problem.message)}`;
  }
  const where = problem.line === undefined ? path : `${path}:${problem.line}:${problem.column ?? 1}`;
  // One line each: a quoted excerpt may hold a line break.
  return `${where}: ${severity === "warning" ? "warning: " : ""}${problem.field}: ${problem.message.replace(/\s*[\r\n]+\s*/g, " ")}`;
}

/** A warning about a file outside the content (the previous snapshot's), as a line of the format. */
export function fileWarningLine(path: string, field: string, message: string, format: ReportFormat): string {
  return reportLine(process.cwd(), { file: path, field, message }, "warning", format);
}

/** Every error, in file order at its position, as lines of the format. */
export function errorLines(contentDir: string, problems: readonly ContentProblem[], format: ReportFormat): string[] {
  return inFileOrder(withPositions(contentDir, problems)).map((problem) => reportLine(contentDir, problem, "error", format));
}

/**
 * The first `perKind` warnings of each kind in file order, as lines of the format, then a line
 * for each kind that had more. Only warnings that can be among the first are given positions:
 * that reads their files, and a large directory can warn about most of its files.
 */
export function warningLines(
  contentDir: string,
  warnings: readonly ContentWarning[],
  format: ReportFormat,
  perKind = Number.POSITIVE_INFINITY,
): string[] {
  const total = new Map<WarningKind, number>();
  const lastFile = new Map<WarningKind, string>();
  // Past the first `perKind`, those in the same file as the last of them: their lines decide which come first.
  const candidates = [...warnings].sort(byFile).filter(({ kind, file }) => {
    const n = (total.get(kind) ?? 0) + 1;
    total.set(kind, n);
    if (n <= perKind) lastFile.set(kind, file);
    return n <= perKind || lastFile.get(kind) === file;
  });
  const shown = new Map<WarningKind, number>();
  const lines = inFileOrder(withPositions(contentDir, candidates))
    .filter(({ kind }) => {
      const n = (shown.get(kind) ?? 0) + 1;
      if (n > perKind) return false;
      shown.set(kind, n);
      return true;
    })
    .map((warning) => reportLine(contentDir, warning, "warning", format));
  for (const kind of Object.keys(WARNING_KINDS) as WarningKind[]) {
    const more = (total.get(kind) ?? 0) - (shown.get(kind) ?? 0);
    if (more > 0) lines.push(moreLine(kind, more, format));
  }
  return lines;
}

/** The line saying how many warnings of a kind were left out, and how to see them. */
function moreLine(kind: WarningKind, more: number, format: ReportFormat): string {
  const text = `${count(more, `more "${WARNING_KINDS[kind]}" warning`)} (npm run check -- --${ALL_WARNINGS_OPTION} lists them all)`;
  return format === "github" ? `::notice::${escapeData(text)}` : `warning: ${text}`;
}

/** "1 error", "2 warnings". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
