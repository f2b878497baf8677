import type { ParameterRule } from "../schemas/parameters.ts";
import { type ApiError, invalidParameter, unknownParameter } from "./errors.ts";

/** The parts of an Ajv error (or a fastify validation error) that decide the answer. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

/**
 * Turns the first schema error for a set of parameters into the error a client sees: an
 * unknown name is `unknown_parameter`, anything else `invalid_parameter` quoting the rule.
 */
export function parameterError(
  errors: readonly SchemaError[],
  rules: Readonly<Record<string, ParameterRule>>,
  allowed: readonly string[],
): ApiError {
  const first = errors[0];
  if (first?.keyword === "additionalProperties") {
    return unknownParameter(String(first.params.additionalProperty ?? ""), allowed);
  }
  const name = first?.keyword === "required" ? String(first.params.missingProperty ?? "") : (first?.instancePath.split("/")[1] ?? "");
  return invalidParameter(decodeURIComponent(name.replace(/~1/g, "/").replace(/~0/g, "~")), rules);
}
