import type { FastifyInstance } from "fastify";
import {
  CACHE_CONTROL_NO_STORE,
  CLOSING_RETRY_AFTER_SECONDS,
  DIRECTORY_RETRY_AFTER_SECONDS,
  HEALTH_PATH,
  READY_PATH,
} from "../../contract.ts";
import type { ServedView } from "../../snapshot/view.ts";
import { readOnlyRoute } from "./read-only.ts";

/**
 * Health checks for orchestrators and load balancers, exempt from rate limits and load shedding:
 * - `/healthz`: the process is up and answering (200);
 * - `/readyz`: a snapshot is loaded and the server is not shutting down (200, with the snapshot's
 *   version and whether the directory is available); 503 while shutting down, so a load balancer
 *   stops sending new requests while the in-flight ones finish, and 503 (`waiting`) while no
 *   snapshot has loaded yet.
 * Neither is cached, logged at info level, or counted against a client.
 */
export function registerHealth(app: FastifyInstance, served: ServedView): void {
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  const config = { unlimited: true };
  const noStore = { "cache-control": CACHE_CONTROL_NO_STORE };
  readOnlyRoute(app, {
    url: HEALTH_PATH,
    config,
    logLevel: "warn",
    handler: async (_request, reply) => reply.headers(noStore).send({ status: "ok" }),
  });
  readOnlyRoute(app, {
    url: READY_PATH,
    config,
    logLevel: "warn",
    handler: async (_request, reply) => {
      if (closing)
        return reply
          .code(503)
          .headers({ ...noStore, "retry-after": String(CLOSING_RETRY_AFTER_SECONDS) })
          .send({ status: "closing" });
      const view = served.current();
      if (view === null)
        return reply
          .code(503)
          .headers({ ...noStore, "retry-after": String(DIRECTORY_RETRY_AFTER_SECONDS) })
          .send({ status: "waiting", directory: "unavailable" });
      const { snapshot } = view;
      return reply.headers(noStore).send({
        status: "ready",
        version: snapshot.manifest.version,
        builtAt: snapshot.manifest.builtAt,
        directory: snapshot.directoryProblem === null ? "available" : "unavailable",
      });
    },
  });
}
