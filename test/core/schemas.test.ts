import assert from "node:assert/strict";
import { test } from "node:test";
import { Ajv, type AnySchema } from "ajv";
import { ROUTE_LIST } from "../../src/api/routes.ts";
import { TOOLS } from "../../src/api/tools/index.ts";
import { AJV_OPTIONS } from "../../src/schemas/ajv.ts";
import * as business from "../../src/schemas/business.ts";
import * as content from "../../src/schemas/content.ts";
import * as error from "../../src/schemas/error.ts";
import * as offering from "../../src/schemas/offering.ts";
import * as parameters from "../../src/schemas/parameters.ts";
import * as responses from "../../src/schemas/responses.ts";

/** Ajv's own check of a schema against the JSON Schema meta-schema, which AJV_OPTIONS turns off. */
const meta = new Ajv({ strict: true });
const problemsOf = (schema: AnySchema) => (meta.validateSchema(schema) ? null : meta.errorsText(meta.errors));

/** Every schema the service compiles: the modules' exported schemas, the routes' and the tools' arguments. */
const SCHEMAS: [name: string, schema: AnySchema][] = [
  ...Object.entries({ ...business, ...content, ...error, ...offering, ...parameters, ...responses }).filter(
    ([name, value]) => name.endsWith("Schema") && typeof value === "object",
  ),
  ...ROUTE_LIST.flatMap((route) => [
    [`${route.operationId} query`, route.querystring],
    [`${route.operationId} parameters`, route.params],
  ]),
  ...TOOLS.map((tool): [string, AnySchema] => [`${tool.name} arguments`, tool.inputSchema]),
] as [string, AnySchema][];

test("the service's Ajv instances skip the meta-schema check, which this file makes once", () => {
  assert.equal(AJV_OPTIONS.validateSchema, false);
});

test("the meta-schema check refuses a schema with a keyword of the wrong type", () => {
  assert.equal(problemsOf({ type: "string", minLength: "3" }), "data/minLength must be integer");
});

test("every schema the service compiles is valid JSON Schema", () => {
  assert.ok(SCHEMAS.length >= 20, `${SCHEMAS.length} schemas found`);
  assert.deepEqual(
    SCHEMAS.flatMap(([name, schema]) => {
      const problems = problemsOf(schema);
      return problems === null ? [] : [`${name}: ${problems}`];
    }),
    [],
  );
});
