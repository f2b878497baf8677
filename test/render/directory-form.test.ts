import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { directoryQuery } from "../../src/render/directory-form.ts";

test("a search's query string is what URLSearchParams writes, whatever the form holds (lone surrogates too)", () => {
  const value = fc.string({ unit: fc.constantFrom(..." !\"#%&'()*+,-./09:;=?@AZaz[]^_`{|}~é’😀\ud800\u0000\n\t") });
  fc.assert(
    fc.property(value, value, fc.constantFrom("", "GB", "gb"), value, fc.nat(1000), (q, location, country, service, offset) => {
      const form = { q, location, country, service };
      const params = new URLSearchParams();
      for (const [name, text] of Object.entries(form)) if (text.trim() !== "") params.set(name, text);
      if (offset > 0) params.set("offset", String(offset));
      const expected = params.toString();
      assert.equal(directoryQuery(form, offset), expected === "" ? "" : `?${expected}`);
    }),
    { numRuns: 2000, seed: 42 },
  );
});
