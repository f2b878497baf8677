import assert from "node:assert/strict";
import { test } from "node:test";
import { turnOrder } from "../../bench/load.ts";
import { SCENARIOS, selectScenarios } from "../../bench/scenarios.ts";

const keys = (only: string | undefined) => selectScenarios(only).map((scenario) => scenario.key);

test("every scenario has a key and a name of its own", () => {
  assert.equal(new Set(SCENARIOS.map((scenario) => scenario.key)).size, SCENARIOS.length);
  assert.equal(new Set(SCENARIOS.map((scenario) => scenario.name)).size, SCENARIOS.length);
});

test("--only picks scenarios by key or name, in any case, and runs them in the usual order", () => {
  assert.deepEqual(
    keys(undefined),
    SCENARIOS.map((scenario) => scenario.key),
  );
  assert.deepEqual(keys("mcp-2025,search"), ["search", "mcp-2025"]);
  assert.deepEqual(keys("Read a Business, MCP-2026"), ["business", "mcp-2026"]);
  // Names that hold a comma, beside others.
  assert.deepEqual(keys("directory search mix, cache off,markdown"), ["search", "markdown"]);
  assert.deepEqual(keys("html,directory search mix, cache off, WORKERS=2"), ["html", "search-workers"]);
});

test("--only names what it does not know", () => {
  assert.throws(() => selectScenarios("search,nothing"), /no scenario "nothing".*search, business/);
  assert.throws(() => selectScenarios(""), /no scenario/);
});

test("the servers compared take turns, the first first in even rounds", () => {
  assert.deepEqual(turnOrder(0, ["current", "against"]), ["current", "against"]);
  assert.deepEqual(turnOrder(1, ["current", "against"]), ["against", "current"]);
  assert.deepEqual(turnOrder(3, ["only"]), ["only"]);
});
