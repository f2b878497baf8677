import { after, before } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApplication } from "../../src/application.ts";
import { type Config, readConfig } from "../../src/config.ts";
import { AnswerCacheStats } from "../../src/core/answer-cache.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import type { Snapshot } from "../../src/snapshot/types.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
import { OpenApiValidator } from "./openapi.ts";
import { buildSnapshot, TEST_BASE_URL, tempDir } from "./snapshot.ts";

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234, without a trailing slash. */
  url: string;
  app: FastifyInstance;
  /** The snapshot it serves. */
  snapshot: Snapshot;
  /** Its answer cache's counts. */
  answerStats: AnswerCacheStats;
  config: Config;
  close: () => Promise<void>;
}

/**
 * Loads the snapshot in `distDir` and serves it on 127.0.0.1 on a free port, as src/server.ts
 * does. `env` overrides configuration variables (interface §1).
 */
export async function startServer(distDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  // Rate limiting is off unless a test turns it on: tests send many requests from one address.
  const config = readConfig({ BASE_URL: TEST_BASE_URL, CACHE_SECONDS: "60", RATE_LIMIT_MAX: "0", ...env, DIST_DIR: distDir });
  const snapshot = await loadSnapshot(distDir, { listingsInMemoryBytes: config.listingsInMemoryBytes });
  const view = new SnapshotView(snapshot);
  const answerStats = new AnswerCacheStats();
  const app = await buildApplication({ served: { current: () => view }, config, answerStats });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("server has no TCP address");
  return { url: `http://127.0.0.1:${address.port}`, app, snapshot, answerStats, config, close: () => app.close() };
}

/** The headers of a response as a plain object, without the ones that change per request. */
export function stableHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive"].includes(name)) headers[name] = value;
  });
  return headers;
}

/**
 * Builds `contentDir` into a temporary dist/ and serves it for the tests of the enclosing file
 * or suite (registers node:test before/after hooks), with a validator for the OpenAPI document
 * it serves. Read `.current`, `.openapi` and `.dist` (the built folder) inside tests.
 */
export function serveContent(
  contentDir: string,
  env: Record<string, string> = {},
): { current: RunningServer; openapi: OpenApiValidator; dist: string } {
  const handle = {} as { current: RunningServer; openapi: OpenApiValidator; dist: string };
  let remove: () => Promise<void> = async () => {};
  before(async () => {
    const work = await tempDir();
    remove = work.remove;
    handle.dist = `${work.path}/dist`;
    await buildSnapshot(contentDir, handle.dist);
    handle.current = await startServer(handle.dist, env);
    handle.openapi = await OpenApiValidator.fetch(handle.current.url);
  });
  after(async () => {
    await handle.current?.close();
    await remove();
  });
  return handle;
}
