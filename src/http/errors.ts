import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, internalError, malformedRequest, notFound, payloadTooLarge } from "../core/errors.ts";
import { parameterError } from "../core/validation.ts";
import type { ParameterRule } from "../schemas/parameters.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The rules quoted when a parameter of this route is invalid. */
    parameterRules?: Readonly<Record<string, ParameterRule>>;
  }
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).headers(error.headers).send(error.toBody());
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
    if (apiError.status >= 500) request.log.error({ err: error }, "request failed");
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((_request, reply) => sendError(reply, notFound()));
}
