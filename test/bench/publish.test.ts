import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { betweenMarkers } from "../../bench/publish.ts";

const START = "<!-- bench:table:start (written by npm run bench: do not edit by hand) -->";
const END = "<!-- bench:table:end -->";

test("the README holds the bench's markers once each, the start before the end", async () => {
  const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
  assert.equal(readme.split(START).length, 2);
  assert.equal(readme.split(END).length, 2);
  assert.ok(readme.indexOf(START) < readme.indexOf(END));
});

test("a bench run replaces what stands between the markers and nothing else", () => {
  const text = `# Title\n\nBefore.\n${START}\nold table\nold line\n${END}\nAfter.\n`;
  assert.equal(betweenMarkers(text, "| new |"), `# Title\n\nBefore.\n${START}\n| new |\n${END}\nAfter.\n`);
  assert.equal(betweenMarkers(betweenMarkers(text, "| new |"), "| new |"), betweenMarkers(text, "| new |"));
});

test("a README that lost its markers is refused, naming them", () => {
  assert.throws(() => betweenMarkers("# Title\n", "| new |"), {
    message: `README.md has lost the bench's markers (${START} … ${END})`,
  });
  assert.throws(() => betweenMarkers(`${END}\n${START}\n`, "| new |"), /lost the bench's markers/);
});
