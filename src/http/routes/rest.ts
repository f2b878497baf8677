import type { JsonSchemaToTsProvider } from "@fastify/type-provider-json-schema-to-ts";
import type { FastifyInstance, preValidationHookHandler } from "fastify";
import { ROUTES, type RouteSpec } from "../../api/routes.ts";
import { fastifyPattern, JSON_TYPE, OPENAPI_PATH } from "../../contract.ts";
import type { Answer } from "../../core/answer.ts";
import { type AnswerCache, kept } from "../../core/answer-cache.ts";
import { business, directoryFacets, directoryPage, offering, offeringList, pageSearch } from "../../core/answers.ts";
import { directorySearchKey, type NormalizedSearch, normalizeSearch } from "../../core/directory.ts";
import { repeatedParameter } from "../../core/errors.ts";
import { servedView } from "../../core/served.ts";
import { coerceIntegers, integerParameters } from "../../core/validation.ts";
import { ErrorBodySchema } from "../../schemas/error.ts";
import type { Part, ServedView, SnapshotView } from "../../snapshot/view.ts";
import { snapshotDocument } from "../documents.ts";
import { documentFile, hashedTag, jsonKept, keyedTag, sendKept, versionTag } from "../kept.ts";
import { readOnlyRoute, rejectOtherMethods } from "./read-only.ts";
import { sendChanges } from "./releases.ts";

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

/**
 * The catalog's answers as they are sent, each tagged (its body hashed) once per view. They are
 * made once per view too (src/core/answers.ts), so the map holds at most those; it starts afresh
 * past a bound, should the offering lists kept there have been made again.
 */
const CATALOG_KEPT: Part<Map<Answer<unknown>, ReturnType<typeof jsonKept>>> = { name: "catalog answers sent", make: () => new Map() };
const CATALOG_KEPT_MAX = 256;

function catalogKept(view: SnapshotView, answer: Answer<unknown>): ReturnType<typeof jsonKept> {
  const sent = view.get(CATALOG_KEPT);
  let found = sent.get(answer);
  if (found === undefined) {
    found = jsonKept(answer.body, hashedTag(answer.body));
    if (sent.size >= CATALOG_KEPT_MAX) sent.clear();
    sent.set(answer, found);
  }
  return found;
}

/**
 * The REST routes of src/api/routes.ts (each also answers 405 for other methods), and
 * /openapi.json: each handler parses (the route's schema), asks the core, and sends what it
 * answered as it is kept. A search and its facets are kept in the view's answer cache (`answers`)
 * under their normalised search; a listing and the catalog's answers are the view's own bytes.
 */
export function restRoutes(app: FastifyInstance, served: ServedView, answers: Part<AnswerCache | null>): void {
  const typed = app.withTypeProvider<TypeProvider>();

  /** A search's answer of `kind` (its tag's mark), kept in the view's answer cache under the search's key. */
  const searchAnswer = (view: SnapshotView, kind: "search" | "facets", search: NormalizedSearch, make: () => Answer<unknown>) => {
    const key = directorySearchKey(search);
    return kept(view.get(answers), `json ${kind} ${key}`, () => jsonKept(make().body, keyedTag(view, kind === "search" ? "" : "f", key)));
  };
  typed.route({
    ...routeOptions(ROUTES.searchServiceBusinesses),
    handler: async (request, reply) => {
      const view = servedView(served);
      const search = pageSearch(request.query);
      return sendKept(
        reply,
        searchAnswer(view, "search", search, () => directoryPage(view, search)),
      );
    },
  });
  typed.route({
    ...routeOptions(ROUTES.countServiceBusinesses),
    handler: async (request, reply) => {
      const view = servedView(served);
      const search = normalizeSearch({ ...request.query, limit: 1, offset: 0 });
      return sendKept(
        reply,
        searchAnswer(view, "facets", search, () => directoryFacets(view, search)),
      );
    },
  });
  typed.route({
    ...routeOptions(ROUTES.getServiceBusiness),
    handler: async (request, reply) => {
      const view = servedView(served);
      const found = business(view, request.params.identifier);
      return sendKept(reply, jsonKept(found.answer.body, versionTag(view, `l${found.rank}`)));
    },
  });
  typed.route({
    ...routeOptions(ROUTES.listDirectoryChanges),
    handler: async (request, reply) => sendChanges(servedView(served), answers, request.query.since, reply),
  });
  typed.route({
    ...routeOptions(ROUTES.listServiceOfferings),
    handler: async (request, reply) => {
      const view = servedView(served);
      return sendKept(reply, catalogKept(view, offeringList(view, request.query.q)));
    },
  });
  typed.route({
    ...routeOptions(ROUTES.getServiceOffering),
    handler: async (request, reply) => {
      const view = servedView(served);
      return sendKept(reply, catalogKept(view, offering(view, request.params.slug)));
    },
  });
  for (const spec of Object.values(ROUTES)) rejectOtherMethods(app, fastifyPattern(spec.path));

  readOnlyRoute(app, {
    url: OPENAPI_PATH,
    config: { cacheable: true },
    handler: async (_request, reply) => {
      const view = servedView(served);
      const document = snapshotDocument(view, OPENAPI_PATH, () => view.snapshot.openapi);
      return document === undefined ? reply.callNotFound() : sendKept(reply, documentFile(document, JSON_TYPE));
    },
  });
}
