/**
 * The directory's REST endpoints (search businesses, read a business) over HTTP: interface §4
 * (search semantics), §5 (errors), §7 (HTTP) and §9 (limits).
 * Expected values are read off test/fixtures/basic and written here literally.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { PublicBusiness } from "../../src/schemas/business.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

const SEARCH = "/api/directory";
const READ = "/api/directory/{identifier}";
const JSON_TYPE = "application/json; charset=utf-8";
const CACHE_SUCCESS = "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400";
const CACHE_ERROR = "no-store";
const ETAG = /^(W\/)?"[^"]+"$/;

interface ErrorDetail {
  code: string;
  message: string;
  resolution: string;
}

interface Page {
  items: PublicBusiness[];
  limit: number;
  offset: number;
  nextOffset: number | null;
}

/** What a request over HTTP got: its status, headers, text and the text as JSON. */
interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

async function request(baseUrl: string, path: string, method = "GET"): Promise<HttpReply> {
  const response = await fetch(`${baseUrl}${path}`, { method });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

/** Status, JSON content type and success caching headers of a 200. */
function assertSuccessHeaders(answer: HttpReply): void {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get("content-type"), JSON_TYPE);
  assert.equal(answer.headers.get("cache-control"), CACHE_SUCCESS);
  assert.match(answer.headers.get("etag") ?? "", ETAG);
}

/** Status, JSON content type and `no-store` of an error answer. */
function assertErrorHeaders(answer: HttpReply, status: number): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.headers.get("content-type"), JSON_TYPE);
  assert.equal(answer.headers.get("cache-control"), CACHE_ERROR);
  assert.equal(answer.headers.get("etag"), null);
}

// ---------------------------------------------------------------------------------------------
// The fixture's approved listings, literally (test/fixtures/basic/businesses/**).

const BASE = "http://localhost:3000";

function listing(
  slug: string,
  id: string,
  name: string,
  service: string,
  category: string,
  location: PublicBusiness["location"],
  description = `Description of ${name}.`,
): PublicBusiness {
  return {
    id,
    slug,
    name,
    service,
    category,
    description,
    location,
    profileUrl: `${BASE}/businesses/${slug}`,
    markdownUrl: `${BASE}/businesses/${slug}/index.md`,
    quoteUrl: `https://fixture.example/quotes/new?business=${slug}`,
  };
}

const LISTINGS: Readonly<Record<string, PublicBusiness>> = {
  "24-7-locksmiths": listing("24-7-locksmiths", "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a07", "24-7 Locksmiths", "Locksmith", "Security", {
    city: "Manchester",
    region: "Greater Manchester",
    postalCode: "M1 1AE",
    country: "GB",
  }),
  "apex-electrical": listing(
    "apex-electrical",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a06",
    "apex Electrical",
    "Electrical",
    "Repairs & maintenance",
    {
      city: "Toronto",
      region: "Ontario",
      postalCode: "M5V 2T6",
      country: "CA",
    },
  ),
  "bohm-sohne-dachdecker": listing(
    "bohm-sohne-dachdecker",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a03",
    "Böhm & Söhne Dachdecker",
    "Roofing",
    "Building & renovation",
    {
      city: "München",
      region: "Bayern",
      postalCode: "80331",
      country: "DE",
    },
  ),
  "cafe-creme-decor": listing(
    "cafe-creme-decor",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a02",
    "Café-Crème Décor",
    "Painting & Decorating",
    "Building & renovation",
    {
      city: "Lyon",
      region: "Auvergne-Rhône-Alpes",
      postalCode: "69002",
      country: "FR",
    },
  ),
  "evergreen-gardens-cork": listing(
    "evergreen-gardens-cork",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a09",
    "Evergreen Gardens",
    "Landscaping",
    "Outdoor & garden",
    {
      city: "Cork",
      region: "County Cork",
      postalCode: "T12 X70A",
      country: "IE",
    },
  ),
  "evergreen-gardens-york": listing(
    "evergreen-gardens-york",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a08",
    "Evergreen Gardens",
    "Landscaping",
    "Outdoor & garden",
    {
      city: "York",
      region: "North Yorkshire",
      postalCode: "YO1 7HH",
      country: "GB",
    },
  ),
  "joes-handyman": listing(
    "joes-handyman",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a04",
    "Joe’s Handyman Services",
    "Handyman",
    "Repairs & maintenance",
    {
      city: "Leeds",
      region: "West Yorkshire",
      postalCode: "LS1 4DT",
      country: "GB",
    },
  ),
  "leeds-plumbing-heating": listing(
    "leeds-plumbing-heating",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a05",
    "Leeds Plumbing & Heating",
    "Plumbing",
    "Repairs & maintenance",
    {
      city: "Leeds",
      region: "West Yorkshire",
      postalCode: "LS6 2AB",
      country: "GB",
    },
  ),
  "obrien-sons-plumbing": listing(
    "obrien-sons-plumbing",
    "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a01",
    "O'Brien & Sons Plumbing",
    "Plumbing",
    "Repairs & maintenance",
    { city: "Dublin", region: "County Dublin", postalCode: "D02 X285", country: "IE" },
    "Family plumbers covering Dublin since 1998.",
  ),
};

/** Every approved listing in directory order: by name ignoring case and accents, ties by slug. */
const ALL = [
  "24-7-locksmiths",
  "apex-electrical",
  "bohm-sohne-dachdecker",
  "cafe-creme-decor",
  "evergreen-gardens-cork",
  "evergreen-gardens-york",
  "joes-handyman",
  "leeds-plumbing-heating",
  "obrien-sons-plumbing",
];

/** Listings in the fixture that are not approved: slug and id. */
const NOT_APPROVED = [
  { status: "pending", slug: "quillfeather-pending-plumbing", id: "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a10" },
  { status: "rejected", slug: "zanzibar-rejected-roofing", id: "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a11" },
  { status: "suspended", slug: "vortexia-suspended-electrical", id: "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a12" },
];

