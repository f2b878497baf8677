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
