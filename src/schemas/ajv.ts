import { Ajv, type Options } from "ajv";
import addFormatsPlugin from "ajv-formats";

// ajv-formats ships CommonJS whose default export TypeScript sees as the module namespace.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

/**
 * An Ajv instance with the formats our schemas use (uuid, uri, email). Used by the build's
 * content validation, the snapshot loader and the MCP tools; fastify builds its own from the
 * same options (see src/http/app.ts).
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ strict: true, ...options });
  addFormats(ajv, ["uuid", "uri", "email"]);
  return ajv;
}