function itemsOf(slugs: readonly string[]): PublicBusiness[] {
  return slugs.map((slug) => {
    const business = LISTINGS[slug];
    assert.ok(business, `no fixture listing ${slug}`);
    return business;
  });
}

// ---------------------------------------------------------------------------------------------
// Error bodies, literally.

const TEXT_RULE = "letters, digits, spaces, apostrophes, periods, ampersands and hyphens";
const ACCEPTED = "accepted parameters: q, location, country, limit, offset";

const INVALID: Readonly<Record<"q" | "location" | "country" | "limit" | "offset" | "identifier", ErrorDetail>> = {
  q: {
    code: "invalid_parameter",
    message: `Parameter 'q' is invalid: it must be at most 120 characters and at most 6 terms of ${TEXT_RULE}.`,
    resolution: `Send at most 6 plain words made of ${TEXT_RULE}, or leave q out to browse every listing.`,
  },
  location: {
    code: "invalid_parameter",
    message: `Parameter 'location' is invalid: it must be at most 80 characters of ${TEXT_RULE}.`,
    resolution: "Send part of a city, region or postal code, or leave location out.",
  },
  country: {
    code: "invalid_parameter",
    message: "Parameter 'country' is invalid: it must be a two-letter country code such as GB.",
    resolution: "Send a two-letter ISO 3166-1 country code such as GB, FR or DE, or leave country out.",
  },
  limit: {
    code: "invalid_parameter",
    message: "Parameter 'limit' is invalid: it must be a whole number from 1 to 25.",
    resolution: "Send a whole number from 1 to 25, or leave limit out for 10.",
  },
  offset: {
    code: "invalid_parameter",
    message: "Parameter 'offset' is invalid: it must be a whole number from 0 to 1000.",
    resolution: "Use the nextOffset of the previous response, or leave offset out to start at the first result.",
  },
  identifier: {
    code: "invalid_parameter",
    message:
      "Parameter 'identifier' is invalid: it must be a business slug or UUID of at most 200 letters, digits and hyphens, starting with a letter or digit.",
    resolution: "Use the slug or id of a listing returned by the directory search.",
  },
};

function unknownParameter(described: string, accepted = ACCEPTED): ErrorDetail {
  return {
    code: "unknown_parameter",
    message: `Parameter ${described} is not supported here; ${accepted}.`,
    resolution: "Remove the unknown parameter and send only the accepted ones.",
  };
}

function repeatedParameter(name: string): ErrorDetail {
  return {
    code: "repeated_parameter",
    message: `Parameter '${name}' appears more than once.`,
    resolution: "Send each parameter at most once.",
  };
}

const BUSINESS_NOT_FOUND: ErrorDetail = {
  code: "not_found",
  message: "No approved public listing has this slug or id.",
  resolution: "Search the directory (GET /api/directory?q=...) and use the slug or id of a listing it returns.",
};

const METHOD_NOT_ALLOWED: ErrorDetail = {
  code: "method_not_allowed",
  message: "This method is not supported here: the interface is read-only. Use GET or HEAD.",
  resolution: "Send a GET or HEAD request; nothing can be created, changed or deleted through this interface.",
};

const DIRECTORY_UNAVAILABLE: ErrorDetail = {
  code: "directory_unavailable",
  message: "The directory data is unavailable right now. This is not an empty result.",
  resolution: "Wait 30 seconds and retry; the offerings catalog still works meanwhile.",
};

// =============================================================================================
// The basic fixture: 9 approved listings, 3 that are not.

