import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import { API_VERSION, openapiDocument } from "../build/openapi.ts";
import { ERROR_CODES } from "../src/schemas/error.ts";
import { type RunningServer, startServer } from "./helpers/server.ts";
import { buildSnapshot, FIXTURES, TEST_BASE_URL, tempDir } from "./helpers/snapshot.ts";

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
    "PublicBusiness",
    "Location",
    "Offering",
    "Feature",
    "Question",
    "DirectoryPage",
    "OfferingList",
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

test("declares OpenAPI 3.1.0, description version 1.1.0, the server and the spec's operation ids", () => {
  assert.equal(served.openapi, "3.1.0");
  assert.equal((served.info as { version: string }).version, API_VERSION);
  assert.equal(API_VERSION, "1.1.0");
  assert.deepEqual(served.servers, [{ url: TEST_BASE_URL }]);
  const paths = served.paths as Record<string, { get: { operationId: string; responses: Record<string, unknown> } }>;
  assert.deepEqual(
    Object.entries(paths).map(([path, item]) => [path, item.get.operationId, Object.keys(item.get.responses)]),
    [
      ["/api/directory", "searchServiceBusinesses", ["200", "304", "400", "405", "429", "431", "500", "503"]],
      ["/api/directory/{identifier}", "getServiceBusiness", ["200", "304", "400", "404", "405", "429", "431", "500", "503"]],
      ["/api/offerings", "listServiceOfferings", ["200", "304", "400", "405", "429", "431", "500"]],
      ["/api/offerings/{slug}", "getServiceOffering", ["200", "304", "400", "404", "405", "429", "431", "500"]],
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
  const identifier = paths["/api/directory/{identifier}"]?.get.parameters[0]?.schema;
  assert.deepEqual(identifier, { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9][A-Za-z0-9-]*$" });
});

test("lists every error code in the Error schema and every example matches it", () => {
  const schemas = (
    served.components as { schemas: Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }> }
  ).schemas;
  assert.deepEqual(schemas.Error?.properties.error.properties.code.enum, [...ERROR_CODES]);
  const text = JSON.stringify(served.paths);
  for (const code of ERROR_CODES.filter((c) => !["not_acceptable", "payload_too_large"].includes(c))) {
    assert.ok(text.includes(`"code":"${code}"`), `no example of ${code}`);
  }
});
