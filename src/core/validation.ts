import type { ParameterRules } from "../schemas/parameters.ts";
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
export function parameterError(errors: readonly SchemaError[], rules: ParameterRules, allowed: readonly string[]): ApiError {
  const first = errors[0];
  if (first?.keyword === "additionalProperties") {
    return unknownParameter(String(first.params.additionalProperty ?? ""), allowed);
  }
  const name = first?.keyword === "required" ? String(first.params.missingProperty ?? "") : (first?.instancePath.split("/")[1] ?? "");
  return invalidParameter(decodeURIComponent(name.replace(/~1/g, "/").replace(/~0/g, "~")), rules);
}

/** A whole number as a query string writes it: decimal digits and nothing else. */
const DECIMAL_DIGITS = /^[0-9]+$/;

/** The query-string parameters a schema declares as integers. */
export function integerParameters(schema: { readonly properties?: Readonly<Record<string, unknown>> }): string[] {
  return Object.entries(schema.properties ?? {})
    .filter(([, property]) => (property as { type?: unknown }).type === "integer")
    .map(([name]) => name);
}

/**
 * Query-string text as the numbers the schema wants: a value of an integer parameter becomes a
 * number only when it is decimal digits (`10`, `010`). Anything else (`1e1`, `0x10`, `+1`,
 * `1.0`, ` 1`, `-0`, `Infinity`) stays text, so the schema rejects it as invalid_parameter,
 * where a general coercion would have read it as some number.
 */
export function coerceIntegers(query: Readonly<Record<string, unknown>>, names: readonly string[]): Record<string, unknown> {
  const coerced: Record<string, unknown> = { ...query };
  for (const name of names) {
    const value = coerced[name];
    if (typeof value === "string" && DECIMAL_DIGITS.test(value)) coerced[name] = Number(value);
  }
  return coerced;
}