describe("directory endpoints over the basic fixture", () => {
  let server: RunningServer;
  let openapi: OpenApiValidator;
  let cleanup: () => Promise<void>;

  before(async () => {
    const dist = await tempDir("directory-test-");
    cleanup = dist.remove;
    await buildSnapshot(`${FIXTURES}basic`, `${dist.path}/dist`);
    server = await startServer(`${dist.path}/dist`);
    openapi = await OpenApiValidator.fetch(server.url);
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  /** GET a search, assert a 200 page with exactly these listings, limit, offset and nextOffset. */
  async function expectPage(
    query: string,
    slugs: readonly string[],
    limit: number,
    offset: number,
    nextOffset: number | null,
  ): Promise<void> {
    const answer = await request(server.url, `${SEARCH}${query}`);
    assertSuccessHeaders(answer);
    openapi.assertBody(SEARCH, 200, answer.body);
    const page = answer.body as Page;
    assert.deepEqual(
      page.items.map((item) => item.slug),
      [...slugs],
      `slugs of ${query}`,
    );
    assert.deepEqual(page, { items: itemsOf(slugs), limit, offset, nextOffset });
  }

  /** GET `path`, assert an error with exactly this status and body, validated against `template`. */
  async function expectError(path: string, template: string, status: number, error: ErrorDetail, method = "GET"): Promise<HttpReply> {
    const answer = await request(server.url, path, method);
    assertErrorHeaders(answer, status);
    openapi.assertBody(template, status, answer.body);
    assert.deepEqual(answer.body, { error });
    return answer;
  }

  describe("search: defaults, order and paging (endpoint 1, rules 2-4; interface §4)", () => {
    test("without parameters returns every approved listing in name order with limit 10, offset 0 and nextOffset null", async () => {
      await expectPage("", ALL, 10, 0, null);
    });

    test("orders by name ignoring case and accents, ties by slug: 24-7 and apex first, Evergreen cork before york", async () => {
      const answer = await request(server.url, `${SEARCH}?limit=25`);
      assertSuccessHeaders(answer);
      openapi.assertBody(SEARCH, 200, answer.body);
      const page = answer.body as Page;
      assert.deepEqual(
        page.items.map((item) => [item.slug, item.name]),
        [
          ["24-7-locksmiths", "24-7 Locksmiths"],
          ["apex-electrical", "apex Electrical"],
          ["bohm-sohne-dachdecker", "Böhm & Söhne Dachdecker"],
          ["cafe-creme-decor", "Café-Crème Décor"],
          ["evergreen-gardens-cork", "Evergreen Gardens"],
          ["evergreen-gardens-york", "Evergreen Gardens"],
          ["joes-handyman", "Joe’s Handyman Services"],
          ["leeds-plumbing-heating", "Leeds Plumbing & Heating"],
          ["obrien-sons-plumbing", "O'Brien & Sons Plumbing"],
        ],
      );
    });

    test("the same query always gives the same order", async () => {
      const first = await request(server.url, `${SEARCH}?q=evergreen&limit=25`);
      const second = await request(server.url, `${SEARCH}?limit=25&q=EVERGREEN`);
      assertSuccessHeaders(first);
      assertSuccessHeaders(second);
      assert.deepEqual(first.body, second.body);
      assert.deepEqual(
        (first.body as Page).items.map((item) => item.slug),
        ["evergreen-gardens-cork", "evergreen-gardens-york"],
      );
    });

    const pages: [query: string, slugs: string[], limit: number, offset: number, nextOffset: number | null][] = [
      ["?limit=2", ["24-7-locksmiths", "apex-electrical"], 2, 0, 2],
      ["?limit=2&offset=2", ["bohm-sohne-dachdecker", "cafe-creme-decor"], 2, 2, 4],
      ["?limit=2&offset=4", ["evergreen-gardens-cork", "evergreen-gardens-york"], 2, 4, 6],
      ["?limit=2&offset=6", ["joes-handyman", "leeds-plumbing-heating"], 2, 6, 8],
      ["?limit=2&offset=8", ["obrien-sons-plumbing"], 2, 8, null],
      ["?limit=3&offset=6", ["joes-handyman", "leeds-plumbing-heating", "obrien-sons-plumbing"], 3, 6, null],
      ["?limit=1", ["24-7-locksmiths"], 1, 0, 1],
      ["?limit=1&offset=7", ["leeds-plumbing-heating"], 1, 7, 8],
      ["?offset=5", ["evergreen-gardens-york", "joes-handyman", "leeds-plumbing-heating", "obrien-sons-plumbing"], 10, 5, null],
      ["?limit=25", ALL, 25, 0, null],
      ["?limit=8", ALL.slice(0, 8), 8, 0, 8],
      ["?limit=9", ALL, 9, 0, null],
      ["?offset=0&limit=10", ALL, 10, 0, null],
    ];
    for (const [query, slugs, limit, offset, nextOffset] of pages) {
      test(`${query} returns the slice [offset, offset + limit) with nextOffset ${String(nextOffset)}`, async () => {
        await expectPage(query, slugs, limit, offset, nextOffset);
      });
    }

    test("following nextOffset with limit 2 visits every listing once, in order", async () => {
      const seen: string[] = [];
      let offset: number | null = 0;
      let requests = 0;
      while (offset !== null) {
        const answer = await request(server.url, `${SEARCH}?limit=2&offset=${offset}`);
        assertSuccessHeaders(answer);
        openapi.assertBody(SEARCH, 200, answer.body);
        const page = answer.body as Page;
        assert.equal(page.offset, offset);
        seen.push(...page.items.map((item) => item.slug));
        offset = page.nextOffset;
        requests += 1;
        assert.ok(requests <= 5, "nextOffset never became null");
      }
      assert.equal(requests, 5);
      assert.deepEqual(seen, ALL);
    });

    const beyond: [query: string, limit: number, offset: number][] = [
      ["?offset=9", 10, 9],
      ["?offset=20&limit=5", 5, 20],
      ["?offset=1000", 10, 1000],
      ["?offset=1000&limit=25", 25, 1000],
    ];
    for (const [query, limit, offset] of beyond) {
      test(`an offset at or beyond the end (${query}) returns 200 with no items and nextOffset null`, async () => {
        await expectPage(query, [], limit, offset, null);
      });
    }

    test("a filtered search is paged over its own matches: country=gb&limit=2", async () => {
      await expectPage("?country=gb&limit=2", ["24-7-locksmiths", "evergreen-gardens-york"], 2, 0, 2);
      await expectPage("?country=gb&limit=2&offset=2", ["joes-handyman", "leeds-plumbing-heating"], 2, 2, null);
    });

    test("a search by q is paged over its matches: q=plumbing&limit=1", async () => {
      await expectPage("?q=plumbing&limit=1", ["leeds-plumbing-heating"], 1, 0, 1);
      await expectPage("?q=plumbing&limit=1&offset=1", ["obrien-sons-plumbing"], 1, 1, null);
    });

    test("never returns a listing that is not approved, on any page", async () => {
      const answer = await request(server.url, `${SEARCH}?limit=25`);
      assertSuccessHeaders(answer);
      const text = answer.text;
      for (const { slug, id } of NOT_APPROVED) {
        assert.ok(!text.includes(slug), `${slug} is published`);
        assert.ok(!text.includes(id), `${id} is published`);
      }
      assert.ok(!text.includes("Priya"), "private front matter is published");
      assert.ok(!text.includes("+353"), "private front matter is published");
    });
  });

  describe("search: q matching (endpoint 1, rule 1; interface §4)", () => {
    const cases: [description: string, q: string, slugs: string[]][] = [
      // Prefix of a word; name or service.
      ["a prefix finds the word (plumb finds Plumbing)", "plumb", ["leeds-plumbing-heating", "obrien-sons-plumbing"]],
      ["a whole word matches", "plumbing", ["leeds-plumbing-heating", "obrien-sons-plumbing"]],
      ["a word only in the service matches (Landscaping)", "landscaping", ["evergreen-gardens-cork", "evergreen-gardens-york"]],
      ["a word only in the service matches (Roofing)", "roof", ["bohm-sohne-dachdecker"]],
      ["a word only in the service matches (Decorating)", "decorating", ["cafe-creme-decor"]],
      ["a word only in the service matches (Handyman is also in the name)", "handyman", ["joes-handyman"]],
      ["a word only in the name matches (Gardens)", "gardens", ["evergreen-gardens-cork", "evergreen-gardens-york"]],
      ["a word only in the name matches (Dachdecker)", "dach", ["bohm-sohne-dachdecker"]],
      ["a word only in the name matches (Heating)", "heat", ["leeds-plumbing-heating"]],
      ["a word of the name that is a city matches as a name word (Leeds)", "leeds", ["leeds-plumbing-heating"]],
      ["a single letter is a prefix", "e", ["apex-electrical", "evergreen-gardens-cork", "evergreen-gardens-york"]],
      ["a digit word matches (24-7)", "7", ["24-7-locksmiths"]],
      // AND.
      ["all terms must match: plumbing heating", "plumbing heating", ["leeds-plumbing-heating"]],
      ["all terms must match: plumb sons", "plumb sons", ["obrien-sons-plumbing"]],
      [
        "all terms must match, across name and service: evergreen landscaping",
        "evergreen landscaping",
        ["evergreen-gardens-cork", "evergreen-gardens-york"],
      ],
      ["all terms must match: one term unmatched gives nothing", "plumbing roofing", []],
      ["all terms must match: a location word in q is not a name or service word", "plumbing dublin", []],
      ["six terms that all match", "o'brien sons plumbing plumb p s", ["obrien-sons-plumbing"]],
      ["spaces around and between terms are ignored", "  plumb   leeds ", ["leeds-plumbing-heating"]],
      // Whole word or prefix only.
      ["a term matching the middle of a word does not match (umbing)", "umbing", []],
      ["a term matching the end of a word does not match (green)", "green", []],
      ["a term matching the middle of a word does not match (smith)", "smith", []],
      ["a term longer than the word does not match (plumbings)", "plumbings", []],
      ["no typo tolerance (plumbimg)", "plumbimg", []],
      // Case- and accent-insensitive.
      ["cafe finds Café-Crème Décor", "cafe", ["cafe-creme-decor"]],
      ["creme decor finds Café-Crème Décor", "creme decor", ["cafe-creme-decor"]],
      ["an accented term finds the accented word (décor)", "décor", ["cafe-creme-decor"]],
      ["a letter written with a combining mark finds the accented word (cafe + U+0301)", "cafe\u0301", ["cafe-creme-decor"]],
      ["bohm finds Böhm", "bohm", ["bohm-sohne-dachdecker"]],
      ["söhne finds Söhne", "söhne", ["bohm-sohne-dachdecker"]],
      ["sohne finds Söhne", "sohne", ["bohm-sohne-dachdecker"]],
      ["upper case BÖHM finds Böhm", "BÖHM", ["bohm-sohne-dachdecker"]],
      ["upper case PLUMB finds Plumbing", "PLUMB", ["leeds-plumbing-heating", "obrien-sons-plumbing"]],
      ["mixed case ApEx finds apex Electrical", "ApEx", ["apex-electrical"]],
      ["lower case finds a name written in lower case (apex)", "apex", ["apex-electrical"]],
      // Apostrophes.
      ["o'brien finds O'Brien", "o'brien", ["obrien-sons-plumbing"]],
      ["obrien finds O'Brien", "obrien", ["obrien-sons-plumbing"]],
      ["o’brien with a typographic apostrophe finds O'Brien", "o’brien", ["obrien-sons-plumbing"]],
      ["joe’s finds Joe’s", "joe’s", ["joes-handyman"]],
      ["joe's with a straight apostrophe finds Joe’s", "joe's", ["joes-handyman"]],
      ["joes finds Joe’s", "joes", ["joes-handyman"]],
      // Ampersands, hyphens, periods.
      ["an ampersand between terms is accepted: plumbing & heating", "plumbing & heating", ["leeds-plumbing-heating"]],
      ["a hyphenated term is accepted: café-crème", "café-crème", ["cafe-creme-decor"]],
      ["a hyphenated term is accepted: 24-7", "24-7", ["24-7-locksmiths"]],
      ["a period is accepted: apex.", "apex.", ["apex-electrical"]],
      // No match.
      ["no match is an empty page", "zzzz", []],
      ["a listing that is not approved is never found (quillfeather)", "quillfeather", []],
      ["a listing that is not approved is never found (zanzibar)", "zanzibar", []],
      ["a listing that is not approved is never found (vortexia)", "vortexia", []],
      ["the description is not searched (family)", "family", []],
      ["the category is not searched (security)", "security", []],
    ];
    for (const [description, q, slugs] of cases) {
      test(`q=${q}: ${description}`, async () => {
        await expectPage(`?q=${encodeURIComponent(q)}`, slugs, 10, 0, null);
      });
    }

    test("q with terms separated by + (form encoding of a space) matches both terms", async () => {
      await expectPage("?q=plumb+leeds", ["leeds-plumbing-heating"], 10, 0, null);
    });

    test("an empty q browses every listing", async () => {
      await expectPage("?q=", ALL, 10, 0, null);
    });

    test("q of exactly 120 characters is accepted", async () => {
      await expectPage(`?q=${"a".repeat(120)}`, [], 10, 0, null);
    });

    test("q of 6 terms is accepted", async () => {
      await expectPage(`?q=${encodeURIComponent("a b c d e f")}`, [], 10, 0, null);
    });
  });

  describe("search: location, country and combinations (endpoint 1, rule 1; interface §4)", () => {
    const cases: [description: string, query: string, slugs: string[]][] = [
      ["location matches the city, case-insensitively (leeds)", "location=leeds", ["joes-handyman", "leeds-plumbing-heating"]],
      ["location matches the city in upper case (LEEDS)", "location=LEEDS", ["joes-handyman", "leeds-plumbing-heating"]],
      [
        "location york matches the city York and the regions North Yorkshire and West Yorkshire",
        "location=york",
        ["evergreen-gardens-york", "joes-handyman", "leeds-plumbing-heating"],
      ],
      [
        "location is a substring, also inside a word (orkshire)",
        "location=orkshire",
        ["evergreen-gardens-york", "joes-handyman", "leeds-plumbing-heating"],
      ],
      ["location matches the region (county)", "location=county", ["evergreen-gardens-cork", "obrien-sons-plumbing"]],
      ["location matches the region (Bayern)", "location=bayern", ["bohm-sohne-dachdecker"]],
      ["location matches the postal code (ls1)", "location=ls1", ["joes-handyman"]],
      ["location matches the postal code with its space (ls1 4dt)", `location=${encodeURIComponent("ls1 4dt")}`, ["joes-handyman"]],
      ["location matches a postal code of digits (69002)", "location=69002", ["cafe-creme-decor"]],
      ["location is accent-insensitive (munchen finds München)", "location=munchen", ["bohm-sohne-dachdecker"]],
      ["location is accent-insensitive (rhône)", `location=${encodeURIComponent("rhône")}`, ["cafe-creme-decor"]],
      ["location with a hyphen is accepted (auvergne-rhone)", "location=auvergne-rhone", ["cafe-creme-decor"]],
      [
        "location written with a combining mark matches (mu + U+0308 + nchen)",
        `location=${encodeURIComponent("mu\u0308nchen")}`,
        ["bohm-sohne-dachdecker"],
      ],
      [
        "location with a space encoded as + matches (west+yorkshire)",
        "location=west+yorkshire",
        ["joes-handyman", "leeds-plumbing-heating"],
      ],
      ["location does not match the name or service (plumbing)", "location=plumbing", []],
      ["location does not match the country code (gb)", "location=gb", []],
      ["location that matches nothing gives an empty page", "location=paris", []],
      ["location never finds listings that are not approved (LS2 and LS3 are pending and rejected)", "location=ls2", []],
      ["country gb", "country=gb", ["24-7-locksmiths", "evergreen-gardens-york", "joes-handyman", "leeds-plumbing-heating"]],
      ["country GB", "country=GB", ["24-7-locksmiths", "evergreen-gardens-york", "joes-handyman", "leeds-plumbing-heating"]],
      ["country Ie is case-insensitive", "country=Ie", ["evergreen-gardens-cork", "obrien-sons-plumbing"]],
      ["country de", "country=de", ["bohm-sohne-dachdecker"]],
      ["country with no listings gives an empty page (us)", "country=us", []],
      ["q and country: plumbing in IE", "q=plumbing&country=ie", ["obrien-sons-plumbing"]],
      ["q and location: plumbing in leeds", "q=plumbing&location=leeds", ["leeds-plumbing-heating"]],
      ["q and country: gardens in GB", "q=gardens&country=GB", ["evergreen-gardens-york"]],
      ["q and location: evergreen in cork", "q=evergreen&location=cork", ["evergreen-gardens-cork"]],
      [
        "location and country: york in gb",
        "location=york&country=gb",
        ["evergreen-gardens-york", "joes-handyman", "leeds-plumbing-heating"],
      ],
      ["location and country that exclude each other", "location=york&country=ie", []],
      ["q, location and country together", "q=handy&location=ls1&country=gb", ["joes-handyman"]],
      ["q, location and country that exclude each other", "q=plumbing&location=leeds&country=ie", []],
    ];
    for (const [description, query, slugs] of cases) {
      test(`${query}: ${description}`, async () => {
        await expectPage(`?${query}`, slugs, 10, 0, null);
      });
    }

    test("location of exactly 80 characters is accepted", async () => {
      await expectPage(`?location=${"a".repeat(80)}`, [], 10, 0, null);
    });
  });

  describe("search: parameter rules (endpoint 1, Limits, Errors)", () => {
    test("returns 400 unknown_parameter naming an unknown parameter (page)", async () => {
      await expectError(`${SEARCH}?page=2`, SEARCH, 400, unknownParameter("'page'"));
    });

    test("returns 400 unknown_parameter for a parameter name in the wrong case (Q)", async () => {
      await expectError(`${SEARCH}?Q=plumb`, SEARCH, 400, unknownParameter("'Q'"));
    });

    test("returns 400 unknown_parameter next to valid parameters", async () => {
      await expectError(`${SEARCH}?q=plumb&limit=5&sort=name`, SEARCH, 400, unknownParameter("'sort'"));
    });

    test("returns 400 unknown_parameter for an unknown parameter given twice", async () => {
      await expectError(`${SEARCH}?foo=1&foo=2`, SEARCH, 400, unknownParameter("'foo'"));
    });

    test("returns 400 unknown_parameter without echoing an unknown parameter name that contains markup", async () => {
      const answer = await expectError(
        `${SEARCH}?${encodeURIComponent("<script>alert(1)</script>")}=1`,
        SEARCH,
        400,
        unknownParameter("with an unsupported name"),
      );
      assert.ok(!answer.text.includes("<"), answer.text);
      assert.ok(!answer.text.includes("script"), answer.text);
    });

    for (const [name, query] of [
      ["q", "q=plumb&q=leeds"],
      ["q", "q=plumb&q=plumb"],
      ["location", "location=leeds&location=york"],
      ["country", "country=gb&country=ie"],
      ["limit", "limit=5&limit=5"],
      ["offset", "offset=0&offset=2"],
      ["limit", "limit=&limit=3"],
    ] as const) {
      test(`returns 400 repeated_parameter when ${name} appears twice (${query})`, async () => {
        await expectError(`${SEARCH}?${query}`, SEARCH, 400, repeatedParameter(name));
      });
    }

    const invalid: [name: keyof typeof INVALID, why: string, value: string][] = [
      ["q", "over 120 characters", "a".repeat(121)],
      ["q", "over 120 characters of several terms", `${"plumbing ".repeat(5)}${"a".repeat(80)}`],
      ["q", "7 terms", "a b c d e f g"],
      ["q", "7 terms of real words", "o brien sons plumbing dublin ireland family"],
      ["q", "the character <", "<script>"],
      ["q", "the character < inside a term", "plumb<"],
      ["q", "the character /", "plumbing/heating"],
      ["q", "the character ;", "plumbing;"],
      ["q", 'the character "', '"plumbing"'],
      ["q", "the character *", "plumb*"],
      ["q", "the character %", "100%"],
      ["q", "the character ,", "plumbing,heating"],
      ["q", "a tab", "plumbing\theating"],
      ["q", "a line break", "plumbing\nheating"],
      ["location", "over 80 characters", "a".repeat(81)],
      ["location", "the character <", "<b>leeds</b>"],
      ["location", "the character /", "leeds/york"],
      ["location", "the character ;", "leeds;"],
      ["location", "the character ,", "leeds, west yorkshire"],
      ["country", "one letter", "g"],
      ["country", "three letters", "gbr"],
      ["country", "digits", "12"],
      ["country", "a letter and a digit", "g1"],
      ["country", "an empty value", ""],
      ["country", "a non-ASCII letter", "gé"],
      ["limit", "0", "0"],
      ["limit", "26", "26"],
      ["limit", "a negative number", "-1"],
      ["limit", "letters", "abc"],
      ["limit", "a fraction", "1.5"],
      ["limit", "an empty value", ""],
      ["offset", "-1", "-1"],
      ["offset", "1001", "1001"],
      ["offset", "letters", "abc"],
      ["offset", "a fraction", "2.5"],
      ["offset", "an empty value", ""],
    ];
    // A number in a URL is decimal digits and nothing else: no sign, point, exponent, base prefix, space or word.
    for (const name of ["limit", "offset"] as const) {
      for (const value of ["Infinity", "-0", "1e1", "0x10", "+1", "1.0", " 1", "1 ", "0b1", "NaN", "１"]) {
        invalid.push([name, `${JSON.stringify(value)} (not decimal digits)`, value]);
      }
    }
    for (const [name, why, value] of invalid) {
      test(`returns 400 invalid_parameter when ${name} is ${why}`, async () => {
        const answer = await expectError(`${SEARCH}?${name}=${encodeURIComponent(value)}`, SEARCH, 400, INVALID[name]);
        assert.ok(!answer.text.includes("<"), "unescaped input is echoed");
      });
    }

    test("reads limit and offset with leading zeros as the decimal numbers they spell: limit=05&offset=010 is limit=5&offset=10", async () => {
      const padded = await request(server.url, `${SEARCH}?limit=05&offset=010`);
      const plain = await request(server.url, `${SEARCH}?limit=5&offset=10`);
      assert.equal(padded.status, 200);
      assert.equal(padded.text, plain.text);
      assert.deepEqual([(padded.body as { limit: number }).limit, (padded.body as { offset: number }).offset], [5, 10]);
    });
  });

  describe("read a business (endpoint 2)", () => {
    async function expectBusiness(identifier: string, slug: string): Promise<void> {
      const answer = await request(server.url, `/api/directory/${identifier}`);
      assertSuccessHeaders(answer);
      openapi.assertBody(READ, 200, answer.body);
      assert.deepEqual(answer.body, LISTINGS[slug]);
    }

    for (const slug of ALL) {
      test(`returns the listing ${slug} by its slug`, async () => {
        await expectBusiness(slug, slug);
      });
    }

    test("returns a listing by its UUID id", async () => {
      await expectBusiness("0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a01", "obrien-sons-plumbing");
    });

    test("returns a listing by its UUID id in upper case", async () => {
      await expectBusiness("0B3A6F8E-1C2D-4E5F-8A9B-0C1D2E3F4A01", "obrien-sons-plumbing");
    });

    test("returns the same listing by slug and by id, with the same ETag", async () => {
      const bySlug = await request(server.url, "/api/directory/cafe-creme-decor");
      const byId = await request(server.url, "/api/directory/0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a02");
      assertSuccessHeaders(bySlug);
      assertSuccessHeaders(byId);
      assert.equal(bySlug.text, byId.text);
      assert.equal(bySlug.headers.get("etag"), byId.headers.get("etag"));
    });

    for (const { status, slug, id } of NOT_APPROVED) {
      test(`returns 404 not_found for the ${status} listing's slug (${slug})`, async () => {
        const answer = await expectError(`/api/directory/${slug}`, READ, 404, BUSINESS_NOT_FOUND);
        assert.ok(!answer.text.includes(slug));
      });
      test(`returns 404 not_found for the ${status} listing's id`, async () => {
        await expectError(`/api/directory/${id}`, READ, 404, BUSINESS_NOT_FOUND);
        await expectError(`/api/directory/${id.toUpperCase()}`, READ, 404, BUSINESS_NOT_FOUND);
      });
    }

    test("returns 404 not_found for an unknown slug", async () => {
      await expectError("/api/directory/no-such-business", READ, 404, BUSINESS_NOT_FOUND);
    });

    test("returns 404 not_found for an unknown UUID", async () => {
      await expectError("/api/directory/0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4aff", READ, 404, BUSINESS_NOT_FOUND);
    });

    test("returns 404 not_found for an identifier of exactly 200 characters that names no listing", async () => {
      await expectError(`/api/directory/${"a".repeat(200)}`, READ, 404, BUSINESS_NOT_FOUND);
    });

    test("returns 400 invalid_parameter for an identifier of 201 characters", async () => {
      await expectError(`/api/directory/${"a".repeat(201)}`, READ, 400, INVALID.identifier);
    });

    for (const length of [600, 1200]) {
      test(`returns 400 invalid_parameter for an identifier of ${length} characters`, async () => {
        await expectError(`/api/directory/${"a".repeat(length)}`, READ, 400, INVALID.identifier);
      });
    }

    const patterns: [why: string, identifier: string][] = [
      ["starts with a hyphen", "-apex-electrical"],
      ["contains an underscore", "apex_electrical"],
      ["contains a period", "apex.electrical"],
      ["contains a space", "apex%20electrical"],
      ["contains an accented letter", "caf%C3%A9-creme-decor"],
      ["contains markup", "%3Cscript%3E"],
      ["contains an apostrophe", "o'brien"],
    ];
    for (const [why, identifier] of patterns) {
      test(`returns 400 invalid_parameter for an identifier that ${why}`, async () => {
        const answer = await expectError(`/api/directory/${identifier}`, READ, 400, INVALID.identifier);
        assert.ok(!answer.text.includes("<"), "unescaped input is echoed");
      });
    }

    for (const query of ["q=plumb", "limit=1", "utm_source=mail"]) {
      test(`returns 400 unknown_parameter for a query parameter on the single-business endpoint (${query})`, async () => {
        const name = query.slice(0, query.indexOf("="));
        await expectError(`/api/directory/apex-electrical?${query}`, READ, 400, unknownParameter(`'${name}'`, "it takes no parameters"));
      });
    }
  });

  describe("methods (Endpoints; interface §5)", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const [path, template] of [
        [SEARCH, SEARCH],
        ["/api/directory/apex-electrical", READ],
      ] as const) {
        test(`returns 405 method_not_allowed with Allow: GET, HEAD for ${method} ${path}`, async () => {
          const answer = await expectError(path, template, 405, METHOD_NOT_ALLOWED, method);
          assert.equal(answer.headers.get("allow"), "GET, HEAD");
        });
      }
    }

    for (const [path, status] of [
      [`${SEARCH}?q=plumb&limit=1`, 200],
      ["/api/directory/apex-electrical", 200],
      ["/api/directory/no-such-business", 404],
      [`${SEARCH}?limit=0`, 400],
    ] as const) {
      test(`HEAD ${path} answers ${status} with the headers of GET without a body`, async () => {
        const get = await fetch(`${server.url}${path}`);
        const getBody = await get.text();
        const head = await fetch(`${server.url}${path}`, { method: "HEAD" });
        assert.equal(get.status, status);
        assert.equal(head.status, status);
        for (const name of ["content-type", "cache-control", "etag", "content-length"]) {
          assert.equal(head.headers.get(name), get.headers.get(name), name);
        }
        assert.equal(head.headers.get("content-type"), JSON_TYPE);
        assert.equal(head.headers.get("cache-control"), status === 200 ? CACHE_SUCCESS : CACHE_ERROR);
        if (status === 200) assert.match(head.headers.get("etag") ?? "", ETAG);
        else assert.equal(head.headers.get("etag"), null);
        assert.equal(get.headers.get("content-length"), String(Buffer.byteLength(getBody)));
        assert.equal(await head.text(), "");
      });
    }
  });
});

