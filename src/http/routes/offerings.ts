import type { FastifyInstance } from "fastify";
import type { CatalogService } from "../../core/service.ts";
import { OfferingSchema } from "../../schemas/offering.ts";
import { OFFERINGS_RULES, OfferingParamsSchema, type OfferingsQuery, OfferingsQuerySchema } from "../../schemas/parameters.ts";
import { OfferingListSchema } from "../../schemas/responses.ts";
import { readOnlyRoute } from "../read-only.ts";
import { errorResponses, NO_QUERY } from "./directory.ts";

/** GET /api/offerings and GET /api/offerings/{slug}. */
export function offeringRoutes(app: FastifyInstance, service: CatalogService): void {
  readOnlyRoute(app, {
    url: "/api/offerings",
    schema: { querystring: OfferingsQuerySchema, response: { 200: OfferingListSchema, ...errorResponses } },
    config: { cacheable: true, parameterRules: OFFERINGS_RULES },
    handler: async (request) => service.searchOfferings((request.query as OfferingsQuery).q),
  });

  readOnlyRoute(app, {
    url: "/api/offerings/:slug",
    schema: { params: OfferingParamsSchema, querystring: NO_QUERY, response: { 200: OfferingSchema, ...errorResponses } },
    config: { cacheable: true, parameterRules: OFFERINGS_RULES },
    handler: async (request) => service.getOffering((request.params as { slug: string }).slug),
  });
}
