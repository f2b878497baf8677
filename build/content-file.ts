import { stringify } from "yaml";

/**
 * A content file's text from its front matter and body, as `npm run new` and the editor's form
 * (build/admin/) write it. Written by YAML 1.1's rules, which the build's reader (gray-matter's
 * js-yaml) follows: `12:30`, `1_000` or `2024-01-01` are quoted, or they would read as a number or
 * a date.
 */
export function fileText(data: Record<string, unknown>, body: string): string {
  return `---\n${stringify(data, { version: "1.1", lineWidth: 0 })}---\n${body}\n`;
}