// =============================================================================================
// A generated directory of 1030 approved listings (and a few that are not): the browsing limit.

const GENERATED = 1030;
const pad = (n: number): string => String(n).padStart(4, "0");
/** Slugs run opposite to names, so an order by slug instead of name would show. */
const generatedSlug = (i: number): string => `listing-${pad(GENERATED + 1 - i)}`;
/** Names vary in case and accents; ignoring both, they sort by their number. */
const generatedName = (i: number): string => [`trade ${pad(i)}`, `Tradé ${pad(i)}`, `TRADE ${pad(i)}`][i % 3] ?? "";
/** The whole directory in the order the interface gives (interface §4): by number. */
const GENERATED_ORDER = Array.from({ length: GENERATED }, (_, k) => generatedSlug(k + 1));

function generatedListing(slug: string, id: string, name: string, status: string): string {
  return [
    "---",
    `id: ${id}`,
    `name: "${name}"`,
    "service: Landscaping",
    "category: Outdoor & garden",
    "location:",
    "  city: York",
    "  region: North Yorkshire",
    '  postalCode: "YO1 7HH"',
    "  country: GB",
    `quoteUrl: https://fixture.example/quotes/new?business=${slug}`,
    `status: ${status}`,
    "---",
    `Description of ${name}.`,
    "",
  ].join("\n");
}

