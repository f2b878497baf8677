import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { READ_METHODS } from "../../api/routes.ts";
import { CACHE_CONTROL_NO_STORE, JSON_TYPE } from "../../contract.ts";
import {
  ApiError,
  internalError,
  malformedRequest,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  requestTooLarge,
} from "../../core/errors.ts";
import { parameterError } from "../../core/validation.ts";
import type { ParameterRules } from "../../schemas/parameters.ts";
import { isApiPath, sendError } from "../error-reply.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The rules quoted when a parameter of this route is invalid. */
    parameterRules?: ParameterRules;
  }
}

/**
 * Answers a request Node could not even parse (oversized headers or URL, malformed HTTP) with
 * the same Error shape as everything else, then closes the connection.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const apiError = tooLarge
    ? requestTooLarge()
    : new ApiError(400, "invalid_parameter", "The request is not valid HTTP.", "Send a well-formed HTTP request.");
  const body = JSON.stringify(apiError.toBody());
  socket.end(
    `HTTP/1.1 ${apiError.status} ${tooLarge ? "Request Header Fields Too Large" : "Bad Request"}\r\n` +
      `content-type: ${JSON_TYPE}\r\ncache-control: ${CACHE_CONTROL_NO_STORE}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation !== undefined) {
    const config = request.routeOptions.config;
    const schema = (request.routeOptions.schema?.[error.validationContext === "params" ? "params" : "querystring"] ?? {}) as {
      properties?: Record<string, unknown>;
    };
    return parameterError(error.validation as never, config.parameterRules ?? {}, Object.keys(schema.properties ?? {}));
  }
  if (error.statusCode === 413) return payloadTooLarge(`${Math.floor(request.routeOptions.bodyLimit / 1024)} KiB`);
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return malformedRequest();
  return internalError();
}

/**
 * Every failure leaves as an Error body with a stable code. Messages come from our own
 * factories only: fastify's and Node's messages (which may quote input or internals) never
 * reach a client, and a 5xx is logged here and answered generically.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request);
    // An ApiError is an answer the service chose (a 503 while no snapshot is loaded is one per
    // request, and said once at start): only a failure nobody foresaw is logged, with its stack.
    if (apiError.status >= 500 && !(error instanceof ApiError)) request.log.error({ err: error }, "request failed");
    return sendError(reply, apiError);
  });
}

export type NotFoundPage = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * Unknown API paths answer a JSON Error; every other unknown path gets `page` (the pages' 404:
 * HTML, or the Markdown recovery page when Markdown is preferred).
 */
export function registerNotFound(app: FastifyInstance, page: NotFoundPage): void {
  app.setNotFoundHandler((request, reply) => {
    // An OPTIONS request that is not a CORS preflight: every path here is read-only.
    if (request.method === "OPTIONS") return sendError(reply, methodNotAllowed(READ_METHODS));
    const path = request.url.split("?", 1)[0] ?? "";
    return isApiPath(path) ? sendError(reply, notFound()) : page(request, reply);
  });
}
