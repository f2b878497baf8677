/**
 * Loaded into a server process with NODE_OPTIONS=--import=<this file>: records the URL of every
 * module the process imports, one a line, in the file MODULE_LOG names, so that a test can tell
 * which packages were loaded. Modules that CommonJS code require()s are not seen, but the
 * package that did so is.
 */
import { register } from "node:module";

register("./module-log-hooks.mjs", import.meta.url, { data: { file: process.env.MODULE_LOG } });
