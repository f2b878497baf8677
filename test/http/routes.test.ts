import assert from "node:assert/strict";
import { test } from "node:test";
import { readContent } from "../../build/content.ts";
import { deriveModel } from "../../build/derive.ts";
import { validateContent } from "../../build/validate.ts";
import { linkWarnings } from "../../build/warnings.ts";
import { fillPattern, SITE_ROUTES, type SiteRoute } from "../../src/contract.ts";
import { serveContent } from "../helpers/server.ts";
import { FIXTURES, TEST_BASE_URL } from "../helpers/snapshot.ts";

/**
 * The route manifest (SITE_ROUTES in src/contract.ts) is the one list of the site's routes: the
 * server registers exactly its patterns, and the build's link check knows exactly its paths.
 */

const CONTENT = `${FIXTURES}basic`;
const server = serveContent(CONTENT);

/** Every path pattern the app registered for GET, from fastify's route tree (each line a node, nested by four columns). */
function registeredPatterns(tree: string): string[] {
  const patterns: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split("\n")) {
    const node = /^([│ ]*)[└├]── (.+) \(([A-Z, ]+)\)$/.exec(line);
    if (node === null) continue;
    const depth = (node[1] ?? "").length / 4;
    stack.length = depth;
    stack.push(node[2] ?? "");
    if ((node[3] ?? "").split(", ").includes("GET")) patterns.push(stack.join(""));
  }
  return patterns;
}

test("the server registers a route for every pattern of the manifest, and for nothing else", () => {
  const registered = registeredPatterns(server.current.app.printRoutes({ commonPrefix: false }));
  assert.ok(registered.length > 30, `only ${registered.length} routes were read from the route tree`);
  assert.deepEqual([...registered].sort(), SITE_ROUTES.map((route) => route.pattern).sort());
});

/** One path of each route, with parameters the basic fixture has (none for later list pages, index parts and sitemap parts: it has too few listings). */
function examplePath(route: SiteRoute): string | undefined {
  const values: Record<SiteRoute["params"], Record<string, string> | undefined> = {
    fixed: {},
    offering: { slug: "cost-guides" },
    listing: { slug: "joes-handyman", identifier: "joes-handyman" },
    country: { name: "gb", page: "2" },
    service: { name: "handyman", page: "2" },
    "sitemap-part": undefined,
    // A new history's one release has no changes file.
    release: undefined,
  };
  const params = values[route.params];
  return params === undefined || route.pattern.includes(":page") || route.pattern.includes(":part")
    ? undefined
    : fillPattern(route.pattern, params);
}

test("every route leads somewhere on the server, and the build's link check knows it", async () => {
  const validation = validateContent(readContent(CONTENT));
  assert.ok(validation.ok);
  const model = deriveModel(validation.content, TEST_BASE_URL);
  const paths = SITE_ROUTES.map(examplePath).filter((path) => path !== undefined);
  assert.equal(
    paths.length,
    SITE_ROUTES.length - 8,
    "every route but the later list pages, index parts, sitemap parts and changes files has an example",
  );

  const answers: string[] = [];
  for (const path of paths) {
    const response = await fetch(`${server.current.url}${path}`, { redirect: "manual" });
    await response.body?.cancel();
    answers.push(`${path} ${response.status}`);
  }
  assert.deepEqual(
    answers.filter((answer) => answer.endsWith(" 404")),
    [],
    "no example path is unknown to the server",
  );

  const site = { ...validation.content.site, body: paths.map((path) => `- [${path}](${path})`).join("\n") };
  assert.deepEqual(
    linkWarnings(model, [], site).map((warning) => warning.message),
    [],
  );
});
