import { Ajv, type Options } from "ajv";
import addFormatsPlugin from "ajv-formats";

// ajv-formats ships CommonJS whose default export TypeScript sees as the module namespace.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

/**
 * The options and formats of every Ajv instance (the loader's worker threads and fastify's make
 * theirs from these too). Our schemas are constants of the code, so they are checked against the
 * JSON Schema meta-schema once, by test/core/schemas.test.ts, rather than by every instance at
 * every start: compiling the meta-schema took about 240 ms of CPU per instance, with five
 * instances (three in the server, one per listing-check worker) starting at once.
 */
export const AJV_OPTIONS = { strict: true, validateSchema: false } as const satisfies Options;
export const AJV_FORMATS = ["uuid", "uri", "email"] as const;

/**
 * How requests are checked, by fastify (REST) and by the MCP tools alike. Strict parameters
 * (interface §5): unknown ones are errors, never silently dropped; nothing is coerced (REST reads
 * integers from query strings itself, as decimal digits only, where Ajv would read `1e1`, `0x10`
 * or ` 1` as numbers; MCP arguments are JSON, so `"5"` is not a limit); no defaults are filled in
 * (the core applies them); the first error is enough to answer.
 */
export const REQUEST_VALIDATION = {
  removeAdditional: false,
  coerceTypes: false,
  useDefaults: false,
  allErrors: false,
} as const satisfies Options;

/**
 * An Ajv instance with the formats our schemas use (uuid, uri, email). Used by the build's
 * content validation, the snapshot loader and the MCP tools; fastify builds its own, with
 * REQUEST_VALIDATION (see src/http/rest-and-pages.ts).
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(ajv, [...AJV_FORMATS]);
  return ajv;
}
