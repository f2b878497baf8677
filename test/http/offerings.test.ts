/**
 * The offerings' REST endpoints (list or search, read one) over HTTP: interface §4 (offerings
 * search), §5 (errors), §7 (HTTP) and §9 (limits).
 * Expected values are read off test/fixtures/basic/offerings and written here literally.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Offering } from "../../src/schemas/offering.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { type RunningServer, startServer } from "../helpers/server.ts";
import { buildSnapshot, FIXTURES, tempDir } from "../helpers/snapshot.ts";

const LIST = "/api/offerings";
const READ = "/api/offerings/{slug}";
const JSON_TYPE = "application/json; charset=utf-8";
const CACHE_SUCCESS = "public, max-age=60, stale-while-revalidate=60, stale-if-error=86400";
const CACHE_ERROR = "no-store";
const ETAG = /^(W\/)?"[^"]+"$/;

interface ErrorDetail {
  code: string;
  message: string;
  resolution: string;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

// ---------------------------------------------------------------------------------------------
// The fixture's offerings, literally, with absolute URLs under the test BASE_URL.

const REQUEST_QUOTES: Offering = {
  slug: "request-quotes",
  name: "Request quotes",
  description: "Describe a job once and hear back from local trades.",
  audience: "Homeowners and tenants",
  href: "/offerings/request-quotes",
  action: "Request quotes",
  access: "Free for homeowners; sending a request needs an account.",
  url: "https://fixture.example/quotes/new",
  guideUrl: "http://localhost:3000/offerings/request-quotes",
  markdownUrl: "http://localhost:3000/offerings/request-quotes/index.md",
  features: [
    {
      title: "One form",
      text: "Describe the job once, with photos.",
      link: { href: "https://fixture.example/quotes/new", label: "Start a request" },
    },
    { title: "Up to three quotes", text: "Local trades answer within two days." },
  ],
  steps: ["Describe the job", "Compare the quotes"],
  questions: [{ question: "Does it cost anything?", answer: "No." }],
};

const COST_GUIDES: Offering = {
  slug: "cost-guides",
  name: "Cost guides",
  description: "Typical prices for common home jobs.",
  audience: "Anyone planning work",
  href: "/offerings/cost-guides",
  action: "Read the guides",
  access: "Free and open to everyone.",
  url: "http://localhost:3000/offerings/cost-guides",
  guideUrl: "http://localhost:3000/offerings/cost-guides",
  markdownUrl: "http://localhost:3000/offerings/cost-guides/index.md",
  features: [{ title: "Regional prices", text: "Prices per region, updated yearly." }],
  steps: ["Pick a job"],
  questions: [{ question: "How accurate are they?", answer: "They are averages of real quotes." }],
};

const DIRECTORY_API: Offering = {
  slug: "directory-api",
  name: "Directory API",
  description: "Free read-only JSON access to the directory.",
  audience: "Developers and AI agents",
  href: "/offerings/directory-api",
  action: "Read the API documentation",
  access: "Free; no key needed.",
  url: "http://localhost:3000/offerings/directory-api",
  guideUrl: "http://localhost:3000/offerings/directory-api",
  markdownUrl: "http://localhost:3000/offerings/directory-api/index.md",
  features: [{ title: "OpenAPI", text: "A complete OpenAPI 3.1 description of every endpoint, including the Café search." }],
  steps: ["Read openapi.json"],
  questions: [{ question: "Is there a rate limit?", answer: "Yes, a generous one." }],
};

const OFFERINGS: Readonly<Record<string, Offering>> = {
  "request-quotes": REQUEST_QUOTES,
  "cost-guides": COST_GUIDES,
  "directory-api": DIRECTORY_API,
};

/** Catalog order: `order` (request-quotes 1, cost-guides 2, directory-api none), then name. */
const CATALOG = ["request-quotes", "cost-guides", "directory-api"];

// ---------------------------------------------------------------------------------------------
// Error bodies, literally.

const Q_INVALID: ErrorDetail = {
  code: "invalid_parameter",
  message: "Parameter 'q' is invalid: it must be at most 200 characters.",
  resolution: "Send at most 200 characters of search terms, or leave q out to list every offering.",
};

function unknownParameter(described: string, accepted: string): ErrorDetail {
  return {
    code: "unknown_parameter",
    message: `Parameter ${described} is not supported here; ${accepted}.`,
    resolution: "Remove the unknown parameter and send only the accepted ones.",
  };
}

const REPEATED_Q: ErrorDetail = {
  code: "repeated_parameter",
  message: "Parameter 'q' appears more than once.",
  resolution: "Send each parameter at most once.",
};

