/**
 * Whether spans are exported, decided from OpenTelemetry's own environment variables before
 * anything of OpenTelemetry is loaded: src/server.ts imports src/tracing/start.ts, and with it the
 * SDK, only when this says so. The SDK reads the rest of the OTEL_* variables itself.
 */
import { ConfigError } from "../config.ts";

/** The first of `names` set to something other than blanks, with its value. */
function first(env: NodeJS.ProcessEnv, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== "") return { name, value };
  }
  return undefined;
}

/**
 * True when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or
 * OTEL_EXPORTER_OTLP_ENDPOINT, to which the exporter appends /v1/traces), unless OTEL_SDK_DISABLED
 * is true or OTEL_TRACES_EXPORTER is none. Spans go as OTLP/HTTP with JSON bodies, which OTLP/HTTP
 * receivers accept whichever encoding OTEL_EXPORTER_OTLP_PROTOCOL names; a grpc endpoint would
 * not, so that protocol is refused, as is an endpoint that is no http: or https: URL.
 */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = first(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (endpoint === undefined) return false;
  if (first(env, "OTEL_SDK_DISABLED")?.value.toLowerCase() === "true") return false;
  if (first(env, "OTEL_TRACES_EXPORTER")?.value.toLowerCase() === "none") return false;
  const url = URL.canParse(endpoint.value) ? new URL(endpoint.value) : undefined;
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ConfigError(`${endpoint.name} must be an http: or https: URL such as http://collector:4318.`);
  }
  const protocol = first(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL");
  if (protocol?.value === "grpc") throw new ConfigError(`${protocol.name}: spans are sent over OTLP/HTTP, so grpc is not available.`);
  return true;
}
