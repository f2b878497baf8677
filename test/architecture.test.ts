import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import ts from "typescript";

/**
 * The direction of imports (docs/architecture.md): each part of src/ and build/ may import
 * only the parts listed for it, and the parts' import graph has no cycle.
 */

const ROOT = new URL("../", import.meta.url).pathname;

const BELOW_API = ["src/contract.ts", "src/schemas", "src/snapshot", "src/core"];
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  "src/contract.ts": [],
  "src/config.ts": ["src/contract.ts"],
  "src/schemas": ["src/contract.ts"],
  "src/snapshot": ["src/contract.ts", "src/schemas"],
  "src/core": ["src/contract.ts", "src/schemas", "src/snapshot"],
  "src/api": BELOW_API,
  "src/render": [...BELOW_API, "src/api"],
  "src/mcp": [...BELOW_API, "src/api", "src/render", "src/config.ts"],
  "src/http": [...BELOW_API, "src/api", "src/render", "src/config.ts"],
  "src/metrics.ts": [...BELOW_API],
  "src/application.ts": [...BELOW_API, "src/http", "src/mcp", "src/metrics.ts", "src/config.ts"],
  "src/tracing": [...BELOW_API, "src/api", "src/mcp", "src/config.ts"],
  "src/server.ts": [...BELOW_API, "src/application.ts", "src/metrics.ts", "src/tracing", "src/config.ts"],
  build: [...BELOW_API, "src/api", "src/render", "src/config.ts"],
};

/** The part a file belongs to: `src/<folder>`, a top-level file of src/, or `build`. */
function partOf(file: string): string | undefined {
  const [top, second] = file.split("/");
  if (top === "build") return "build";
  if (top !== "src" || second === undefined) return undefined;
  return `src/${second}`;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

/** Every import between parts: [from part, to part, the importing file]. */
async function crossPartImports(): Promise<[string, string, string][]> {
  const edges: [string, string, string][] = [];
  for (const file of [...(await sourceFiles("src")), ...(await sourceFiles("build"))]) {
    const from = partOf(file);
    const { importedFiles } = ts.preProcessFile(await readFile(join(ROOT, file), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const to = partOf(relative(ROOT, resolve(ROOT, dirname(file), fileName)));
      if (from !== undefined && to !== undefined && from !== to) edges.push([from, to, file]);
    }
  }
  return edges;
}

test("every part of src/ and build/ imports only the parts below it", async () => {
  const edges = await crossPartImports();
  assert.ok(edges.length > 50, `only ${edges.length} imports between parts were found`);
  const parts = new Set([...edges.map(([from]) => from), ...edges.map(([, to]) => to)]);
  assert.deepEqual(
    [...parts].filter((part) => ALLOWED[part] === undefined),
    [],
    "a part the table does not know",
  );
  const wrong = edges.filter(([from, to]) => !ALLOWED[from]?.includes(to)).map(([from, to, file]) => `${file} (${from}) imports ${to}`);
  assert.deepEqual(wrong, []);
});

test("the import graph between folders has no cycle", async () => {
  const graph = new Map<string, Set<string>>();
  for (const [from, to] of await crossPartImports()) {
    const targets = graph.get(from) ?? new Set();
    targets.add(to);
    graph.set(from, targets);
  }
  const done = new Set<string>();
  const cycles: string[] = [];
  const visit = (part: string, path: string[]) => {
    if (path.includes(part)) {
      cycles.push([...path.slice(path.indexOf(part)), part].join(" -> "));
      return;
    }
    if (done.has(part)) return;
    for (const next of graph.get(part) ?? []) visit(next, [...path, part]);
    done.add(part);
  };
  for (const part of graph.keys()) visit(part, []);
  assert.deepEqual(cycles, []);
});

/**
 * The modules a value import of `file` loads (type-only imports and `import()` left out): relative
 * ones as paths from the root, packages by name.
 */
async function valueImports(file: string): Promise<string[]> {
  const source = ts.createSourceFile(file, await readFile(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  const imported: string[] = [];
  for (const statement of source.statements) {
    const declaration = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement : undefined;
    if (declaration?.moduleSpecifier === undefined || !ts.isStringLiteral(declaration.moduleSpecifier)) continue;
    if (ts.isImportDeclaration(declaration) ? declaration.importClause?.isTypeOnly : declaration.isTypeOnly) continue;
    const bindings = ts.isImportDeclaration(declaration) ? declaration.importClause?.namedBindings : declaration.exportClause;
    const named = bindings !== undefined && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)) ? bindings.elements : undefined;
    const onlyTypes = named !== undefined && named.length > 0 && named.every((element) => element.isTypeOnly);
    if (onlyTypes && (!ts.isImportDeclaration(declaration) || declaration.importClause?.name === undefined)) continue;
    const specifier = declaration.moduleSpecifier.text;
    imported.push(specifier.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier);
  }
  return imported;
}

test("the server starts without the packages only the build or a rare MCP method needs", async () => {
  // What src/server.ts loads before it listens: its own imports, the app and the answer cache.
  const start = ["src/server.ts", "src/application.ts", "src/core/answer-cache.ts"];
  const seen = new Set<string>();
  const packages = new Set<string>();
  for (const queue = [...start]; queue.length > 0; ) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const module of await valueImports(file)) {
      if (module.startsWith("src/")) queue.push(module);
      else packages.add(module);
    }
  }
  assert.ok(seen.has("src/render/page-model.ts") && seen.has("src/mcp/server.ts"), "the walk reached the pages and MCP");
  assert.ok(packages.has("fastify"), "the walk found the packages");
  // marked and sanitize-html render editors' Markdown, which only the build does (render/markdown-html.ts);
  // the protocol's schemas are loaded at the first MCP request other than tools/call (mcp/protocol.ts).
  assert.deepEqual(
    ["marked", "sanitize-html", "@modelcontextprotocol/core"].filter((name) => packages.has(name)),
    [],
  );
});

