/**
 * The MCP App's HTML document (MCP_APP in src/api/resources.ts), built into the snapshot: the
 * browser code in build/mcp-app/ bundled by esbuild with @modelcontextprotocol/ext-apps into one
 * inline script, the styles inline, nothing loaded from anywhere (its CSP declares no origin).
 * The page around the script is written here, with the form's limits from the search's own.
 */
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Plugin } from "esbuild";
import packageJson from "../package.json" with { type: "json" };
import { MCP_APP } from "../src/api/resources.ts";
import { TOOL_NAMES } from "../src/api/tools/tool.ts";
import { DIRECTORY_LOCATION_MAX_LENGTH, DIRECTORY_Q_MAX_LENGTH } from "../src/contract.ts";
import { escapeHtml } from "../src/render/escape.ts";
import { browserScript } from "./browser-script.ts";
import type { AppConfig } from "./mcp-app/config.ts";

const SOURCE = new URL("./mcp-app/", import.meta.url).pathname;

const CONFIG: AppConfig = {
  name: `${packageJson.name}/${MCP_APP.name}`,
  version: packageJson.version,
  searchTool: TOOL_NAMES.searchBusinesses,
};

/**
 * zod (which ext-apps validates its messages with) re-exports every locale of its error messages
 * as `z.locales`, which nothing here reads: 264 KB of the 673 KB bundle. Its English messages,
 * which zod configures itself, stay; the barrel of the others is made to hold English only.
 */
const ZOD_ENGLISH_ONLY: Plugin = {
  name: "zod-english-only",
  setup(bundler) {
    bundler.onResolve({ filter: /\/locales\/index\.js$/ }, ({ path, importer }) =>
      importer.includes("/node_modules/zod/") ? { path: `${dirname(importer)}/${path}`, namespace: "zod-english-only" } : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: "zod-english-only" }, ({ path }) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(path),
    }));
  },
};

/** The browser code as one script: ext-apps and the app, minified, run as it loads. */
async function script(): Promise<string> {
  const code = await browserScript(`${SOURCE}app.ts`, "the MCP App", {
    define: { MCP_APP_CONFIG: JSON.stringify(CONFIG) },
    plugins: [ZOD_ENGLISH_ONLY],
  });
  // Inside <script>, only "</script" and "<!--" could end or change the element: escaped, they mean the same to JavaScript.
  return code.replaceAll("</script", "<\\/script").replaceAll("<!--", "<\\!--");
}

async function document(): Promise<string> {
  const [code, css] = await Promise.all([script(), readFile(`${SOURCE}app.css`, "utf8")]);
  const title = escapeHtml(MCP_APP.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
${css}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<form id="search" role="search" aria-label="Refine the search">
<label>Service or name <input name="q" maxlength="${DIRECTORY_Q_MAX_LENGTH}" autocomplete="off"></label>
<label>Town, region or postcode <input name="location" maxlength="${DIRECTORY_LOCATION_MAX_LENGTH}" autocomplete="off"></label>
<label>Country code <input name="country" maxlength="2" autocomplete="off"></label>
<button type="submit">Search</button>
</form>
<p id="status" role="status">Waiting for the results…</p>
<ul id="cards" class="cards" aria-label="Listings"></ul>
<nav id="pages" aria-label="Pages"></nav>
</main>
<script>${code}</script>
</body>
</html>
`;
}

let made: Promise<string> | undefined;

/** The app's document, bundled once per process: it depends on the code only, not on the content. */
export function mcpAppHtml(): Promise<string> {
  made ??= document();
  return made;
}
