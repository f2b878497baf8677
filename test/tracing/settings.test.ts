import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError } from "../../src/config.ts";
import { tracingWanted } from "../../src/tracing/settings.ts";

test("tracing is on when either OTLP endpoint variable is set, and off without one", () => {
  assert.equal(tracingWanted({}), false);
  assert.equal(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: " " }), false);
  assert.equal(tracingWanted({ OTEL_SERVICE_NAME: "directory" }), false);
  assert.equal(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }), true);
  assert.equal(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example/v1/traces" }), true);
});

test("OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none turn tracing off despite an endpoint", () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
  assert.equal(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: "true" }), false);
  assert.equal(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: "TRUE" }), false);
  assert.equal(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: "false" }), true);
  assert.equal(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }), false);
  assert.equal(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: "otlp" }), true);
});

test("an endpoint that is no http(s) URL is refused with the variable's name", () => {
  for (const [name, value] of [
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "not a url"],
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://collector/v1/traces"],
  ] as const) {
    assert.throws(
      () => tracingWanted({ [name]: value }),
      (error: unknown) =>
        error instanceof ConfigError && error.message === `config: ${name} must be an http: or https: URL such as http://collector:4318.`,
    );
  }
});

test("the grpc protocol is refused, and the HTTP protocols are accepted", () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4317" };
  assert.throws(
    () => tracingWanted({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message === "config: OTEL_EXPORTER_OTLP_PROTOCOL: spans are sent over OTLP/HTTP, so grpc is not available.",
  );
  assert.equal(tracingWanted({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }), true);
  assert.equal(tracingWanted({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }), true);
  assert.equal(tracingWanted({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }), true);
});