const OFFERING_NOT_FOUND: ErrorDetail = {
  code: "not_found",
  message: "No offering has this slug.",
  resolution: "List the offerings (GET /api/offerings) and use the exact slug of one of them.",
};

const METHOD_NOT_ALLOWED: ErrorDetail = {
  code: "method_not_allowed",
  message: "This method is not supported here: the interface is read-only. Use GET or HEAD.",
  resolution: "Send a GET or HEAD request; nothing can be created, changed or deleted through this interface.",
};

// =============================================================================================

let server: RunningServer;
let openapi: OpenApiValidator;
let cleanup: () => Promise<void>;

before(async () => {
  const dist = await tempDir("offerings-test-");
  cleanup = dist.remove;
  await buildSnapshot(`${FIXTURES}basic`, `${dist.path}/dist`);
  server = await startServer(`${dist.path}/dist`);
  openapi = await OpenApiValidator.fetch(server.url);
});
after(async () => {
  await server.close();
  await cleanup();
});

async function request(path: string, method = "GET"): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, { method });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === "" ? undefined : (JSON.parse(text) as unknown) };
}

function assertSuccessHeaders(answer: Answer): void {
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get("content-type"), JSON_TYPE);
  assert.equal(answer.headers.get("cache-control"), CACHE_SUCCESS);
  assert.match(answer.headers.get("etag") ?? "", ETAG);
}

/** GET the list with `query`, assert a 200 with exactly these offerings (full objects) and total. */
async function expectList(query: string, slugs: readonly string[]): Promise<void> {
  const answer = await request(`${LIST}${query}`);
  assertSuccessHeaders(answer);
  openapi.assertBody(LIST, 200, answer.body);
  const body = answer.body as { items: Offering[]; total: number };
  assert.deepEqual(
    body.items.map((item) => item.slug),
    [...slugs],
    `slugs of ${query}`,
  );
  assert.deepEqual(body, {
    items: slugs.map((slug) => {
      const offering = OFFERINGS[slug];
      assert.ok(offering, `no fixture offering ${slug}`);
      return offering;
    }),
    total: slugs.length,
  });
}

async function expectError(path: string, template: string, status: number, error: ErrorDetail, method = "GET"): Promise<Answer> {
  const answer = await request(path, method);
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.headers.get("content-type"), JSON_TYPE);
  assert.equal(answer.headers.get("cache-control"), CACHE_ERROR);
  assert.equal(answer.headers.get("etag"), null);
  openapi.assertBody(template, status, answer.body);
  assert.deepEqual(answer.body, { error });
  return answer;
}

describe("list offerings (endpoint 3)", () => {
  test("without q returns every offering in catalog order (order, then name) with total 3", async () => {
    await expectList("", CATALOG);
  });

  test("an empty q returns every offering", async () => {
    await expectList("?q=", CATALOG);
  });

  test("a q of only spaces returns every offering", async () => {
    await expectList(`?q=${encodeURIComponent("   ")}`, CATALOG);
  });
});

