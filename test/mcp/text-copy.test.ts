import assert from "node:assert/strict";
import { test } from "node:test";
import { escapeJsonBytes } from "../../src/core/answer.ts";

test("a tool's text copy is the JSON string of its answer, escaped from the UTF-8 bytes as JSON.stringify escapes the text", () => {
  const values: unknown[] = [
    { name: 'Quote " and backslash \\ and both \\"', path: "C:\\dir\\file" },
    { name: "Café-Crème Décor", city: "München", region: "Île-de-France", emoji: "🔧 plumber 👷", cjk: "東京" },
    { description: "line one\nline two\ttab\r\u0001 control \u001f", separators: "\u2028\u2029" },
    { items: [], limit: 10, offset: 0, nextOffset: null },
    "plain string",
    "",
  ];
  for (const value of values) {
    const json = JSON.stringify(value);
    const inside = escapeJsonBytes(Buffer.from(json));
    assert.equal(`"${inside.toString("utf8")}"`, JSON.stringify(json), json);
  }
});
