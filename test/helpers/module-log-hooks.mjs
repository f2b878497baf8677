/** The loader hooks of module-log.mjs: they run on the loader's own thread. */
import { appendFileSync } from "node:fs";

/** @type {string} */
let file = "";

/** @param {{ file: string }} data */
export function initialize(data) {
  file = data.file;
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