describe("search offerings (endpoint 3; interface §4)", () => {
  const cases: [description: string, q: string, slugs: string[]][] = [
    // Fields: name, description, audience, feature titles, feature texts.
    ["matches a word of the name", "quotes", ["request-quotes"]],
    ["matches a word of the name (guides)", "guides", ["cost-guides"]],
    ["matches a word of the description (typical)", "typical", ["cost-guides"]],
    ["matches a word of the description (free)", "free", ["directory-api"]],
    ["matches a word of the audience (tenants)", "tenants", ["request-quotes"]],
    ["matches a word of the audience (anyone)", "anyone", ["cost-guides"]],
    ["matches a word of a feature title (regional)", "regional", ["cost-guides"]],
    ["matches a word of a feature title (form)", "form", ["request-quotes"]],
    ["matches a word of a feature text (yearly)", "yearly", ["cost-guides"]],
    ["matches a word of a feature text (photos)", "photos", ["request-quotes"]],
    ["matches a word of a feature text (Café, accent-insensitively: cafe)", "cafe", ["directory-api"]],
    // Prefixes only.
    ["matches a prefix of a word (quot)", "quot", ["request-quotes"]],
    ["matches a prefix of a word (dev finds Developers)", "dev", ["directory-api"]],
    ["matches a one-letter prefix, in catalog order (a)", "a", ["request-quotes", "cost-guides", "directory-api"]],
    ["returns several matches in catalog order (d)", "d", ["request-quotes", "directory-api"]],
    ["does not match the middle of a word (uotes)", "uotes", []],
    ["does not match the middle of a word (veloper)", "veloper", []],
    ["does not match a term longer than the word (quotess)", "quotess", []],
    // AND.
    ["all terms must match (local trades)", "local trades", ["request-quotes"]],
    ["all terms must match, across fields (homeowners photos)", "homeowners photos", ["request-quotes"]],
    ["all terms must match, as prefixes (loc tra)", "loc tra", ["request-quotes"]],
    ["one unmatched term gives nothing (local developers)", "local developers", []],
    ["spaces around and between terms are ignored", "  local   trades  ", ["request-quotes"]],
    // Case- and accent-insensitive.
    ["upper case matches (QUOTES)", "QUOTES", ["request-quotes"]],
    ["an accented upper-case term matches (CAFÉ)", "CAFÉ", ["directory-api"]],
    ["an accented term matches an unaccented word (prícés)", "prícés", ["cost-guides"]],
    // What is not searched.
    ["does not search the access conditions (everyone)", "everyone", []],
    ["does not search the steps (pick)", "pick", []],
    ["does not search the FAQ (averages)", "averages", []],
    ["does not search the FAQ (accurate)", "accurate", []],
    ["does not search the guide body (using)", "using", []],
    ["an unmatched query is an empty list", "zzzz", []],
    ["markup in q is accepted and matches nothing", "<script>", []],
  ];
  for (const [description, q, slugs] of cases) {
    test(`q=${q}: ${description}`, async () => {
      await expectList(`?q=${encodeURIComponent(q)}`, slugs);
    });
  }

  test("terms separated by + (form encoding of a space) all must match", async () => {
    await expectList("?q=local+trades", ["request-quotes"]);
  });

  test("q of exactly 200 characters is accepted", async () => {
    await expectList(`?q=${"a".repeat(200)}`, []);
  });

  test("q of 200 characters made of many terms is accepted", async () => {
    const q = `${"local ".repeat(32)}trades`.padEnd(200, " ");
    assert.equal(q.length, 200);
    await expectList(`?q=${encodeURIComponent(q)}`, ["request-quotes"]);
  });
});

describe("offerings parameter rules (endpoint 3, Limits, Errors)", () => {
  test("returns 400 invalid_parameter when q is over 200 characters", async () => {
    await expectError(`${LIST}?q=${"a".repeat(201)}`, LIST, 400, Q_INVALID);
  });

  test("returns 400 invalid_parameter when q is over 200 characters of spaces and terms", async () => {
    await expectError(`${LIST}?q=${encodeURIComponent(`quotes${" ".repeat(195)}`)}`, LIST, 400, Q_INVALID);
  });

  for (const name of ["limit", "offset", "Q", "query", "utm_source"]) {
    test(`returns 400 unknown_parameter naming an unknown parameter (${name})`, async () => {
      await expectError(`${LIST}?${name}=1`, LIST, 400, unknownParameter(`'${name}'`, "accepted parameters: q"));
    });
  }

  test("returns 400 unknown_parameter next to a valid q", async () => {
    await expectError(`${LIST}?q=quotes&page=2`, LIST, 400, unknownParameter("'page'", "accepted parameters: q"));
  });

  test("returns 400 unknown_parameter without echoing an unknown parameter name that contains markup", async () => {
    const answer = await expectError(
      `${LIST}?${encodeURIComponent("<img src=x onerror=alert(1)>")}=1`,
      LIST,
      400,
      unknownParameter("with an unsupported name", "accepted parameters: q"),
    );
    assert.ok(!answer.text.includes("<"), answer.text);
    assert.ok(!answer.text.includes("onerror"), answer.text);
  });

  test("returns 400 repeated_parameter when q appears twice", async () => {
    await expectError(`${LIST}?q=quotes&q=guides`, LIST, 400, REPEATED_Q);
  });

  test("returns 400 repeated_parameter when q appears twice with the same value", async () => {
    await expectError(`${LIST}?q=quotes&q=quotes`, LIST, 400, REPEATED_Q);
  });

  test("returns 400 repeated_parameter when q appears twice, once empty", async () => {
    await expectError(`${LIST}?q=&q=quotes`, LIST, 400, REPEATED_Q);
  });
});