/** Every module a file imports (types too), relative ones as paths from the root, packages by name. */
async function importsOf(file: string): Promise<string[]> {
  const { importedFiles } = ts.preProcessFile(await readFile(join(ROOT, file), "utf8"), true, true);
  return importedFiles.map(({ fileName }) =>
    fileName.startsWith(".") ? relative(ROOT, resolve(ROOT, dirname(file), fileName)) : fileName,
  );
}

test("in src/http the hooks that cut across routes and the routes stay apart: neither imports the other", async () => {
  const crossing: string[] = [];
  for (const [from, other] of [
    ["src/http/hooks", "src/http/routes/"],
    ["src/http/routes", "src/http/hooks/"],
  ] as const) {
    for (const file of await sourceFiles(from)) {
      for (const imported of await importsOf(file)) if (imported.startsWith(other)) crossing.push(`${file} imports ${imported}`);
    }
  }
  assert.deepEqual(crossing, []);
});

test("src/core has no HTTP in it: no HTTP package, and no header named", async () => {
  const http = ["etag", "fresh", "fastify", "negotiator", "helmet", "node:http"];
  const headerName = /["'`](?:content-type|etag|cache-control|retry-after|allow|vary|link|if-none-match)["'`]/i;
  const found: string[] = [];
  for (const file of await sourceFiles("src/core")) {
    for (const imported of await importsOf(file))
      if (http.includes(imported) || imported.startsWith("@fastify/")) found.push(`${file} imports ${imported}`);
    if (headerName.test(await readFile(join(ROOT, file), "utf8"))) found.push(`${file} names a header`);
  }
  assert.deepEqual(found, []);
});

test("src/render only renders: it parses no request and keeps nothing (no validator, no cache, no part of a view)", async () => {
  const found: string[] = [];
  for (const file of await sourceFiles("src/render")) {
    for (const imported of await importsOf(file)) {
      if (["lru-cache", "src/schemas/ajv.ts", "src/snapshot/view.ts", "src/snapshot/rank-cache.ts"].includes(imported)) {
        found.push(`${file} imports ${imported}`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test("nothing derived from a snapshot is kept outside its view: src/ makes no WeakMap keyed by one", async () => {
  const found: string[] = [];
  for (const file of await sourceFiles("src")) if ((await readFile(join(ROOT, file), "utf8")).includes("new WeakMap")) found.push(file);
  assert.deepEqual(found, []);
});
