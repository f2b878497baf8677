import {
  BULK_NDJSON_PATH,
  BUSINESS_API_TEMPLATE,
  CHANGES_API_PATH,
  DIRECTORY_API_PATH,
  DIRECTORY_DEFAULT_LIMIT,
  DIRECTORY_MAX_OFFSET,
  FACET_MAX_VALUES,
  FACETS_API_PATH,
  NDJSON_TYPE,
  OFFERING_API_TEMPLATE,
  OFFERINGS_API_PATH,
  OVERLOAD_RETRY_AFTER_SECONDS,
  RATE_LIMIT_WINDOW_SECONDS,
  RELEASES_KEPT,
  RELEASES_PATH,
} from "../contract.ts";
import {
  type ApiError,
  businessNotFound,
  directoryUnavailable,
  internalError,
  invalidParameter,
  malformedRequest,
  methodNotAllowed,
  offeringNotFound,
  overloaded,
  rateLimited,
  releaseUnknown,
  repeatedParameter,
  requestTooLarge,
  unknownParameter,
} from "../core/errors.ts";
import { PublicBusinessSchema } from "../schemas/business.ts";
import { OfferingSchema } from "../schemas/offering.ts";
import {
  CHANGES_RULES,
  ChangesQuerySchema,
  DIRECTORY_RULES,
  DirectoryFacetsQuerySchema,
  DirectoryParamsSchema,
  DirectorySearchQuerySchema,
  NoParametersSchema,
  OFFERINGS_RULES,
  OfferingParamsSchema,
  OfferingsQuerySchema,
  type ParameterRules,
} from "../schemas/parameters.ts";
import { ChangeLineSchema, DirectoryFacetsSchema, DirectoryPageSchema, OfferingListSchema } from "../schemas/responses.ts";
import { EXAMPLE_BUSINESS, EXAMPLE_CHANGES_HEADER, EXAMPLE_FACETS, EXAMPLE_OFFERING } from "./examples.ts";

/**
 * The REST interface, declared once. src/http/routes/rest.ts registers each route with fastify from
 * this table (validation, serialisation, parameter rules, methods), and build/openapi.ts writes
 * the OpenAPI document from it; the API documentation page lists it. Every route is a GET
 * (HEAD too) with a JSON body.
 */

/** An object-rooted JSON Schema from src/schemas, as an `as const` literal. */
export interface ObjectSchema {
  readonly type: "object";
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
}

/** An error status a route answers with, and one example per error code it carries there. */
export interface ErrorResponse {
  readonly description: string;
  /** The codes documented for this status are exactly these examples' codes. */
  readonly examples: readonly ApiError[];
}

export interface RouteSpec {
  readonly operationId: string;
  /** The OpenAPI path template, such as `/api/directory/{identifier}`. */
  readonly path: string;
  readonly tag: "Directory" | "Offerings";
  readonly summary: string;
  readonly description?: string;
  readonly querystring: ObjectSchema;
  /** The path parameters (NoParametersSchema when the path has none). */
  readonly params: ObjectSchema;
  /** Quoted by a 400's message when a parameter is invalid. */
  readonly rules: ParameterRules;
  readonly response: {
    /** An object's schema; with `mediaType` NDJSON, the schema of each line. */
    readonly schema: { readonly type: "object" };
    /** JSON_TYPE unless given. */
    readonly mediaType?: typeof NDJSON_TYPE;
    /** The schema's name under components/schemas. */
    readonly component: string;
    readonly description: string;
    readonly example: unknown;
  };
  /** The error statuses only this route answers with (see ERRORS_OF_EVERY_ROUTE for the rest). */
  readonly errors: Readonly<Partial<Record<400 | 404 | 410 | 503, ErrorResponse>>>;
}

/** What a read-only route accepts besides GET; every other method is answered 405 with this in `Allow`. */
export const READ_METHODS = "GET, HEAD";

/**
 * The errors every route can answer with, whatever its parameters: another method (405, before
 * routing reads anything), a request line or headers too large for Node to read (431), and an
 * unexpected failure (500, with a generic message).
 */
