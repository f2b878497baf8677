import { isAbsolute, relative, resolve } from "node:path";
import type { ContentProblem } from "./content.ts";

/**
 * Content errors and warnings as editors' tools read them. `text`: one line each,
 * `path:line:col: field: what is wrong` (warnings: `path:line:col: warning: field: …`), the form
 * terminals and editors turn into links. `github`: GitHub Actions workflow commands
 * (`::error file=…,line=…,col=…::…`), which annotate those lines of a pull request.
 */

export const REPORT_FORMATS = ["text", "github"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export type Severity = "error" | "warning";

/** A content file's path as the person running the command can open it: from the working folder when it is below it. */
export function displayPath(contentDir: string, file: string): string {
  const absolute = resolve(contentDir, file);
  const fromHere = relative(process.cwd(), absolute);
  return fromHere.startsWith("..") || isAbsolute(fromHere) ? absolute : fromHere;
}

/** By file, then line and column: the order an editor fixes them in. */
export function inFileOrder(problems: readonly ContentProblem[]): ContentProblem[] {
  return [...problems].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
  );
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
export function reportLine(contentDir: string, problem: ContentProblem, severity: Severity, format: ReportFormat): string {
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

/** "1 error", "2 warnings". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
