import { Ajv, type Options } from "ajv";
import addFormatsPlugin from "ajv-formats";

// ajv-formats ships CommonJS whose default export TypeScript sees as the module namespace.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

/** The options and formats of every Ajv instance (the loader's worker threads make theirs from these too). */
export const AJV_OPTIONS = { strict: true } as const satisfies Options;
export const AJV_FORMATS = ["uuid", "uri", "email"] as const;

/**
 * An Ajv instance with the formats our schemas use (uuid, uri, email). Used by the build's
 * content validation, the snapshot loader and the MCP tools; fastify builds its own from the
 * same options (see src/http/app.ts).
 */
export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(ajv, [...AJV_FORMATS]);
  return ajv;
}
