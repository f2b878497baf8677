/**
 * Content files read and written by the form as the build reads them and `npm run new` writes
 * them: YAML front matter by YAML 1.1's rules (build/content-file.ts), keys in the schema's order
 * at every depth, the body below. Decap's own front-matter format writes YAML 1.2, where `12:30`
 * is text but the build's reader (js-yaml) takes it for a number.
 */
import { parse } from "yaml";
import { fileText } from "../content-file.ts";
import type { Formatter } from "./decap.ts";
import { NEW_FILE_KEYS } from "./names.ts";

/** A schema's shape as far as key order goes. */
interface Shape {
  readonly properties?: Readonly<Record<string, object>>;
  readonly items?: object;
}

/** gray-matter's delimiters: `---` alone on the first line, and on the line that ends the front matter. */
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * The value with what a cleared optional field leaves behind taken out: Decap keeps an emptied
 * text field as "" and an emptied group as a mapping of such, which the build refuses (`must not
 * be blank`) where leaving the key out is what was meant. A required field left empty never gets
 * here: the form refuses it.
 */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (!isMapping(value)) return value;
  const kept: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const cleaned = withoutEmpty(item);
    if (cleaned === "" || cleaned === null || cleaned === undefined) continue;
    if (isMapping(cleaned) && Object.keys(cleaned).length === 0) continue;
    kept.push([key, cleaned]);
  }
  return Object.fromEntries(kept);
}

/** Keys in the schema's order, at every depth; keys it does not name (a `private` mapping's own) after them, as they came. */
function ordered(value: unknown, shape: Shape | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => ordered(item, shape?.items as Shape | undefined));
  if (!isMapping(value)) return value;
  const known = Object.keys(shape?.properties ?? {}).filter((key) => Object.hasOwn(value, key));
  const rest = Object.keys(value).filter((key) => !Object.hasOwn(shape?.properties ?? {}, key));
  return Object.fromEntries([...known, ...rest].map((key) => [key, ordered(value[key], shape?.properties?.[key] as Shape | undefined)]));
}

/** The format of one kind of content file, whose front matter `shape` describes. */
export function contentFormat(shape: Shape): Formatter {
  return {
    fromFile(text) {
      const match = FRONT_MATTER.exec(text);
      // The body without the file's last line break, which the form would show as a last empty line.
      if (match === null) return { body: text.replace(/\s+$/u, "") };
      const data: unknown = parse(match[1] ?? "", { version: "1.1" }) ?? {};
      if (!isMapping(data)) throw new Error("the front matter is not a mapping of keys and values");
      return { ...data, body: text.slice(match[0].length).replace(/\s+$/u, "") };
    },
    toFile({ body, [NEW_FILE_KEYS.slug]: _slug, [NEW_FILE_KEYS.folder]: _folder, ...data }) {
      const front = ordered(withoutEmpty(data), shape) as Record<string, unknown>;
      return fileText(front, typeof body === "string" ? body.replace(/\s+$/u, "") : "");
    },
  };
}
