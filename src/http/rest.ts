import type { JsonSchemaToTsProvider } from "@fastify/type-provider-json-schema-to-ts";
import type { FastifyInstance, FastifyReply, preValidationHookHandler } from "fastify";
import { ROUTES, type RouteSpec } from "../api/routes.ts";
import { fastifyPattern, JSON_TYPE, OPENAPI_PATH } from "../contract.ts";
import type { Answer } from "../core/answer.ts";
import { repeatedParameter } from "../core/errors.ts";
import type { CatalogService } from "../core/service.ts";
import { coerceIntegers, integerParameters } from "../core/validation.ts";
import { ErrorBodySchema } from "../schemas/error.ts";
import { snapshotDocument } from "./caching.ts";
import { readOnlyRoute, rejectOtherMethods } from "./read-only.ts";

/** Request types come from the route schemas; defaults are applied by the core, so defaulted parameters stay optional. */
type TypeProvider = JsonSchemaToTsProvider<{ ValidatorSchemaOptions: { keepDefaultedPropertiesOptional: true } }>;

/**
 * Before validation: a parameter given twice (fastify makes it an array) is answered with its
 * own code, and integer parameters become numbers only when they are decimal digits.
 */
function queryRules(spec: RouteSpec): preValidationHookHandler {
  const known = spec.querystring.properties;
  const integers = integerParameters(spec.querystring);
  return async (request) => {
    const query = request.query as Record<string, unknown>;
    let integerGiven = false;
    for (const name in query) {
      const value = query[name];
      if (typeof value === "string") {
        if (!integerGiven && integers.includes(name)) integerGiven = true;
      } else if (Array.isArray(value) && Object.hasOwn(known, name)) {
        throw repeatedParameter(name);
      }
    }
    // Most searches give no integer: the query is then validated as it was parsed, not copied.
    if (integerGiven) request.query = coerceIntegers(query, integers);
  };
}

/**
 * fastify's options for a route of the table: its URL, schemas (validation, and serialisation of
 * error bodies), the rules its 400s quote, caching, and the query rules above. The schemas keep
 * their literal types, so the type provider types each handler's request.
 */
function routeOptions<const Spec extends RouteSpec>(spec: Spec) {
  return {
    method: "GET",
    url: fastifyPattern(spec.path),
    schema: {
      querystring: spec.querystring as Spec["querystring"],
      params: spec.params as Spec["params"],
      response: { 200: spec.response.schema as Spec["response"]["schema"], "4xx": ErrorBodySchema, "5xx": ErrorBodySchema },
    },
    config: { cacheable: true, parameterRules: spec.rules },
    preValidation: queryRules(spec),
  } as const;
}

/** Sends an answer as it was serialised, with its entity tag. */
function send(reply: FastifyReply, answer: Answer<unknown>): FastifyReply {
  return reply.header("etag", answer.etag).type(JSON_TYPE).send(answer.body);
}

/** The REST routes of src/api/routes.ts (each also answers 405 for other methods), and /openapi.json. */
export function restRoutes(app: FastifyInstance, service: CatalogService): void {
  const typed = app.withTypeProvider<TypeProvider>();

  typed.route({
    ...routeOptions(ROUTES.searchServiceBusinesses),
    handler: async (request, reply) => send(reply, service.searchBusinesses(request.query)),
  });
  typed.route({
    ...routeOptions(ROUTES.countServiceBusinesses),
    handler: async (request, reply) => send(reply, service.directoryFacets(request.query)),
  });
  typed.route({
    ...routeOptions(ROUTES.getServiceBusiness),
    handler: async (request, reply) => send(reply, service.getBusiness(request.params.identifier)),
  });
  typed.route({
    ...routeOptions(ROUTES.listServiceOfferings),
    handler: async (request, reply) => send(reply, service.searchOfferings(request.query.q)),
  });
  typed.route({
    ...routeOptions(ROUTES.getServiceOffering),
    handler: async (request, reply) => send(reply, service.getOffering(request.params.slug)),
  });
  for (const spec of Object.values(ROUTES)) rejectOtherMethods(app, fastifyPattern(spec.path));

  readOnlyRoute(app, {
    url: OPENAPI_PATH,
    config: { cacheable: true },
    handler: async (_request, reply) => {
      const snapshot = service.current();
      const document = snapshotDocument(snapshot, OPENAPI_PATH, () => snapshot.openapi);
      return document === undefined ? reply.callNotFound() : reply.header("etag", document.etag).type(JSON_TYPE).send(document.body);
    },
  });
}
