/**
 * `npm run serve`: compiles the server first when a source is newer than the compiled one
 * (scripts/compile.mjs), then runs it in this same process, where an npm pre-script cost a second
 * Node.js start (about 200 ms of CPU) before the server's own. With WORKERS, the cluster's
 * workers start from this script too, and find the server current.
 */
import { compileIfStale } from "./compile.mjs";

const status = compileIfStale(new URL("..", import.meta.url).pathname);
if (status !== 0) process.exit(status);
// Built from a URL, not a literal path: server/ exists only once compiled.
await import(new URL("../server/server.js", import.meta.url).href);