describe("directory paging within the 1000-offset browsing limit (generated content)", () => {
  let server: RunningServer;
  let openapi: OpenApiValidator;
  let cleanup: () => Promise<void>;

  before(async () => {
    const temp = await tempDir("directory-large-");
    cleanup = temp.remove;
    const content = join(temp.path, "content");
    await mkdir(join(content, "businesses", "a"), { recursive: true });
    await mkdir(join(content, "businesses", "b"), { recursive: true });
    await mkdir(join(content, "offerings"), { recursive: true });
    await writeFile(
      join(content, "site.md"),
      "---\nname: Large Directory\nsummary: Many listings.\noperator: Fixture Ltd\ncontact:\n  email: help@fixture.example\n---\nHome.\n",
    );
    await writeFile(
      join(content, "offerings", "directory-api.md"),
      "---\nname: Directory API\ndescription: JSON access.\naudience: Developers\naction: Read\naccess: Free.\nfeatures: []\nsteps: []\nquestions: []\n---\nGuide.\n",
    );
    const writes: Promise<void>[] = [];
    for (let i = 1; i <= GENERATED; i += 1) {
      const slug = generatedSlug(i);
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
      writes.push(
        writeFile(
          join(content, "businesses", i % 2 === 0 ? "a" : "b", `${slug}.md`),
          generatedListing(slug, id, generatedName(i), "approved"),
        ),
      );
    }
    // Listings that are not approved, named into the middle of the order: they must not take a place.
    for (const [n, status] of [
      [10, "pending"],
      [500, "rejected"],
      [990, "suspended"],
      [1000, "pending"],
    ] as const) {
      const slug = `hidden-${pad(n)}`;
      writes.push(
        writeFile(
          join(content, "businesses", "a", `${slug}.md`),
          generatedListing(slug, `10000000-0000-4000-8000-${String(n).padStart(12, "0")}`, `Trade ${pad(n)}`, status),
        ),
      );
    }
    await Promise.all(writes);
    await buildSnapshot(content, join(temp.path, "dist"));
    server = await startServer(join(temp.path, "dist"));
    openapi = await OpenApiValidator.fetch(server.url);
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  async function page(query: string): Promise<Page> {
    const answer = await request(server.url, `${SEARCH}${query}`);
    assertSuccessHeaders(answer);
    openapi.assertBody(SEARCH, 200, answer.body);
    return answer.body as Page;
  }

  const cases: [query: string, offset: number, limit: number, nextOffset: number | null][] = [
    ["?offset=950&limit=25", 950, 25, 975],
    ["?offset=975&limit=25", 975, 25, 1000],
    ["?offset=1000&limit=25", 1000, 25, null],
    ["?offset=990", 990, 10, 1000],
    ["?offset=991", 991, 10, null],
    ["?offset=1000", 1000, 10, null],
    ["?offset=1000&limit=1", 1000, 1, null],
    ["?offset=999&limit=1", 999, 1, 1000],
    ["?q=trade&offset=975&limit=25", 975, 25, 1000],
    ["?q=trade&offset=1000&limit=25", 1000, 25, null],
    ["?country=gb&location=york&offset=975&limit=25", 975, 25, 1000],
  ];
  for (const [query, offset, limit, nextOffset] of cases) {
    test(`${query} returns listings ${offset} to ${offset + limit - 1} in name order with nextOffset ${String(nextOffset)}`, async () => {
      const body = await page(query);
      assert.deepEqual(
        body.items.map((item) => item.slug),
        GENERATED_ORDER.slice(offset, offset + limit),
      );
      assert.deepEqual({ limit: body.limit, offset: body.offset, nextOffset: body.nextOffset }, { limit, offset, nextOffset });
    });
  }

  test("returns 400 invalid_parameter for offset 1001 even though more listings exist", async () => {
    const answer = await request(server.url, `${SEARCH}?offset=1001`);
    assertErrorHeaders(answer, 400);
    openapi.assertBody(SEARCH, 400, answer.body);
    assert.deepEqual(answer.body, { error: INVALID.offset });
  });

  for (const [label, query] of [
    ["browsing", ""],
    ["searching q=trade", "q=trade&"],
  ] as const) {
    test(`following nextOffset from 0 with limit 25 (${label}) visits every listing up to the limit once, in order`, async () => {
      const seen: string[] = [];
      const offsets: number[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        assert.ok(offsets.length < 50, "nextOffset never became null");
        const body = await page(`?${query}limit=25&offset=${offset}`);
        assert.equal(body.offset, offset);
        assert.equal(body.limit, 25);
        assert.equal(body.items.length, 25);
        offsets.push(offset);
        seen.push(...body.items.map((item) => item.slug));
        offset = body.nextOffset;
      }
      assert.deepEqual(
        offsets,
        Array.from({ length: 41 }, (_, k) => k * 25),
      );
      assert.equal(new Set(seen).size, seen.length, "a listing was visited twice");
      assert.deepEqual(seen, GENERATED_ORDER.slice(0, 1025));
      assert.ok(!seen.some((slug) => slug.startsWith("hidden-")));
    });
  }
});

// =============================================================================================
// A snapshot whose directory data is unreadable: 503, never an empty result.

describe("directory endpoints when the directory data is unavailable", () => {
  let server: RunningServer;
  let openapi: OpenApiValidator;
  let cleanup: () => Promise<void>;

  before(async () => {
    const temp = await tempDir("directory-unavailable-");
    cleanup = temp.remove;
    const dist = join(temp.path, "dist");
    await buildSnapshot(`${FIXTURES}basic`, dist);
    await writeFile(join(dist, "data", "businesses.ndjson"), "{ not json");
    server = await startServer(dist);
    openapi = await OpenApiValidator.fetch(server.url);
  });
  after(async () => {
    await server.close();
    await cleanup();
  });

  for (const [path, template] of [
    [SEARCH, SEARCH],
    [`${SEARCH}?q=plumb&limit=5`, SEARCH],
    ["/api/directory/apex-electrical", READ],
  ] as const) {
    test(`GET ${path} returns 503 directory_unavailable with Retry-After: 30`, async () => {
      const answer = await request(server.url, path);
      assertErrorHeaders(answer, 503);
      assert.equal(answer.headers.get("retry-after"), "30");
      openapi.assertBody(template, 503, answer.body);
      assert.deepEqual(answer.body, { error: DIRECTORY_UNAVAILABLE });
    });
  }

  test("parameters are still validated first: an invalid limit is 400, not 503", async () => {
    const answer = await request(server.url, `${SEARCH}?limit=0`);
    assertErrorHeaders(answer, 400);
    openapi.assertBody(SEARCH, 400, answer.body);
    assert.deepEqual(answer.body, { error: INVALID.limit });
  });
});
