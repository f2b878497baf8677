import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> }>;
}
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/**
 * Validates response bodies against the OpenAPI document the server itself serves, so the
 * document and the behaviour cannot drift apart.
 */
export class OpenApiValidator {
  readonly #document: OpenApi;
  readonly #ajv: Ajv2020;

  private constructor(document: OpenApi) {
    this.#document = document;
    // The whole document is added so that response schemas resolve their $refs; its non-schema
    // parts (openapi, info, paths...) are not keywords, so strict mode is off here. The schemas
    // themselves are compiled strictly by the build and the server.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv, ["uuid", "uri", "email"]);
    this.#ajv.addSchema(document as object, "openapi.json");
  }

  /** A validator of the document in `text` (e.g. a snapshot's openapi.json), without a request to the server. */
  static of(text: string): OpenApiValidator {
    return new OpenApiValidator(JSON.parse(text) as OpenApi);
  }

  static async fetch(baseUrl: string): Promise<OpenApiValidator> {
    const response = await fetch(`${baseUrl}/openapi.json`);
    assert.equal(response.status, 200);
    return new OpenApiValidator((await response.json()) as OpenApi);
  }

  /**
   * Asserts `body` is what the document promises for the concrete `url` (e.g.
   * /api/directory/some-slug?limit=1) and `status`; an Error body on a path the document does
   * not describe must still match its Error schema.
   */
  assertResponse(url: string, status: number, body: unknown): void {
    const path = new URL(url, "http://x").pathname;
    const template = Object.keys(this.#document.paths).find((candidate) =>
      new RegExp(`^${candidate.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
    );
    if (template !== undefined) {
      this.assertBody(template, status, body);
      return;
    }
    assert.ok(status >= 400, `openapi.json describes no path matching ${path}`);
    const validate = this.#ajv.getSchema("openapi.json#/components/schemas/Error");
    assert.ok(validate?.(body), `${status} body for ${path} is not an Error: ${this.#ajv.errorsText(validate?.errors)}`);
  }

  /** Asserts `body` is what the document promises for `path` (a template such as /api/directory/{identifier}) and `status`. */
  assertBody(path: string, status: number, body: unknown): void {
    const operation = this.#document.paths[path]?.get;
    assert.ok(operation, `openapi.json has no GET ${path}`);
    const response = operation.responses[String(status)];
    assert.ok(response, `openapi.json has no ${status} response for GET ${path}`);
    const pointer = `openapi.json#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/get/responses/${status}/content/application~1json/schema`;
    const validate = this.#ajv.getSchema(pointer);
    assert.ok(validate, `no schema at ${pointer}`);
    assert.ok(validate(body), `GET ${path} ${status} body does not match openapi.json: ${this.#ajv.errorsText(validate.errors)}`);
    if (status >= 400) {
      // Each error response documents exactly the codes it carries, one example each.
      const examples = Object.values(response.content?.["application/json"]?.examples ?? {});
      const documented = examples.map((example) => (example.value as { error: { code: string } }).error.code);
      const code = (body as { error: { code: string } }).error.code;
      assert.ok(
        documented.includes(code),
        `GET ${path} ${status} answered ${code}, but openapi.json documents only ${documented.join(", ")}`,
      );
    }
  }

  /** Asserts `value` is valid by the document's component schema `name` (a line of an NDJSON answer, say). */
  assertComponent(name: string, value: unknown): void {
    const validate = this.#ajv.getSchema(`openapi.json#/components/schemas/${name}`);
    assert.ok(validate, `openapi.json has no component ${name}`);
    assert.ok(validate(value), `${JSON.stringify(value).slice(0, 200)} is not a ${name}: ${this.#ajv.errorsText(validate.errors)}`);
  }
}
