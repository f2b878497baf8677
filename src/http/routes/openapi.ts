import type { FastifyInstance } from "fastify";
import type { CatalogService } from "../../core/service.ts";
import { documentTag } from "../caching.ts";
import { readOnlyRoute } from "../read-only.ts";

/** GET /openapi.json: the document the build wrote, as it is. */
export function openapiRoute(app: FastifyInstance, service: CatalogService): void {
  readOnlyRoute(app, {
    url: "/openapi.json",
    config: { cacheable: true },
    handler: async (_request, reply) => {
      const snapshot = service.current();
      return reply
        .type("application/json; charset=utf-8")
        .header("etag", documentTag(snapshot, "/openapi.json", snapshot.openapi))
        .send(snapshot.openapi);
    },
  });
}
