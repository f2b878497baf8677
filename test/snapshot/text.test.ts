import assert from "node:assert/strict";
import { test } from "node:test";
import { compareByNameThenSlug, fold, words } from "../../src/snapshot/text.ts";

test("fold lower-cases and strips accents, and spells out letters decomposition keeps", () => {
  const cases: [string, string][] = [
    ["Café", "cafe"],
    ["ÉLODIE", "elodie"],
    ["Böhm & Söhne", "bohm & sohne"],
    ["Straße", "strasse"],
    ["Ærø", "aero"],
    ["Œuvre", "oeuvre"],
    ["Łódź", "lodz"],
    ["São Paulo", "sao paulo"],
    ["Plumbing & Heating Ltd.", "plumbing & heating ltd."],
    ["A\tTab", "a\ttab"],
  ];
  for (const [input, expected] of cases) assert.equal(fold(input), expected, input);
});

test("words joins apostrophes and splits on every other non-letter, non-digit", () => {
  const cases: [string, string[]][] = [
    ["O'Brien & Sons", ["OBrien", "Sons"]],
    ["Joe’s Handyman", ["Joes", "Handyman"]],
    ["Café-Crème Décor", ["Café", "Crème", "Décor"]],
    ["24-7 Locksmiths", ["24", "7", "Locksmiths"]],
    ["St. Mary's", ["St", "Marys"]],
    ["  &  ", []],
    ["", []],
  ];
  for (const [input, expected] of cases) assert.deepEqual(words(input), expected, input);
});

test("directory order ignores case and accents, puts digits first and breaks ties by slug", () => {
  const listings = [
    { name: "Zeta", slug: "zeta" },
    { name: "Évora Tiles", slug: "evora" },
    { name: "apex", slug: "apex" },
    { name: "Evergreen", slug: "evergreen-york" },
    { name: "Evergreen", slug: "evergreen-cork" },
    { name: "24-7 Locksmiths", slug: "24-7" },
    { name: "Eve", slug: "eve" },
  ];
  assert.deepEqual(
    [...listings].sort(compareByNameThenSlug).map((listing) => listing.slug),
    ["24-7", "apex", "eve", "evergreen-cork", "evergreen-york", "evora", "zeta"],
  );
});
