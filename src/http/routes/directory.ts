import type { FastifyInstance } from "fastify";
import type { CatalogService } from "../../core/service.ts";
import { PublicBusinessSchema } from "../../schemas/business.ts";
import { ErrorBodySchema } from "../../schemas/error.ts";
import { DIRECTORY_RULES, DirectoryParamsSchema, type DirectorySearchQuery, DirectorySearchQuerySchema } from "../../schemas/parameters.ts";
import { DirectoryPageSchema } from "../../schemas/responses.ts";
import { readOnlyRoute } from "../read-only.ts";

const errors = { "4xx": ErrorBodySchema, "5xx": ErrorBodySchema };
const NO_QUERY = { type: "object", additionalProperties: false, properties: {} } as const;

/** GET /api/directory and GET /api/directory/{identifier}. */
export function directoryRoutes(app: FastifyInstance, service: CatalogService): void {
  readOnlyRoute(app, {
    url: "/api/directory",
    schema: { querystring: DirectorySearchQuerySchema, response: { 200: DirectoryPageSchema, ...errors } },
    config: { cacheable: true, parameterRules: DIRECTORY_RULES },
    handler: async (request) => service.searchBusinesses(request.query as DirectorySearchQuery),
  });

  readOnlyRoute(app, {
    url: "/api/directory/:identifier",
    schema: { params: DirectoryParamsSchema, querystring: NO_QUERY, response: { 200: PublicBusinessSchema, ...errors } },
    config: { cacheable: true, parameterRules: DIRECTORY_RULES },
    handler: async (request) => service.getBusiness((request.params as { identifier: string }).identifier),
  });
}

export { errors as errorResponses, NO_QUERY };
