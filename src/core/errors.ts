import {
  BULK_JSON_PATH,
  BULK_NDJSON_PATH,
  BUSINESS_API_TEMPLATE,
  CHANGES_API_PATH,
  DIRECTORY_API_PATH,
  DIRECTORY_RETRY_AFTER_SECONDS,
  FACETS_API_PATH,
  MCP_PATH,
  OFFERING_API_TEMPLATE,
  OFFERINGS_API_PATH,
  OPENAPI_PATH,
  RELEASES_KEPT,
  RELEASES_PATH,
} from "../contract.ts";
import type { ErrorBody, ErrorCode } from "../schemas/error.ts";
import type { ParameterRules } from "../schemas/parameters.ts";

/** What an error's answer says besides its body: when to retry (Retry-After), and which methods a path takes (Allow). */
interface ErrorFacts {
  readonly retryAfterSeconds?: number;
  readonly allow?: string;
}

/**
 * A failure the client can act on. REST sends it as an Error body with `status`; MCP sends the
 * same body as an `isError` tool result. `status` follows HTTP because both speak of it; the
 * headers that carry its facts are written by src/api/error-headers.ts.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly resolution: string;
  readonly facts: ErrorFacts;

  constructor(status: number, code: ErrorCode, message: string, resolution: string, facts: ErrorFacts = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.resolution = resolution;
    this.facts = facts;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, resolution: this.resolution } };
  }
}

/** A parameter name from the client is echoed only when it is plainly harmless. */
export function describeName(name: string): string {
  return /^[A-Za-z0-9_.-]{1,40}$/.test(name) ? `'${name}'` : "with an unsupported name";
}

export function invalidParameter(name: string, rules: ParameterRules): ApiError {
  const rule = rules[name];
  return new ApiError(
    400,
    "invalid_parameter",
    `Parameter ${describeName(name)} is invalid: it must be ${rule?.rule ?? "a valid value"}.`,
    rule?.resolution ?? "Correct the parameter and try again.",
  );
}

export function unknownParameter(name: string, allowed: readonly string[]): ApiError {
  const accepted = allowed.length > 0 ? `accepted parameters: ${allowed.join(", ")}` : "it takes no parameters";
  return new ApiError(
    400,
    "unknown_parameter",
    `Parameter ${describeName(name)} is not supported here; ${accepted}.`,
    "Remove the unknown parameter and send only the accepted ones.",
  );
}

export function repeatedParameter(name: string): ApiError {
  return new ApiError(
    400,
    "repeated_parameter",
    `Parameter ${describeName(name)} appears more than once.`,
    "Send each parameter at most once.",
  );
}

export function businessNotFound(): ApiError {
  return new ApiError(
    404,
    "not_found",
    "No approved public listing has this slug or id.",
    `Search the directory (GET ${DIRECTORY_API_PATH}?q=...) and use the slug or id of a listing it returns.`,
  );
}

export function offeringNotFound(): ApiError {
  return new ApiError(
    404,
    "not_found",
    "No offering has this slug.",
    `List the offerings (GET ${OFFERINGS_API_PATH}) and use the exact slug of one of them.`,
  );
}

/** `since` names no release the history keeps: too old, or from another directory. */
export function releaseUnknown(): ApiError {
  return new ApiError(
    410,
    "release_unknown",
    `Parameter 'since' names no release this service keeps: it keeps the last ${RELEASES_KEPT} releases.`,
    `Read current from ${RELEASES_PATH}, then download the whole directory from ${BULK_NDJSON_PATH}, and from then on ask for the changes since that current version.`,
  );
}

export function directoryUnavailable(): ApiError {
  return new ApiError(
    503,
    "directory_unavailable",
    "The directory data is unavailable right now. This is not an empty result.",
    `Wait ${DIRECTORY_RETRY_AFTER_SECONDS} seconds and retry; the offerings catalog still works meanwhile.`,
    { retryAfterSeconds: DIRECTORY_RETRY_AFTER_SECONDS },
  );
}

/** No snapshot has been loaded yet: the server started before the first build landed. */
export function snapshotUnavailable(): ApiError {
  return new ApiError(
    503,
    "directory_unavailable",
    "The service is starting and has no data to answer from yet. This is not an empty result.",
    `Wait ${DIRECTORY_RETRY_AFTER_SECONDS} seconds and retry.`,
    { retryAfterSeconds: DIRECTORY_RETRY_AFTER_SECONDS },
  );
}

export function methodNotAllowed(allow: string): ApiError {
  return new ApiError(
    405,
    "method_not_allowed",
    `This method is not supported here: the interface is read-only. Use ${allow.replace(", ", " or ")}.`,
    `Send a ${allow.replace(", ", " or ")} request; nothing can be created, changed or deleted through this interface.`,
    { allow },
  );
}

/** An unknown path under the API; `trailingSlash` when it is a known one with a slash after it (API paths never redirect). */
export function notFound(trailingSlash = false): ApiError {
  const endpoints = `See ${OPENAPI_PATH} for the endpoints: ${DIRECTORY_API_PATH}, ${BUSINESS_API_TEMPLATE}, ${FACETS_API_PATH}, ${CHANGES_API_PATH}, ${OFFERINGS_API_PATH}, ${OFFERING_API_TEMPLATE} and POST ${MCP_PATH}.`;
  return trailingSlash
    ? new ApiError(
        404,
        "not_found",
        "There is no API endpoint at this path: API paths never end in a slash.",
        `Remove the trailing slash. ${endpoints}`,
      )
    : new ApiError(404, "not_found", "There is no API endpoint at this path.", endpoints);
}

export function payloadTooLarge(limit: string): ApiError {
  return new ApiError(413, "payload_too_large", `The request body is larger than ${limit}.`, `Send at most ${limit}.`);
}

export function requestTooLarge(): ApiError {
  return new ApiError(
    431,
    "invalid_parameter",
    "The request's URL or headers are too large.",
    "Send a shorter URL: search parameters are at most a few hundred characters.",
  );
}

export function malformedRequest(): ApiError {
  return new ApiError(400, "invalid_parameter", "The request is malformed.", "Send a plain GET request with valid query parameters.");
}

export function internalError(): ApiError {
  return new ApiError(
    500,
    "internal_error",
    "The service failed unexpectedly while answering this request.",
    "Retry later; if it keeps failing, tell the operators via the contact page.",
  );
}

export function rateLimited(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    "rate_limited",
    "Too many requests from this client in the last minute.",
    `Wait ${retryAfterSeconds} seconds (Retry-After) before retrying, cache answers for at least a minute, and use ${BULK_JSON_PATH} for bulk reads.`,
    { retryAfterSeconds },
  );
}

/** The refusals made before a request is answered: over the client's rate limit (429), or load shed (503). */
export type Refusal = "rate_limited" | "overloaded";

export function overloaded(retryAfterSeconds: number): ApiError {
  return new ApiError(
    503,
    "rate_limited",
    "The service is under heavy load and is turning requests away for a moment.",
    `Wait ${retryAfterSeconds} seconds (Retry-After) and retry.`,
    { retryAfterSeconds },
  );
}
