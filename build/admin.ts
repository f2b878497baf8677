/**
 * The editors' form's own browser code (build/admin/main.ts) as one script, with the site's
 * renderer, the schemas and the YAML library. `npm run dev` serves it at /admin/admin.js, after
 * Decap CMS's bundle, which it serves from node_modules.
 */
import { browserScript } from "./browser-script.ts";

let made: Promise<string> | undefined;

/** The script, bundled once per process: it depends on the code only. */
export function adminScript(): Promise<string> {
  made ??= browserScript(new URL("./admin/main.ts", import.meta.url).pathname, "the editors' form");
  return made;
}
