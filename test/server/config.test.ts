import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, readConfig } from "../../src/config.ts";

test("the stale times default to a minute while revalidating and a day on error", () => {
  const config = readConfig({});
  assert.equal(config.staleWhileRevalidateSeconds, 60);
  assert.equal(config.staleIfErrorSeconds, 86_400);
});

test("a stale time that is not a whole number of seconds is refused with the variable's name", () => {
  for (const value of ["-1", "1.5", "a day", "31536001"]) {
    assert.throws(
      () => readConfig({ STALE_IF_ERROR_SECONDS: value }),
      (error: unknown) =>
        error instanceof ConfigError && error.message === "config: STALE_IF_ERROR_SECONDS must be a whole number from 0 to 31536000.",
    );
  }
});

test("the forms each variable documents are accepted", () => {
  const config = readConfig({
    HOST: "::",
    LOG_LEVEL: "silent",
    MCP_ALLOWED_ORIGINS: "https://app.example, http://localhost:5173,http://[::1]:8443",
    MCP_ALLOWED_HOSTS: "mcp.example,mcp.example:8443,[::1]:3000",
    PORT: "3000",
    METRICS_PORT: "9464",
  });
  assert.deepEqual(
    {
      host: config.host,
      logLevel: config.logLevel,
      origins: config.mcpAllowedOrigins,
      hosts: config.mcpAllowedHosts,
      metricsPort: config.metricsPort,
    },
    {
      host: "::",
      logLevel: "silent",
      origins: ["https://app.example", "http://localhost:5173", "http://[::1]:8443"],
      hosts: ["mcp.example", "mcp.example:8443", "[::1]:3000"],
      metricsPort: 9464,
    },
  );
  for (const host of ["0.0.0.0", "127.0.0.1", "localhost", "directory-1", "my_service.internal", "fe80::1"]) {
    assert.equal(readConfig({ HOST: host }).host, host);
  }
  for (const level of ["fatal", "error", "warn", "info", "debug", "trace", "silent"]) {
    assert.equal(readConfig({ LOG_LEVEL: level }).logLevel, level);
  }
});

test("CONTENT_DIR is checked only when read: a server, which never reads it, starts without a content folder", () => {
  const config = readConfig({ CONTENT_DIR: "/nonexistent/content" });
  assert.throws(
    () => config.contentDir,
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message === "config: CONTENT_DIR must name the folder of editors' files; /nonexistent/content does not exist.",
  );
  assert.equal(readConfig({ CONTENT_DIR: "test/fixtures/basic" }).contentDir, "test/fixtures/basic");
});
