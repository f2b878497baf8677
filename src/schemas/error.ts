import type { FromSchema } from "json-schema-to-ts";

/** Every `error.code` the service can answer with (interface §5). */
export const ERROR_CODES = [
  "invalid_parameter",
  "unknown_parameter",
  "repeated_parameter",
  "not_found",
  "release_unknown",
  "method_not_allowed",
  "not_acceptable",
  "payload_too_large",
  "directory_unavailable",
  "rate_limited",
  "internal_error",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["error"],
  properties: {
    error: {
      type: "object",
      additionalProperties: false,
      required: ["code", "message", "resolution"],
      properties: {
        code: {
          type: "string",
          enum: ERROR_CODES,
          description: "One of the stable error codes; each error response of the REST API documents the codes it carries.",
        },
        message: { type: "string", description: "What was wrong." },
        resolution: { type: "string", description: "A hint for recovery: what to do instead." },
      },
    },
  },
} as const;

export type ErrorBody = FromSchema<typeof ErrorBodySchema>;