describe("read one offering (endpoint 4)", () => {
  for (const slug of CATALOG) {
    test(`returns the offering ${slug} with every field, URLs absolute under BASE_URL`, async () => {
      const answer = await request(`${LIST}/${slug}`);
      assertSuccessHeaders(answer);
      openapi.assertBody(READ, 200, answer.body);
      assert.deepEqual(answer.body, OFFERINGS[slug]);
    });
  }

  test("returns request-quotes exactly: its given url, its feature link, guide and Markdown URLs", async () => {
    const answer = await request(`${LIST}/request-quotes`);
    assertSuccessHeaders(answer);
    openapi.assertBody(READ, 200, answer.body);
    assert.deepEqual(answer.body, {
      slug: "request-quotes",
      name: "Request quotes",
      description: "Describe a job once and hear back from local trades.",
      audience: "Homeowners and tenants",
      href: "/offerings/request-quotes",
      action: "Request quotes",
      access: "Free for homeowners; sending a request needs an account.",
      url: "https://fixture.example/quotes/new",
      guideUrl: "http://localhost:3000/offerings/request-quotes",
      markdownUrl: "http://localhost:3000/offerings/request-quotes/index.md",
      features: [
        {
          title: "One form",
          text: "Describe the job once, with photos.",
          link: { href: "https://fixture.example/quotes/new", label: "Start a request" },
        },
        { title: "Up to three quotes", text: "Local trades answer within two days." },
      ],
      steps: ["Describe the job", "Compare the quotes"],
      questions: [{ question: "Does it cost anything?", answer: "No." }],
    });
    // Property order is part of "exact JSON": the Offering table's order.
    assert.deepEqual(Object.keys(answer.body as object), [
      "slug",
      "name",
      "description",
      "audience",
      "href",
      "action",
      "access",
      "url",
      "guideUrl",
      "markdownUrl",
      "features",
      "steps",
      "questions",
    ]);
  });

  test("each offering in the list is the same as the offering read by its slug", async () => {
    const list = await request(LIST);
    assertSuccessHeaders(list);
    for (const item of (list.body as { items: Offering[] }).items) {
      const one = await request(`${LIST}/${item.slug}`);
      assertSuccessHeaders(one);
      assert.deepEqual(one.body, item);
    }
  });

  const unknown: [description: string, slug: string][] = [
    ["an unknown slug", "no-such-offering"],
    ["a slug in another case (Request-Quotes)", "Request-Quotes"],
    ["a prefix of a slug", "request"],
    ["a slug with a trailing hyphen", "request-quotes-"],
    ["a slug with markup", encodeURIComponent("<script>alert(1)</script>")],
    ["a slug with an encoded slash", "request-quotes%2Fx"],
    ["a business slug", "apex-electrical"],
    ["a slug of 200 characters", "a".repeat(200)],
  ];
  for (const [description, slug] of unknown) {
    test(`returns 404 not_found for ${description}`, async () => {
      const answer = await expectError(`${LIST}/${slug}`, READ, 404, OFFERING_NOT_FOUND);
      assert.ok(!answer.text.includes("<"), "unescaped input is echoed");
    });
  }

  for (const length of [600, 1200]) {
    test(`returns 404 not_found for a slug of ${length} characters`, async () => {
      await expectError(`${LIST}/${"a".repeat(length)}`, READ, 404, OFFERING_NOT_FOUND);
    });
  }

  for (const query of ["q=quotes", "format=md", "utm_source=mail"]) {
    test(`returns 400 unknown_parameter for a query parameter on the single-offering endpoint (${query})`, async () => {
      const name = query.slice(0, query.indexOf("="));
      await expectError(`${LIST}/request-quotes?${query}`, READ, 400, unknownParameter(`'${name}'`, "it takes no parameters"));
    });
  }
});

describe("methods on the offerings endpoints (endpoints 3 and 4; interface §7)", () => {
  for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
    for (const [path, template] of [
      [LIST, LIST],
      [`${LIST}/request-quotes`, READ],
    ] as const) {
      test(`returns 405 method_not_allowed saying to use GET or HEAD for ${method} ${path}`, async () => {
        const answer = await expectError(path, template, 405, METHOD_NOT_ALLOWED, method);
        assert.equal(answer.headers.get("allow"), "GET, HEAD");
      });
    }
  }

  const heads: [path: string, status: number][] = [
    [LIST, 200],
    [`${LIST}?q=quotes`, 200],
    [`${LIST}?q=zzzz`, 200],
    [`${LIST}/request-quotes`, 200],
    [`${LIST}/directory-api`, 200],
    [`${LIST}/no-such-offering`, 404],
    [`${LIST}?limit=1`, 400],
    [`${LIST}/request-quotes?q=x`, 400],
  ];
  for (const [path, status] of heads) {
    test(`HEAD ${path} answers ${status} with the headers of GET (content-length, etag) and no body`, async () => {
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
      assert.equal(head.headers.get("content-length"), String(Buffer.byteLength(getBody)));
      if (status === 200) assert.match(head.headers.get("etag") ?? "", ETAG);
      else assert.equal(head.headers.get("etag"), null);
      assert.equal(await head.text(), "");
    });
  }
});
