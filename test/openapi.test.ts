import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { openapiDocument } from "../build/openapi.ts";
import { API_VERSION } from "../src/contract.ts";
import { ERROR_CODES } from "../src/schemas/error.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { buildSnapshot, FIXTURES, SAMPLE_CONTENT, TEST_BASE_URL, tempDir } from "./helpers/snapshot.ts";

const run = promisify(execFile);
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

let server: RunningServer;
let dist: string;
let cleanup: () => Promise<void>;
let served: Record<string, unknown>;

before(async () => {
  const work = await tempDir();
  cleanup = work.remove;
  dist = join(work.path, "dist");
  await buildSnapshot(`${FIXTURES}basic`, dist);
  server = await startServer(dist);
  const response = await fetch(`${server.url}/openapi.json`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
  served = (await response.json()) as Record<string, unknown>;
});
after(async () => {
  await server.close();
  await cleanup();
});

test("the served openapi.json passes an OpenAPI 3.1 validator", async () => {
  const result = await validate(structuredClone(served) as never);
  assert.deepEqual(result, { valid: true, warnings: [], specification: "OpenAPI" });
});

test("every component schema compiles under strict JSON Schema 2020-12", () => {
  const ajv = new Ajv2020({ strict: true });
  addFormats(ajv, ["uuid", "uri", "email"]);
  const schemas = (served.components as { schemas: Record<string, object> }).schemas;
  assert.deepEqual(Object.keys(schemas), [
    "DirectoryPage",
    "DirectoryFacets",
    "PublicBusiness",
    "ChangeLine",
    "OfferingList",
    "Offering",
    "Error",
  ]);
  for (const [name, schema] of Object.entries(schemas)) {
    assert.doesNotThrow(() => ajv.compile(schema), name);
  }
});

test("the served document is exactly what the build generates from the schemas, byte for byte as written in dist/", async () => {
  const regenerated = openapiDocument({ baseUrl: TEST_BASE_URL, title: "Fixture Directory", summary: "A tiny directory for tests." });
  assert.deepEqual(served, regenerated);
  assert.equal(await readFile(join(dist, "openapi.json"), "utf8"), `${JSON.stringify(regenerated, null, 2)}\n`);
});

test("declares OpenAPI 3.1.0, description version 1.1.0, a server relative to the document, no security, and the operation ids of interface §7", () => {
  assert.equal(served.openapi, "3.1.0");
  assert.equal((served.info as { version: string }).version, API_VERSION);
  assert.equal(API_VERSION, "1.1.0");
  assert.deepEqual(served.servers, [
    { url: "/", description: `This service (${TEST_BASE_URL} when this document was built), relative to where the document is served.` },
  ]);
  assert.deepEqual(served.security, []);
  const paths = served.paths as Record<string, { get: { operationId: string; responses: Record<string, unknown> } }>;
  assert.deepEqual(
    Object.entries(paths).map(([path, item]) => [path, item.get.operationId, Object.keys(item.get.responses)]),
    [
      ["/api/directory", "searchServiceBusinesses", ["200", "304", "400", "405", "429", "431", "500", "503"]],
      ["/api/facets", "countServiceBusinesses", ["200", "304", "400", "405", "429", "431", "500", "503"]],
      ["/api/directory/{identifier}", "getServiceBusiness", ["200", "304", "400", "404", "405", "429", "431", "500", "503"]],
      ["/api/changes", "listDirectoryChanges", ["200", "304", "400", "405", "410", "429", "431", "500", "503"]],
      ["/api/offerings", "listServiceOfferings", ["200", "304", "400", "405", "429", "431", "500", "503"]],
      ["/api/offerings/{slug}", "getServiceOffering", ["200", "304", "400", "404", "405", "429", "431", "500", "503"]],
    ],
  );
});

test("documents every directory parameter with the constraints the server enforces", () => {
  const paths = served.paths as Record<string, { get: { parameters: { name: string; in: string; schema: Record<string, unknown> }[] } }>;
  const parameters = paths["/api/directory"]?.get.parameters ?? [];
  assert.deepEqual(
    parameters.map(({ name, in: where, schema }) => [
      name,
      where,
      schema.type,
      schema.maxLength ?? null,
      schema.minimum ?? null,
      schema.maximum ?? null,
      schema.default ?? null,
    ]),
    [
      ["q", "query", "string", 120, null, null, null],
      ["location", "query", "string", 80, null, null, null],
      ["country", "query", "string", null, null, null, null],
      ["limit", "query", "integer", null, 1, 25, 10],
      ["offset", "query", "integer", null, 0, 1000, 0],
    ],
  );
  assert.equal(parameters[2]?.schema.pattern, "^[A-Za-z]{2}$");
  // The facets take the search's own filters, the same schemas, and no paging.
  assert.deepEqual(paths["/api/facets"]?.get.parameters, parameters.slice(0, 3));
  const identifier = paths["/api/directory/{identifier}"]?.get.parameters[0]?.schema;
  assert.deepEqual(identifier, { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9][A-Za-z0-9-]*$" });
});

test("lists the stable error codes in the Error schema, and exactly the codes each route answers with per status", () => {
  const document = served as {
    components: { schemas: Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }> };
    paths: Record<
      string,
      {
        get: {
          responses: Record<
            string,
            { content?: { "application/json": { examples?: Record<string, { value: { error: { code: string } } }> } } }
          >;
        };
      }
    >;
  };
  assert.deepEqual(document.components.schemas.Error?.properties.error.properties.code.enum, [...ERROR_CODES]);
  const codes = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item.get.responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([status, response]) => [
            status,
            Object.values(response.content?.["application/json"].examples ?? {}).map((example) => example.value.error.code),
          ]),
      ),
    ]),
  );
  const everyRoute = {
    "405": ["method_not_allowed"],
    "429": ["rate_limited"],
    "431": ["invalid_parameter"],
    "500": ["internal_error"],
    "503": ["rate_limited"],
  };
  assert.deepEqual(codes, {
    "/api/directory": {
      "400": ["invalid_parameter", "unknown_parameter", "repeated_parameter"],
      ...everyRoute,
      "503": ["directory_unavailable", "rate_limited"],
    },
    "/api/facets": {
      "400": ["invalid_parameter", "unknown_parameter", "repeated_parameter"],
      ...everyRoute,
      "503": ["directory_unavailable", "rate_limited"],
    },
    "/api/directory/{identifier}": {
      "400": ["invalid_parameter", "unknown_parameter"],
      "404": ["not_found"],
      ...everyRoute,
      "503": ["directory_unavailable", "rate_limited"],
    },
    "/api/changes": {
      "400": ["invalid_parameter", "repeated_parameter", "unknown_parameter"],
      "410": ["release_unknown"],
      ...everyRoute,
      "503": ["directory_unavailable", "rate_limited"],
    },
    "/api/offerings": { "400": ["invalid_parameter", "unknown_parameter", "repeated_parameter"], ...everyRoute },
    "/api/offerings/{slug}": { "400": ["unknown_parameter", "invalid_parameter"], "404": ["not_found"], ...everyRoute },
  });
});

test("redocly lint with the recommended rules finds no error and no warning in the sample content's openapi.json", async () => {
  const work = await tempDir();
  try {
    // BASE_URL as `npm run build` defaults it: http://localhost:3000.
    await buildSnapshot(SAMPLE_CONTENT, join(work.path, "dist"));
    const redocly = new URL("../node_modules/.bin/redocly", import.meta.url).pathname;
    const { stdout } = await run(redocly, ["lint", "--format=json", join(work.path, "dist", "openapi.json")], {
      cwd: new URL("..", import.meta.url).pathname,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    const report = JSON.parse(stdout) as { totals: Record<string, number>; problems: unknown[] };
    assert.deepEqual(report.problems, []);
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  } finally {
    await work.remove();
  }
});