export const ERRORS_OF_EVERY_ROUTE: Readonly<Record<405 | 429 | 431 | 500, ErrorResponse>> = {
  405: { description: "Method not allowed: this interface is read-only.", examples: [methodNotAllowed(READ_METHODS)] },
  429: { description: "Too many requests from this client in the last minute.", examples: [rateLimited(RATE_LIMIT_WINDOW_SECONDS)] },
  431: { description: "The URL or headers are too large to read.", examples: [requestTooLarge()] },
  500: { description: "Unexpected failure; the message never carries details.", examples: [internalError()] },
};

/** Load shedding: any route may answer 503 while the process is overloaded. */
export const OVERLOAD_503: ErrorResponse = {
  description: "The service is overloaded for a moment.",
  examples: [overloaded(OVERLOAD_RETRY_AFTER_SECONDS)],
};

const directoryParameterNames = Object.keys(DirectorySearchQuerySchema.properties);
const facetsParameterNames = Object.keys(DirectoryFacetsQuerySchema.properties);

export const ROUTES = {
  searchServiceBusinesses: {
    operationId: "searchServiceBusinesses",
    path: DIRECTORY_API_PATH,
    tag: "Directory",
    summary: "Search businesses",
    description:
      "Matches every q term against the start of a word of the listing's name, its service or the service's aliases (plumber for Plumbing), location as a substring of city, region or postal code, and country exactly. Stable alphabetical order by name, ties by slug. Follow nextOffset until it is null. No match is a 200 with empty items.",
    querystring: DirectorySearchQuerySchema,
    params: NoParametersSchema,
    rules: DIRECTORY_RULES,
    response: {
      schema: DirectoryPageSchema,
      component: "DirectoryPage",
      description: "A page of matching listings.",
      example: { items: [EXAMPLE_BUSINESS], limit: DIRECTORY_DEFAULT_LIMIT, offset: 0, nextOffset: DIRECTORY_DEFAULT_LIMIT },
    },
    errors: {
      400: {
        description: "Invalid, unknown or repeated query parameter.",
        examples: [invalidParameter("limit", DIRECTORY_RULES), unknownParameter("page", directoryParameterNames), repeatedParameter("q")],
      },
      503: { description: "Directory data unavailable: not an empty result.", examples: [directoryUnavailable()] },
    },
  },
  countServiceBusinesses: {
    operationId: "countServiceBusinesses",
    path: FACETS_API_PATH,
    tag: "Directory",
    summary: "Count what a search matches",
    description: `Takes the directory search's q, location and country, with the same rules and exactly the same matching, and answers how many listings match in all (total, not limited to the first ${DIRECTORY_MAX_OFFSET}) and, for service, category, country and city, the values of the matching listings with how many have each: by count descending, then value, at most ${FACET_MAX_VALUES} each. Use it to see what exists before paging; narrow the search with a value it gives (q for a service, country, location for a city).`,
    querystring: DirectoryFacetsQuerySchema,
    params: NoParametersSchema,
    rules: DIRECTORY_RULES,
    response: {
      schema: DirectoryFacetsSchema,
      component: "DirectoryFacets",
      description: "The search's total and its counts by service, category, country and city.",
      example: EXAMPLE_FACETS,
    },
    errors: {
      400: {
        description: "Invalid, unknown or repeated query parameter (limit and offset are unknown here).",
        examples: [invalidParameter("country", DIRECTORY_RULES), unknownParameter("limit", facetsParameterNames), repeatedParameter("q")],
      },
      503: { description: "Directory data unavailable: not an empty result.", examples: [directoryUnavailable()] },
    },
  },
  getServiceBusiness: {
    operationId: "getServiceBusiness",
    path: BUSINESS_API_TEMPLATE,
    tag: "Directory",
    summary: "Read a business",
    querystring: NoParametersSchema,
    params: DirectoryParamsSchema,
    rules: DIRECTORY_RULES,
    response: {
      schema: PublicBusinessSchema,
      component: "PublicBusiness",
      description: "One approved public listing.",
      example: EXAMPLE_BUSINESS,
    },
    errors: {
      400: {
        description: "Invalid identifier or request.",
        examples: [invalidParameter("identifier", DIRECTORY_RULES), unknownParameter("q", [])],
      },
      404: { description: "No approved listing has this slug or id.", examples: [businessNotFound()] },
      503: { description: "Directory data unavailable.", examples: [directoryUnavailable()] },
    },
  },
  listDirectoryChanges: {
    operationId: "listDirectoryChanges",
    path: CHANGES_API_PATH,
    tag: "Directory",
    summary: "What changed since a release",
    description: `Keeps a copy of the directory current without downloading it again. Read current from ${RELEASES_PATH} and download ${BULK_NDJSON_PATH} once; then ask for the changes since that version. The answer is NDJSON: a first line {from, to, upserts, removals}, then the net change from release since to release to, at most one line per listing id (its latest state), in id order: {"op":"upsert","business":{...}} for a listing added or changed in any field (a renamed slug keeps its id), {"op":"remove","id":"..."} for one that left the directory. Apply each line to the copy (an upsert replaces or adds the listing with that id; a removal deletes it) and ask next time with since=to. since equal to the current release answers the first line alone. The service keeps the last ${RELEASES_KEPT} releases (${RELEASES_PATH} lists them, each release's own changes at /data/changes/<version>.ndjson); an older since is 410 release_unknown: download the directory again.`,
    querystring: ChangesQuerySchema,
    params: NoParametersSchema,
    rules: CHANGES_RULES,
    response: {
      schema: ChangeLineSchema,
      mediaType: NDJSON_TYPE,
      component: "ChangeLine",
      description: "The net change since that release, one JSON document a line; the example is the first line.",
      example: EXAMPLE_CHANGES_HEADER,
    },
    errors: {
      400: {
        description: "since is missing, repeated or not shaped like a version, or another parameter is given.",
        examples: [invalidParameter("since", CHANGES_RULES), repeatedParameter("since"), unknownParameter("from", ["since"])],
      },
      410: { description: "No release kept has this version: download the directory again.", examples: [releaseUnknown()] },
      503: { description: "Directory data unavailable: not an empty change.", examples: [directoryUnavailable()] },
    },
  },
  listServiceOfferings: {
    operationId: "listServiceOfferings",
    path: OFFERINGS_API_PATH,
    tag: "Offerings",
    summary: "List or search offerings",
    description:
      "Without q, every curated offering in catalog order. With q, every term must match the start of a word in the name, description, audience or features. No pagination.",
    querystring: OfferingsQuerySchema,
    params: NoParametersSchema,
    rules: OFFERINGS_RULES,
    response: {
      schema: OfferingListSchema,
      component: "OfferingList",
      description: "The matching offerings.",
      example: { items: [EXAMPLE_OFFERING], total: 1 },
    },
    errors: {
      400: {
        description: "Invalid query parameters.",
        examples: [invalidParameter("q", OFFERINGS_RULES), unknownParameter("limit", ["q"]), repeatedParameter("q")],
      },
    },
  },
  getServiceOffering: {
    operationId: "getServiceOffering",
    path: OFFERING_API_TEMPLATE,
    tag: "Offerings",
    summary: "Read one offering",
    querystring: NoParametersSchema,
    params: OfferingParamsSchema,
    rules: OFFERINGS_RULES,
    response: {
      schema: OfferingSchema,
      component: "Offering",
      description: "One offering with its access conditions, features, steps, FAQ and guide links.",
      example: EXAMPLE_OFFERING,
    },
    errors: {
      400: {
        description: "Query parameters are not accepted here, or the URL is malformed.",
        examples: [unknownParameter("q", []), malformedRequest()],
      },
      404: { description: "No offering matches the slug.", examples: [offeringNotFound()] },
    },
  },
} as const satisfies Record<string, RouteSpec>;

export type OperationId = keyof typeof ROUTES;

/** The routes in the order the documentation lists them. */
export const ROUTE_LIST: readonly RouteSpec[] = Object.values(ROUTES);
