/**
 * What `npm run dev` answers under /admin/ itself (front.ts sends it everything else to the site's
 * server): the editors' page, config.yml made from the schemas at each request (so a service added
 * to services.yml is a choice at the next load), the form's own script, the slug a new file gets,
 * and Decap CMS's files from node_modules. Nothing of it is in src/: the production server has
 * no /admin/.
 */
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import sirv from "sirv";
import { NEW_SLUG_PATH, SITE_FACTS_ID } from "../../build/admin/names.ts";
import { adminScript } from "../../build/admin.ts";
import { type ContentProblem, readServices } from "../../build/content.ts";
import { formConfigYaml } from "../../build/decap-config.ts";
import { listingFolder, listingSlugWords, newSlug, slugsIn } from "../../build/slug.ts";
import { checkServices } from "../../build/validate.ts";
import { escapeHtml, jsonForScript } from "../../src/render/escape.ts";
import type { SiteInfo } from "../../src/schemas/content.ts";
import { isCountryCode } from "../../src/schemas/countries.ts";
import { snapshotPath } from "../../src/snapshot/files.ts";
import type { Backend } from "./backend.ts";

/** Where the form is served. */
export const ADMIN_PATH = "/admin/";

const require = createRequire(import.meta.url);
const DECAP_DIST = join(dirname(require.resolve("decap-cms/package.json")), "dist");

export interface AdminOptions {
  readonly contentDir: string;
  readonly distDir: string;
  readonly baseUrl: string;
  /** The backend once it listens; a rejection says why it did not start. */
  readonly backend: Promise<Backend>;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff" });
  response.end(body);
}

const sendJson = (response: ServerResponse, status: number, value: unknown) =>
  send(response, status, "application/json; charset=utf-8", JSON.stringify(value));

/** The snapshot's site facts (data/site.json), which the preview renders pages with; null before the first build. */
async function siteFacts(distDir: string): Promise<SiteInfo | null> {
  try {
    return JSON.parse(await readFile(snapshotPath(distDir, "site"), "utf8")) as SiteInfo;
  } catch {
    return null;
  }
}

async function page(options: AdminOptions): Promise<string> {
  const site = await siteFacts(options.distDir);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Editing ${escapeHtml(site?.name ?? "the directory")}</title>
<link href="${ADMIN_PATH}config.yml" type="text/yaml" rel="cms-config-url">
<script type="application/json" id="${SITE_FACTS_ID}">${jsonForScript(site)}</script>
</head>
<body>
<script src="${ADMIN_PATH}decap-cms.js"></script>
<script src="${ADMIN_PATH}admin.js"></script>
</body>
</html>
`;
}

/** services.yml's services, or null without the file; with errors in it, null too, and a line saying so. */
function services(contentDir: string) {
  const problems: ContentProblem[] = [];
  const source = readServices(contentDir, problems);
  const vocabulary = source === null ? null : checkServices(source, problems);
  if (problems.length > 0) {
    console.error("the editors' form offers the service as free text: services.yml has errors (npm run check lists them)");
    return null;
  }
  return vocabulary;
}

/** The slug (and a listing's folder) `npm run new` would give a new file named so, among the files there now. */
function slugAnswer(contentDir: string, query: URLSearchParams): { status: number; body: unknown } {
  const param = (key: string) => query.get(key)?.trim() ?? "";
  const [kind, name, city, country] = [param("kind"), param("name"), param("city"), param("country")];
  if (kind === "offering" && name !== "")
    return { status: 200, body: { slug: newSlug(name, slugsIn(join(contentDir, "offerings")), "offering") } };
  if (kind !== "listing" || name === "" || city === "" || !isCountryCode(country)) {
    return { status: 400, body: { error: "kind=offering and a name, or kind=listing and a name, a city and a country code, are needed" } };
  }
  const slug = newSlug(listingSlugWords(name, city), slugsIn(join(contentDir, "businesses")), "listing");
  return { status: 200, body: { slug, folder: listingFolder(country) } };
}

/** The handler of every request under /admin/. */
export function adminRoutes(options: AdminOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const contentDir = resolve(options.contentDir);
  const decapFiles = sirv(DECAP_DIST, {
    dev: false,
    etag: true,
    onNoMatch: (_request, response) => send(response, 404, "text/plain", "Not found\n"),
  });
  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://admin.invalid");
    if (request.method !== "GET" && request.method !== "HEAD") {
      send(response, 405, "text/plain", "Only GET and HEAD are answered here\n");
      return;
    }
    switch (url.pathname) {
      case ADMIN_PATH:
        send(response, 200, "text/html; charset=utf-8", await page(options));
        return;
      case `${ADMIN_PATH}config.yml`: {
        let backend: Backend;
        try {
          backend = await options.backend;
        } catch (error) {
          send(response, 503, "text/plain", `The editor's backend did not start: ${(error as Error).message}\n`);
          return;
        }
        const yaml = formConfigYaml({
          contentFolder: basename(contentDir),
          services: services(contentDir),
          backendUrl: backend.url,
          siteUrl: options.baseUrl,
        });
        send(response, 200, "text/yaml; charset=utf-8", yaml);
        return;
      }
      case `${ADMIN_PATH}admin.js`:
        send(response, 200, "text/javascript; charset=utf-8", await adminScript());
        return;
      case NEW_SLUG_PATH: {
        const { status, body } = slugAnswer(contentDir, url.searchParams);
        sendJson(response, status, body);
        return;
      }
    }
    // Decap CMS's bundle and the chunks it loads beside it: the path after /admin/, looked up in its dist/.
    request.url = `/${url.pathname.slice(ADMIN_PATH.length)}`;
    decapFiles(request, response);
  };
}
